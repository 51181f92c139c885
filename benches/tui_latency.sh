#!/usr/bin/env bash
# TUI latency benchmark (docs/DESIGN.md §8): the release TUI in a real terminal (tmux,
# 120×40), timed from launch until the screen shows what the user waits for, beside a
# same-run reference, printing medians and ratios. Benchmarks never gate CI (always exit 0).
#
#   benches/tui_latency.sh [RUNS]      (default 7 runs per row; the median is printed)
#
# Rows:
# 1. First frame of `skill-seekers/hono-unified/references/llms-full.md` (365 kB): until the
#    heading tree shows its "Hono" row, against `treemd FILE` until its outline shows the
#    same heading (skipped with a line when treemd is not installed).
# 2. Typing `/graduation` at launch on `large/` until the top bar reports content hits,
#    against the CLI's cold `skillnav search --no-index-cache graduation large` (load +
#    index + query, in memory: the first search with a persisted index also writes it).
# 3. The same with the persisted index of `large` already saved (docs/DESIGN.md §8
#    "Persisted index"; a `skillnav search` writes it before the runs): the second start,
#    against row 2's cold start and the CLI's second search.
#
# Inputs: SKILLNAV_BENCH_CORPUS (default ../shared/corpus); the binary: SKILLNAV_BIN (default
# target/release/skillnav). Every TUI run gets an empty count cache and config folder (cold),
# so neither cached counts nor user settings change the figures. The screen is polled every
# 5 ms with `tmux capture-pane`, so a figure is the true time plus at most one poll.
set -u
cd "$(dirname "$0")/.." || exit 0
RUNS=${1:-7}
CORPUS=${SKILLNAV_BENCH_CORPUS:-../shared/corpus}
BIN=${SKILLNAV_BIN:-target/release/skillnav}
LARGE=$CORPUS/large
FULL=$CORPUS/skill-seekers/hono-unified/references/llms-full.md
if [ ! -x "$BIN" ]; then
  echo "tui_latency: $BIN not found; run cargo build --release (or set SKILLNAV_BIN)"; exit 0
fi
if [ ! -d "$LARGE" ] || [ ! -f "$FULL" ]; then
  echo "tui_latency: corpus not found under $CORPUS; set SKILLNAV_BENCH_CORPUS"; exit 0
fi
if ! command -v tmux >/dev/null 2>&1; then
  echo "tui_latency: tmux not installed, skipped"; exit 0
fi
BIN=$(realpath "$BIN")
LARGE=$(realpath "$LARGE")
FULL=$(realpath "$FULL")
TMP=$(mktemp -d)
SOCK="skillnav-lat-$$"
trap 'tmux -L "$SOCK" kill-server 2>/dev/null; rm -rf "$TMP"' EXIT
have() { command -v "$1" >/dev/null 2>&1; }
median() { sort -n | sed -n "$((($1 + 1) / 2))p"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (a > 0 ? b / a : 0) }'; }
ms() { awk -v us="$1" 'BEGIN { printf "%.1f", us / 1000 }'; }

# screen_us PATTERN KEYS CMD [CACHE]: starts CMD in a fresh 120×40 tmux session (empty cache
# and config folders, or the cache folder CACHE), sends KEYS at once when not empty (the
# terminal buffers them until the app reads its input), and prints the microseconds until
# the screen matches the extended regex PATTERN, or "timeout" after 30 s.
screen_us() {
  local pattern=$1 keys=$2 cmd=$3 run=$TMP/run-$RANDOM t0 t1 i
  mkdir -p "$run/cache" "$run/config" "$run/data"
  local cache=${4:-$run/cache}
  t0=$(date +%s%N)
  tmux -L "$SOCK" new-session -d -x 120 -y 40 \
    "cd '$run' && XDG_CACHE_HOME='$cache' XDG_CONFIG_HOME='$run/config' XDG_DATA_HOME='$run/data' exec $cmd"
  [ -n "$keys" ] && tmux -L "$SOCK" send-keys -l "$keys"
  for ((i = 0; i < 6000; i++)); do
    if tmux -L "$SOCK" capture-pane -p 2>/dev/null | grep -qE "$pattern"; then
      t1=$(date +%s%N)
      tmux -L "$SOCK" kill-server 2>/dev/null
      rm -rf "$run"
      echo $(((t1 - t0) / 1000))
      return
    fi
    sleep 0.005
  done
  tmux -L "$SOCK" kill-server 2>/dev/null
  rm -rf "$run"
  echo timeout
}

