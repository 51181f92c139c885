#!/usr/bin/env bash
# Scale benchmark (docs/DESIGN.md §8 "Persisted index"): `search` on N perturbed copies of
# the `large` tree (each file of copy i gets a line naming i, so no two copies are
# byte-identical and nothing folds; every file dated an hour back), printing wall time and peak RSS, and peak RSS as a
# share of the corpus bytes: in memory (`--no-index-cache`), the first search through the
# persisted index (empty cache; it writes the index after the answer) and the second one on
# the unchanged tree. Benchmarks never gate CI (always exit 0).
#
#   benches/scale.sh [N...]        (default: 1 16; each N is a row)
#
# Inputs: SKILLNAV_BENCH_CORPUS (default ../shared/corpus) with `large/`; the binary:
# SKILLNAV_BIN (default target/release/skillnav). The copies are written to a temporary
# folder (N × 19 MB) and removed at the end.
set -u
cd "$(dirname "$0")/.." || exit 0
CORPUS=${SKILLNAV_BENCH_CORPUS:-../shared/corpus}
BIN=${SKILLNAV_BIN:-target/release/skillnav}
LARGE=$CORPUS/large
[ -x "$BIN" ] || { echo "scale: $BIN not found; run cargo build --release"; exit 0; }
[ -d "$LARGE" ] || { echo "scale: $LARGE not found; set SKILLNAV_BENCH_CORPUS"; exit 0; }
BIN=$(realpath "$BIN")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
SIZES=("$@")
[ ${#SIZES[@]} -eq 0 ] && SIZES=(1 16)

# one MODE ROOT CACHE: "<wall ms> <peak RSS MB>" of one search (MODE memory: --no-index-cache).
one() {
  local flag=() t0 t1
  [ "$1" = memory ] && flag=(--no-index-cache)
  t0=$(date +%s%N)
  XDG_CACHE_HOME=$3 SKILLNAV_MODELS_DIR=$TMP/no-models /usr/bin/time -f %M -o "$TMP/rss" \
    "$BIN" search "${flag[@]}" "how does a feature gate graduate to GA" "$2" >/dev/null 2>&1
  t1=$(date +%s%N)
  awk -v t="$(((t1 - t0) / 1000000))" -v r="$(tail -n 1 "$TMP/rss")" 'BEGIN { printf "%d %.0f\n", t, r / 1024 }'
}

echo "scale: $(nproc) cores; $(date -u +%FT%TZ); load: $(cut -d' ' -f1-3 /proc/loadavg)"
for n in "${SIZES[@]}"; do
  root=$TMP/copies-$n
  python3 - "$LARGE" "$root" "$n" <<'PY'
import os, sys
src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
for i in range(n):
    for d, _, files in os.walk(src):
        out = os.path.join(dst, f"copy{i:02d}", os.path.relpath(d, src))
        os.makedirs(out, exist_ok=True)
        for f in files:
            data = open(os.path.join(d, f), "rb").read()
            if f.endswith(".md"):
                data += f"\n\nPerturbed copy {i}.\n".encode()
            open(os.path.join(out, f), "wb").write(data)
PY
  # An hour old, as a tree nobody is editing: a file modified (or whose change time moved,
  # as touch moves it) within 2 s of a load is not trusted by the persisted index and would
  # be read again, so wait those 2 s too.
  find "$root" -exec touch -h -d '1 hour ago' {} +
  sleep 2.1
  bytes=$(find "$root" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
  mb=$(awk -v b="$bytes" 'BEGIN { printf "%.0f", b / 1048576 }')
  read -r mt mr < <(one memory "$root" "$TMP/cache-mem-$n")
  read -r ft fr < <(one persisted "$root" "$TMP/cache-$n")
  read -r st sr < <(one persisted "$root" "$TMP/cache-$n")
  share() { awk -v r="$1" -v b="$bytes" 'BEGIN { printf "%.2f", r * 1048576 / b }'; }
  echo "${n}× ($mb MB): in memory $mt ms, $mr MB ($(share "$mr")× the corpus); first $ft ms, $fr MB ($(share "$fr")×); second $st ms, $sr MB ($(share "$sr")×; $(awk -v a="$ft" -v b="$st" 'BEGIN { printf "%.2f", b / a }')× the first)"
  rm -rf "$root" "$TMP"/cache-*
done
