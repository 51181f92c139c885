#!/usr/bin/env bash
# TUI memory benchmark (docs/DESIGN.md §8): the release TUI on the large tree under tmux,
# from launch until loading, indexing and token counting are done; prints its peak RSS
# (VmHWM) and its steady RSS (VmRSS once the status line is idle), with o200k_base (the
# default encoding) and with bytes4 (no BPE tables loaded), and the CLI's `tree --depth 1`
# and `search` peaks as same-run references. Benchmarks never gate CI (always exit 0).
#
#   benches/tui_rss.sh [RUNS]      (default 3 runs per row; the median is printed)
#
# Inputs: SKILLNAV_BENCH_CORPUS (default ../shared/corpus) with `large/`; the binary:
# SKILLNAV_BIN (default target/release/skillnav; build it with `cargo build --release`).
# Every run gets an empty count cache (cold: every count is a BPE pass; the warm row a copy
# of a cache filled by one `tree` run, the saved-index row one a `search` also wrote the
# persisted index to) and an empty config folder, so user settings (`[search] semantic`, themes) don't change the figures.
set -u
cd "$(dirname "$0")/.." || exit 0
RUNS=${1:-3}
CORPUS=${SKILLNAV_BENCH_CORPUS:-../shared/corpus}
BIN=${SKILLNAV_BIN:-target/release/skillnav}
LARGE=$CORPUS/large
if [ ! -x "$BIN" ]; then
  echo "tui_rss: $BIN not found; run cargo build --release (or set SKILLNAV_BIN)"; exit 0
fi
if [ ! -d "$LARGE" ]; then
  echo "tui_rss: corpus not found under $CORPUS; set SKILLNAV_BENCH_CORPUS"; exit 0
fi
if ! command -v tmux >/dev/null 2>&1; then
  echo "tui_rss: tmux not installed, skipped"; exit 0
fi
BIN=$(realpath "$BIN")
TMP=$(mktemp -d)
SOCK="skillnav-rss-$$"
trap 'tmux -L "$SOCK" kill-server 2>/dev/null; rm -rf "$TMP"' EXIT

kb_field() { awk -v f="$1:" '$1 == f { print $2 }' "/proc/$2/status" 2>/dev/null; }
median() { sort -n | sed -n "$((($1 + 1) / 2))p"; }

# tui_once ENCODING: one TUI run (with an empty count cache, or a copy of $WARM_CACHE); prints "<VmHWM kB> <VmRSS kB> <RssAnon kB> <RssFile kB>
# <ms until idle>", or "timeout" when the status line is not idle after 120 s. RssFile is
# mapped file pages (the binary's code and read-only data it touched: the embedded BPE
# dictionary once an encoding is loaded); RssAnon is the heap, stacks and allocator slack.
tui_once() {
  local enc=$1 run=$TMP/run-$RANDOM pid t0 t1 screen idle=0 i
  mkdir -p "$run/cache" "$run/config" "$run/data"
  [ "${WARM_CACHE:-}" ] && cp -a "$WARM_CACHE/." "$run/cache/"
  t0=$(date +%s%N)
  # Idle from the first poll (a start from the saved index) leaves the time at the start.
  t1=$t0
  tmux -L "$SOCK" new-session -d -x 120 -y 40 \
    "cd '$run' && XDG_CACHE_HOME='$run/cache' XDG_CONFIG_HOME='$run/config' XDG_DATA_HOME='$run/data' exec '$BIN' --encoding '$enc' '$(realpath "$LARGE")'"
  pid=$(tmux -L "$SOCK" display -p '#{pane_pid}')
  # Idle: a drawn tree and no Loading/Indexing/Counting on three polls in a row (100 ms apart).
  for ((i = 0; i < 1200; i++)); do
    sleep 0.1
    screen=$(tmux -L "$SOCK" capture-pane -p 2>/dev/null)
    if [ -n "$screen" ] && ! grep -qE 'Loading…|Indexing [0-9]+%|Counting tokens [0-9]+%' <<<"$screen" \
      && grep -qE 'q quit|Loaded [0-9]+ root' <<<"$screen"; then
      idle=$((idle + 1))
      [ "$idle" -ge 3 ] && break
    else
      idle=0
      t1=$(date +%s%N)
    fi
  done
  if [ "$idle" -lt 3 ]; then
    echo timeout
  else
    # Let the allocator settle (a trim after the load phase, the last worker messages).
    sleep 1
    echo "$(kb_field VmHWM "$pid") $(kb_field VmRSS "$pid") $(kb_field RssAnon "$pid") $(kb_field RssFile "$pid") $(((t1 - t0) / 1000000))"
  fi
  tmux -L "$SOCK" kill-server 2>/dev/null
  rm -rf "$run"
}

