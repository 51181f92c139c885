#!/usr/bin/env python3
"""Baseline for `cargo bench --bench search` (docs/DESIGN.md §8): Python rank-bm25 over the same
section texts skillnav indexes.

Usage: baseline_rank_bm25.py DOCS.jsonl [QUERIES.txt] [--repeat N]
       baseline_rank_bm25.py DOCS.jsonl --serve

DOCS.jsonl has one JSON object per line with a "text" field (the section's own text, as
skillnav's index sees it). Each text is tokenized with a simple regex (lower-case, `\\w+`)
and the corpus is indexed with `rank_bm25.BM25Okapi` (k1 1.5, b 0.75 — its defaults).
QUERIES.txt, if given, holds one query per line; each is scored with `get_scores` (a full
scan, rank-bm25 has no inverted index).

With --repeat N (default 1) the read, tokenize and index phases run N times in this process
(each round starts from the file) and every phase figure is the median over the rounds, so one
slow round does not move the ratio; `rounds_to_searchable_s` lists every round's figure.

Prints one JSON object on stdout:
  docs, rounds, read_s (reading + parsing the JSONL), tokenize_s, index_s (BM25Okapi
  constructor), to_searchable_s (median of tokenize + index per round), from_files_s (median
  of read + tokenize + index per round), rounds_to_searchable_s, query_p50_ms, query_p95_ms
  (when queries given; over the last round's index).

With --serve it runs one round at a time, when asked, so a caller can interleave its own rounds
with these (both sides then meet the same machine state). One command a line on stdin, one JSON
line back on stdout for each:
  ready            {"ready": true}, once the imports are done (so starting the process does
                   not compete with the caller's first measured round)
  round            read, tokenize and index once: docs, read_s, tokenize_s, index_s
  queries PATH     score every query of the file PATH on the last round's index:
                   query_p50_ms, query_p95_ms (an "error" field when no round ran yet)
It ends at the end of stdin. An unknown command gets {"error": ...}.

Exit status 3 if rank_bm25 is not installed (`pip install rank-bm25`).
"""

import json
import re
import sys
import time

try:
    from rank_bm25 import BM25Okapi
except ImportError:
    print("rank_bm25 is not installed: pip install rank-bm25", file=sys.stderr)
    sys.exit(3)

WORD = re.compile(r"\w+")


def tokenize(text):
    return WORD.findall(text.lower())


def percentile(sorted_values, p):
    if not sorted_values:
        return 0.0
    k = min(len(sorted_values) - 1, max(0, int(round(p / 100.0 * (len(sorted_values) - 1)))))
    return sorted_values[k]


def median(values):
    s = sorted(values)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2.0


def one_round(docs_path):
    """Read, tokenize and index once; returns (texts, bm25, read_s, tokenize_s, index_s)."""
    t0 = time.perf_counter()
    with open(docs_path, encoding="utf-8") as f:
        texts = [json.loads(line)["text"] for line in f if line.strip()]
    t1 = time.perf_counter()
    corpus = [tokenize(t) for t in texts]
    t2 = time.perf_counter()
    bm25 = BM25Okapi(corpus, k1=1.5, b=0.75)
    t3 = time.perf_counter()
    return texts, bm25, t1 - t0, t2 - t1, t3 - t2


def query_times(bm25, queries_path):
    """p50 and p95 of scoring every query of the file (ms) with `get_scores`."""
    with open(queries_path, encoding="utf-8") as f:
        queries = [q.strip() for q in f if q.strip()]
    times = []
    for q in queries:
        s = time.perf_counter()
        bm25.get_scores(tokenize(q))
        times.append((time.perf_counter() - s) * 1000.0)
    times.sort()
    return {"query_p50_ms": percentile(times, 50), "query_p95_ms": percentile(times, 95)}


def serve(docs_path):
    """The --serve loop: one round or one query pass per command line (see the module doc)."""
    bm25 = None
    for line in sys.stdin:
        words = line.split(maxsplit=1)
        if not words:
            continue
        if words[0] == "ready":
            out = {"ready": True}
        elif words[0] == "round":
            # Free the previous round's index before building the next one.
            texts, bm25 = [], None
            texts, bm25, r, t, x = one_round(docs_path)
            out = {"docs": len(texts), "read_s": r, "tokenize_s": t, "index_s": x}
        elif words[0] == "queries" and len(words) == 2:
            if bm25 is None:
                out = {"error": "no round has run yet"}
            else:
                out = query_times(bm25, words[1].strip())
        else:
            out = {"error": "unknown command %r" % line.strip()}
        print(json.dumps(out), flush=True)


def main():
    args = sys.argv[1:]
    if "--serve" in args:
        args.remove("--serve")
        if len(args) != 1:
            print(__doc__, file=sys.stderr)
            sys.exit(2)
        serve(args[0])
        return
    repeat = 1
    if "--repeat" in args:
        i = args.index("--repeat")
        try:
            repeat = max(1, int(args[i + 1]))
        except (IndexError, ValueError):
            print(__doc__, file=sys.stderr)
            sys.exit(2)
        del args[i : i + 2]
    if not args:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    reads, toks, idxs = [], [], []
    for _ in range(repeat):
        # Free the previous round's index before building the next one.
        texts, bm25 = [], None
        texts, bm25, r, t, x = one_round(args[0])
        reads.append(r)
        toks.append(t)
        idxs.append(x)
    out = {
        "docs": len(texts),
        "rounds": repeat,
        "read_s": median(reads),
        "tokenize_s": median(toks),
        "index_s": median(idxs),
        "to_searchable_s": median([t + x for t, x in zip(toks, idxs)]),
        "from_files_s": median([r + t + x for r, t, x in zip(reads, toks, idxs)]),
        "rounds_to_searchable_s": [t + x for t, x in zip(toks, idxs)],
    }
    if len(args) > 1:
        out.update(query_times(bm25, args[1]))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