# median_screen PATTERN KEYS CMD: RUNS runs of screen_us; prints the median µs or "timeout".
median_screen() {
  local out=() i t
  for ((i = 0; i < RUNS; i++)); do
    t=$(screen_us "$@")
    [ "$t" = timeout ] && { echo timeout; return; }
    out+=("$t")
  done
  printf '%s\n' "${out[@]}" | median "$RUNS"
}

# median_warm_cli CACHE CMD...: RUNS runs with the cache folder CACHE; prints the median µs.
median_warm_cli() {
  local cache=$1 out=() i t0 t1
  shift
  for ((i = 0; i < RUNS; i++)); do
    t0=$(date +%s%N)
    XDG_CACHE_HOME=$cache "$@" >/dev/null 2>&1
    t1=$(date +%s%N)
    out+=($(((t1 - t0) / 1000)))
  done
  printf '%s\n' "${out[@]}" | median "$RUNS"
}

# median_cli CMD...: RUNS runs with an empty count cache each; prints the median µs.
median_cli() {
  local out=() i t0 t1 cache
  for ((i = 0; i < RUNS; i++)); do
    cache=$TMP/cli-$RANDOM
    mkdir -p "$cache"
    t0=$(date +%s%N)
    XDG_CACHE_HOME=$cache XDG_CONFIG_HOME=$cache "$@" >/dev/null 2>&1
    t1=$(date +%s%N)
    rm -rf "$cache"
    out+=($(((t1 - t0) / 1000)))
  done
  printf '%s\n' "${out[@]}" | median "$RUNS"
}

echo "tui_latency: $RUNS runs each, medians; tmux 120x40; $(nproc) cores; $(date -u +%FT%TZ)"

# 1. First frame of llms-full.md.
sk=$(median_screen '§ Hono ' '' "'$BIN' '$FULL'")
if [ "$sk" = timeout ]; then
  echo "first frame of llms-full.md: skillnav did not show the tree within 30 s"
else
  line="first frame of llms-full.md (heading tree drawn): skillnav $(ms "$sk") ms"
  if have treemd; then
    tm=$(median_screen '# Hono' '' "treemd '$FULL'")
    if [ "$tm" = timeout ]; then
      line="$line; treemd did not draw within 30 s"
    else
      line="$line, treemd $(ms "$tm") ms: skillnav is $(ratio "$sk" "$tm")× faster (goal: keep 5–7×)"
    fi
  else
    line="$line; treemd: not installed, skipped (cargo install --locked treemd)"
  fi
  echo "$line"
fi

# 2. `/graduation` typed at launch until content hits show, vs the CLI's cold search.
cli=$(median_cli "$BIN" search --no-index-cache graduation "$LARGE")
tui=$(median_screen ' [1-9][0-9]* content' '/graduation' "'$BIN' '$LARGE'")
if [ "$tui" = timeout ]; then
  echo "TUI /graduation on large: no content hits within 30 s"
else
  echo "TUI /graduation typed at launch on large until content hits show: $(ms "$tui") ms; CLI cold search $(ms "$cli") ms; TUI = $(ratio "$cli" "$tui")× the CLI (goal ≤ 1.4)"
fi

# 3. The same on the second start: the persisted index of `large` is saved first.
warm=$TMP/warm-cache
mkdir -p "$warm"
XDG_CACHE_HOME=$warm "$BIN" search graduation "$LARGE" >/dev/null 2>&1
cli2=$(median_warm_cli "$warm" "$BIN" search graduation "$LARGE")
tui2=$(median_screen ' [1-9][0-9]* content' '/graduation' "'$BIN' '$LARGE'" "$warm")
if [ "$tui2" = timeout ] || [ "$tui" = timeout ]; then
  echo "TUI /graduation on large, second start: no content hits within 30 s"
else
  echo "TUI /graduation on large, second start (saved index): $(ms "$tui2") ms = $(ratio "$tui" "$tui2")× the cold start; CLI second search $(ms "$cli2") ms"
fi
exit 0