# tui_row ENCODING LABEL: RUNS runs; prints the medians and returns the steady MB in $STEADY.
tui_row() {
  local hwm=() rss=() anon=() file=() ms=() i out a b c d e
  for ((i = 0; i < RUNS; i++)); do
    out=$(tui_once "$1")
    if [ "$out" = timeout ]; then
      echo "TUI $2: not idle after 120 s, skipped"; STEADY=; return
    fi
    read -r a b c d e <<<"$out"
    hwm+=("$a"); rss+=("$b"); anon+=("$c"); file+=("$d"); ms+=("$e")
  done
  local mh mr ma mf mm
  mh=$(printf '%s\n' "${hwm[@]}" | median "$RUNS")
  mr=$(printf '%s\n' "${rss[@]}" | median "$RUNS")
  ma=$(printf '%s\n' "${anon[@]}" | median "$RUNS")
  mf=$(printf '%s\n' "${file[@]}" | median "$RUNS")
  mm=$(printf '%s\n' "${ms[@]}" | median "$RUNS")
  STEADY=$(awk -v r="$mr" 'BEGIN { printf "%.0f", r / 1024 }')
  awk -v h="$mh" -v r="$mr" -v a="$ma" -v f="$mf" -v m="$mm" -v l="$2" \
    'BEGIN { printf "TUI %s: peak %.0f MB (VmHWM), steady %.0f MB (VmRSS: %.0f anon + %.0f file), idle after %d ms\n", l, h / 1024, r / 1024, a / 1024, f / 1024, m }'
}

# cli_peak CMD...: median peak RSS (MB) of RUNS runs, each with an empty count cache.
cli_peak() {
  local rss=() i run
  for ((i = 0; i < RUNS; i++)); do
    run=$TMP/cli-$RANDOM; mkdir -p "$run/cache" "$run/config"
    XDG_CACHE_HOME=$run/cache XDG_CONFIG_HOME=$run/config /usr/bin/time -f %M -o "$TMP/rss" \
      "$@" >/dev/null 2>"$TMP/err"
    rss+=("$(tail -n 1 "$TMP/rss")")
    rm -rf "$run"
  done
  printf '%s\n' "${rss[@]}" | median "$RUNS" | awk '{ printf "%.0f", $1 / 1024 }'
}

echo "tui_rss: $RUNS runs each, medians; $(nproc) cores; $(date -u +%FT%TZ); load:$(uptime | sed 's/.*load average//')"
echo "tree: $LARGE ($(du -sb "$LARGE" | awk '{ printf "%.1f MB", $1 / 1e6 }'), $(find "$LARGE" -type f | wc -l) files); goal ≤ 100 MB"
tui_row o200k_base "o200k_base (cold count cache)"
o200k=$STEADY
WARM_CACHE=$TMP/warm
mkdir -p "$WARM_CACHE"
XDG_CACHE_HOME=$WARM_CACHE XDG_CONFIG_HOME=$TMP "$BIN" tree --depth 1 "$LARGE" >/dev/null 2>&1
tui_row o200k_base "o200k_base (warm count cache)"
# The second start: the persisted index of the tree is saved too (docs/DESIGN.md §8).
XDG_CACHE_HOME=$WARM_CACHE XDG_CONFIG_HOME=$TMP "$BIN" search graduation "$LARGE" >/dev/null 2>&1
tui_row o200k_base "o200k_base (warm count cache, saved index)"
WARM_CACHE=
tui_row bytes4 "bytes4 (no BPE tables)"
echo "CLI references: tree --depth 1 peak $(cli_peak "$BIN" tree --depth 1 "$LARGE") MB, search graduation peak $(cli_peak "$BIN" search graduation "$LARGE") MB"
[ -n "$o200k" ] && echo "steady o200k_base ${o200k} MB vs goal ≤ 100 MB"
exit 0
