#!/usr/bin/env python3
"""Baseline for `cargo bench --bench search` (docs/DESIGN.md §8): Python rank-bm25 over the same
section texts skillnav indexes.

Usage: baseline_rank_bm25.py DOCS.jsonl [QUERIES.txt]

DOCS.jsonl has one JSON object per line with a "text" field (the section's own text, as
skillnav's index sees it). Each text is tokenized with a simple regex (lower-case, `\\w+`)
and the corpus is indexed with `rank_bm25.BM25Okapi` (k1 1.5, b 0.75 — its defaults).
QUERIES.txt, if given, holds one query per line; each is scored with `get_scores` (a full
scan, rank-bm25 has no inverted index).

Prints one JSON object on stdout:
  docs, read_s (reading + parsing the JSONL), tokenize_s, index_s (BM25Okapi constructor),
  to_searchable_s (tokenize_s + index_s), query_p50_ms, query_p95_ms (when queries given).
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


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    t0 = time.perf_counter()
    with open(sys.argv[1], encoding="utf-8") as f:
        texts = [json.loads(line)["text"] for line in f if line.strip()]
    t1 = time.perf_counter()
    corpus = [tokenize(t) for t in texts]
    t2 = time.perf_counter()
    bm25 = BM25Okapi(corpus, k1=1.5, b=0.75)
    t3 = time.perf_counter()
    out = {
        "docs": len(texts),
        "read_s": t1 - t0,
        "tokenize_s": t2 - t1,
        "index_s": t3 - t2,
        "to_searchable_s": t3 - t1,
    }
    if len(sys.argv) > 2:
        with open(sys.argv[2], encoding="utf-8") as f:
            queries = [q.strip() for q in f if q.strip()]
        times = []
        for q in queries:
            s = time.perf_counter()
            bm25.get_scores(tokenize(q))
            times.append((time.perf_counter() - s) * 1000.0)
        times.sort()
        out["query_p50_ms"] = percentile(times, 50)
        out["query_p95_ms"] = percentile(times, 95)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
