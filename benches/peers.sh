#!/usr/bin/env bash
# Peers benchmark (docs/DESIGN.md §8): skillnav beside code2prompt, treemd and rank-bm25 on
# the same inputs, in one run, printing medians and same-run ratios. A peer that is not
# installed is skipped with a line saying so; benchmarks never gate CI (always exit 0).
#
#   benches/peers.sh [RUNS]        (default 7 runs per command; the median is printed)
#
# Inputs: SKILLNAV_BENCH_CORPUS (default ../shared/corpus) with `large/`,
# `anthropic-skills/` and `skill-seekers/hono-unified/references/llms-full.md`.
# The binary: SKILLNAV_BIN (default target/release/skillnav; build it with
# `cargo build --release`). "cold" runs get an empty count cache (a fresh XDG_CACHE_HOME per
# run), "warm" runs a filled one.
set -u
cd "$(dirname "$0")/.." || exit 0
RUNS=${1:-7}
CORPUS=${SKILLNAV_BENCH_CORPUS:-../shared/corpus}
BIN=${SKILLNAV_BIN:-target/release/skillnav}
LARGE=$CORPUS/large
SKILLS=$CORPUS/anthropic-skills
FULL=$CORPUS/skill-seekers/hono-unified/references/llms-full.md
if [ ! -x "$BIN" ]; then
  echo "peers: $BIN not found; run cargo build --release (or set SKILLNAV_BIN)"; exit 0
fi
if [ ! -d "$LARGE" ] || [ ! -d "$SKILLS" ] || [ ! -f "$FULL" ]; then
  echo "peers: corpus not found under $CORPUS; set SKILLNAV_BENCH_CORPUS"; exit 0
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
WARM=$TMP/warm-cache
have() { command -v "$1" >/dev/null 2>&1; }

# median_ms MODE CMD...: run CMD $RUNS times (MODE cold: fresh cache each run; warm: the
# shared warm cache; none: no cache variable set) with output to /dev/null; prints
# "<median ms> <median peak RSS MB>".
median_ms() {
  local mode=$1; shift
  local times=() rss=() i cache t0 t1
  for ((i = 0; i < RUNS; i++)); do
    case $mode in
      cold) cache=$TMP/cold-$i-$RANDOM; mkdir -p "$cache" ;;
      *) cache=$WARM ;;
    esac
    t0=$(date +%s%N)
    XDG_CACHE_HOME=$cache /usr/bin/time -f %M -o "$TMP/rss" "$@" >/dev/null 2>"$TMP/err"
    t1=$(date +%s%N)
    times+=($(((t1 - t0) / 1000)))
    rss+=("$(tail -n 1 "$TMP/rss")")
    [ "$mode" = cold ] && rm -rf "$cache"
  done
  local mt mr
  mt=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((RUNS + 1) / 2))p")
  mr=$(printf '%s\n' "${rss[@]}" | sort -n | sed -n "$(((RUNS + 1) / 2))p")
  awk -v t="$mt" -v r="$mr" 'BEGIN { printf "%.1f %.0f\n", t / 1000, r / 1024 }'
}

# row LABEL MS_A MS_B: "LABEL: a ms vs b ms (ratio b/a ×)".
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (a > 0 ? b / a : 0) }'; }

echo "peers: $RUNS runs each, medians; $(nproc) cores; $(date -u +%FT%TZ)"
# Fill the warm cache once.
XDG_CACHE_HOME=$WARM "$BIN" tree --depth 1 "$LARGE" >/dev/null 2>&1
XDG_CACHE_HOME=$WARM "$BIN" tree --depth 1 "$SKILLS" >/dev/null 2>&1
XDG_CACHE_HOME=$WARM "$BIN" tree "$FULL" >/dev/null 2>&1

read -r cat_ms _ < <(median_ms none sh -c "find '$LARGE' -type f -exec cat {} + >/dev/null")
echo "baseline: cat of every file of large: $cat_ms ms"

# 1. Heading tree of llms-full.md.
read -r b4 _ < <(median_ms none "$BIN" tree --encoding bytes4 "$FULL")
read -r cold _ < <(median_ms cold "$BIN" tree "$FULL")
read -r warm _ < <(median_ms warm "$BIN" tree "$FULL")
echo "heading tree of llms-full.md: o200k cold $cold ms ($(ratio "$b4" "$cold")× the bytes4 run, goal ≤ 5), warm $warm ms ($(ratio "$b4" "$warm")×, goal ≤ 2), bytes4 $b4 ms"
if have treemd; then
  read -r tm _ < <(median_ms none treemd --tree "$FULL")
  echo "  treemd --tree: $tm ms; skillnav warm / treemd = $(ratio "$tm" "$warm")"
