#!/usr/bin/env python3
"""Reference vectors for skillnav's re-rank encoder (docs/DESIGN.md §3 "Re-rank").

Writes ``tests/fixtures/rerank/golden.json``: for a few texts, the model's own input ids (the
Hugging Face ``tokenizers`` library reading the model folder's ``tokenizer.json``, truncated to
256 positions as sentence-transformers' ``max_seq_length``) and the sentence vector
sentence-transformers would return (mean of the last layer's states over every position,
L2-normalised), computed here with numpy by the independent forward pass of
``tools/make_embeddings.py`` (no torch); plus the cosine of a few pairs. The Rust tests
(``tests/rerank/``) check that skillnav's WordPiece gives the same ids and its encoder the
same vectors.

Run once (not in CI): ``pip install tokenizers numpy``, then
``python3 tools/rerank_reference.py "$(tools/fetch-model.sh)"``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
from tokenizers import Tokenizer

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_embeddings import encode, read_safetensors, sha256  # noqa: E402

MODEL_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
MAX_SEQ = 256
OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "rerank" / "golden.json"
TEXTS = [
    "How do I stash my changes?",
    "Middleware for CORS headers",
    "getUserById returns a Promise",
    "Café naïve résumé",
    "kube-apiserver --feature-gates",
    "A man is eating food.",
    "A man is eating a piece of bread.",
    "The girl is carrying a baby.",
    "Getting Started\nInstallation\nRun `npm create hono@latest` to scaffold a new project, then `npm run dev`.",
    " ".join(["Each request passes through the middleware stack in order;"] * 30),
]
PAIRS = [(5, 6), (5, 7), (0, 1), (1, 8)]


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: rerank_reference.py MODEL_DIR")
    src = Path(sys.argv[1])
    if sha256(src / "model.safetensors") != MODEL_SHA256:
        sys.exit("model.safetensors differs from the pinned sha256")
    w = read_safetensors(src / "model.safetensors")
    tok = Tokenizer.from_file(str(src / "tokenizer.json"))
    tok.enable_truncation(MAX_SEQ)
    tok.no_padding()
    rows = []
    vecs = []
    for text in TEXTS:
        ids = tok.encode(text).ids
        states = encode(w, np.array([ids]))[0].astype(np.float64)
        v = states.mean(axis=0)
        v /= np.linalg.norm(v)
        vecs.append(v)
        rows.append({"text": text, "ids": ids, "vector": [round(float(x), 6) for x in v]})
    pairs = [
        {"a": a, "b": b, "cosine": round(float(vecs[a] @ vecs[b]), 6)} for a, b in PAIRS
    ]
    doc = {"model_sha256": MODEL_SHA256, "max_seq_length": MAX_SEQ, "texts": rows, "pairs": pairs}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    for p in pairs:
        print(TEXTS[p["a"]][:40], "|", TEXTS[p["b"]][:40], p["cosine"], file=sys.stderr)


if __name__ == "__main__":
    main()