else
  echo "  treemd: not installed, skipped (cargo install --locked treemd)"
fi

# The fixed cost of counting: a one-line file, where loading the BPE tables is all the work.
printf '# one line\n' >"$TMP/tiny.md"
read -r tb4 tb4rss < <(median_ms none "$BIN" tree --encoding bytes4 "$TMP/tiny.md")
read -r tcold tcrss < <(median_ms cold "$BIN" tree "$TMP/tiny.md")
echo "tree of a one-line file: o200k cold $tcold ms ($tcrss MB), bytes4 $tb4 ms ($tb4rss MB): the tables cost $(awk -v a="$tb4" -v b="$tcold" 'BEGIN { printf "%.1f", b - a }') ms, $((tcrss - tb4rss)) MB"

# 2, 3. Token count of a tree: skillnav tree --depth 1 vs code2prompt.
for dir in "$LARGE" "$SKILLS"; do
  name=$(basename "$dir")
  read -r cold crss < <(median_ms cold "$BIN" tree --depth 1 "$dir")
  read -r warm wrss < <(median_ms warm "$BIN" tree --depth 1 "$dir")
  line="token count of $name: skillnav cold $cold ms ($crss MB), warm $warm ms ($wrss MB)"
  [ "$dir" = "$LARGE" ] && line="$line; cold = $(ratio "$cat_ms" "$cold")× a cat (goal ≤ 15)"
  echo "$line"
  if have code2prompt; then
    read -r c2p c2rss < <(median_ms none code2prompt "$dir" --encoding o200k -O /dev/null)
    # Goals (docs/DESIGN.md §8): ≥ 2.5× on large; on anthropic-skills ≥ 4.3×, the same-run
    # form of its "≤ 60 ms" set when code2prompt took 257 ms on this machine kind.
    goal="≥ 2.5"
    [ "$dir" = "$SKILLS" ] && goal="≥ 4.3, i.e. ≤ 60 ms when code2prompt takes 257 ms"
    echo "  code2prompt: $c2p ms ($c2rss MB); skillnav cold is $(ratio "$cold" "$c2p")× faster (goal $goal)"
  else
    echo "  code2prompt: not installed, skipped (cargo install --locked code2prompt)"
  fi
done

# 5. tree --json of the large tree.
read -r cold crss < <(median_ms cold "$BIN" tree --json "$LARGE")
read -r warm wrss < <(median_ms warm "$BIN" tree --json "$LARGE")
echo "tree --json of large: cold $cold ms ($crss MB peak), warm $warm ms ($wrss MB peak) (goal ≤ 1000 ms, ≤ 120 MB)"

# 6. CLI search: load + index + query, in memory (--no-index-cache), then through the
# persisted index (docs/DESIGN.md §8 "Persisted index"): the first search with an empty
# cache (it also writes the index file after the answer) and a second one on the unchanged
# tree (the warm cache holds the index after one fill).
read -r s srss < <(median_ms cold "$BIN" search --no-index-cache graduation "$LARGE")
read -r first frss < <(median_ms cold "$BIN" search graduation "$LARGE")
XDG_CACHE_HOME=$WARM "$BIN" search graduation "$LARGE" >/dev/null 2>&1
read -r second wrss < <(median_ms warm "$BIN" search graduation "$LARGE")
echo "search graduation in large (load + index + query): in memory $s ms ($srss MB peak); persisted index: first $first ms ($frss MB), second $second ms ($wrss MB) = $(ratio "$first" "$second")× the first (goal ≤ 0.25), $(ratio "$s" "$second")× the in-memory search"

# 7. The stripped binary (goal ≤ 40 MB; treemd and code2prompt beside it when installed).
size_mb() { strip -o "$TMP/stripped" "$1" 2>/dev/null && stat -c %s "$TMP/stripped" | awk '{ printf "%.1f", $1 / 1e6 }'; }
line="stripped binary: skillnav $(size_mb "$BIN") MB (goal ≤ 40 MB)"
for peer in treemd code2prompt; do
  have "$peer" && line="$line, $peer $(size_mb "$(command -v "$peer")") MB"
done
echo "$line"

# 8. BM25 against Python rank-bm25 (the search bench measures both in one process run).
if python3 -c "import rank_bm25" 2>/dev/null; then
  echo "rank-bm25: installed; files → searchable vs rank-bm25 is printed by cargo bench --bench search"
else
  echo "rank-bm25: not installed, skipped (pip install rank-bm25)"
fi
exit 0
