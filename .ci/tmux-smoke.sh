#!/usr/bin/env bash
# Drive the real binary in a real terminal (tmux, 120x40) on the bundled sample skill:
# first frame, a live search, select a hit, quit — and check the shell gets its screen back;
# then a KEP-like fixture: equal-titled search hits named by their KEP, a long code line
# scrolled sideways and wrapped in the preview.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet
bin="$PWD/target/debug/skillnav"
sock="skillnav-smoke-$$"
out=$(mktemp -d)
trap 'tmux -L "$sock" kill-server 2>/dev/null || true; tmux -L "$sock-clip" kill-server 2>/dev/null || true; rm -rf "$out"' EXIT

tmux -L "$sock" new-session -d -x 120 -y 40 \
  "env -u DISPLAY -u WAYLAND_DISPLAY SKILLNAV_CONFIG_DIR=$out/cfg $bin --sample; echo EXIT=\$? > $out/exit; sleep 30"
screen() { tmux -L "$sock" capture-pane -p; }
wait_for() { # wait_for PATTERN WHAT
  for _ in $(seq 1 100); do
    if screen | grep -q -- "$1"; then return 0; fi
    sleep 0.1
  done
  echo "tmux smoke: timed out waiting for $2 ($1); screen was:"; screen; exit 1
}
wait_for "skillnav-sample" "the tree"
tmux -L "$sock" send-keys '/'
tmux -L "$sock" send-keys 'token'
wait_for "content" "search hits"
tmux -L "$sock" send-keys Enter
sleep 0.3
tmux -L "$sock" send-keys ' '
wait_for "sel 1 · " "the selection total"
# Curation: the exposure column, the budget bar, the brief preview with its exact size.
tmux -L "$sock" send-keys Escape
sleep 0.2
tmux -L "$sock" send-keys 'x'
wait_for " alw " "the exposure column"
tmux -L "$sock" send-keys 'b'
wait_for "/8.0k tok" "the next smaller budget preset"
tmux -L "$sock" send-keys 'p'
wait_for "Brief preview · md" "the brief preview"
wait_for "tokens (o200k_base)" "the brief's size in the preview"
tmux -L "$sock" send-keys 'f'
wait_for "Brief preview · xml" "the xml layout"
tmux -L "$sock" send-keys Escape
sleep 0.2
tmux -L "$sock" send-keys 'q'
for _ in $(seq 1 50); do [ -s "$out/exit" ] && break; sleep 0.1; done
if [ "$(cat "$out/exit" 2>/dev/null)" != "EXIT=0" ]; then
  echo "tmux smoke: skillnav did not exit 0: $(cat "$out/exit" 2>/dev/null)"; screen; exit 1
fi
if screen | grep -q "skillnav-sample"; then
  echo "tmux smoke: the TUI is still on screen after q"; screen; exit 1
fi
echo "tmux smoke: ok (search, select, exposure, budget, brief preview, quit, screen restored)"

# A KEP-like tree (three cut KEPs): equal-titled "Summary" hits name their KEP, and a
# 304-character code line scrolls sideways in the preview.
keps="$PWD/tests/fixtures/tui/keps-mini/keps"
tmux -L "$sock" kill-server 2>/dev/null || true
sock="$sock-keps"
tmux -L "$sock" new-session -d -x 120 -y 40 \
  "env -u DISPLAY -u WAYLAND_DISPLAY SKILLNAV_CONFIG_DIR=$out/cfg $bin $keps; sleep 30"
wait_for "sig-node" "the KEP tree"
wait_for "Σ" "the token counts"
tmux -L "$sock" send-keys '/'
tmux -L "$sock" send-keys 'summary'
wait_for "# Summary ‹ Seccomp to GA" "the Summary hit of KEP-135 named by its KEP"
wait_for "# Summary ‹ In-place Update of" "the Summary hit of KEP-1287 named by its KEP"
wait_for "# Summary ‹ Quotas for Ephemer" "the Summary hit of KEP-1029 named by its KEP"
tmux -L "$sock" send-keys C-u
tmux -L "$sock" send-keys 'unlink'
wait_for "1 content" "the hit on the long code line"
tmux -L "$sock" send-keys Enter
wait_for 'unlink "$file" or die "cannot u' "the jump scrolled sideways to the match"
tmux -L "$sock" send-keys Tab
sleep 0.2
for _ in 1 2 3 4 5; do tmux -L "$sock" send-keys '<'; done
wait_for 'my $file = "/data/a/a"' "the long code line from its start, cut"
tmux -L "$sock" send-keys 'l'
tmux -L "$sock" send-keys 'l'
wait_for " · →46 " "the sideways offset in the preview header"
wait_for '‹e" or die "Cannot open $file' "the code line scrolled sideways behind its ‹"
tmux -L "$sock" send-keys 'w'
wait_for ' · wrap ' "the wrap mode in the preview header"
tmux -L "$sock" send-keys 'q'
echo "tmux smoke: ok (KEP hits told apart by their KEP, a long code line scrolled sideways and wrapped)"

# The clipboard, when an X display is there (CI runs this script under xvfb-run): a key
# copies, and after `q` the clipboard still holds exactly what the CLI prints.
# clip_check KEY WHAT CLI-ARGS...: a fresh session on the fixture, KEY, wait, q, compare.
clip_check() {
  local key="$1" what="$2"
  shift 2
  rm -f "$out/exit"
  tmux -L "$sock" kill-server 2>/dev/null || true
  # A fresh server socket: connecting to the one just killed can race its shutdown.
  sock="$sock-$key"
  tmux -L "$sock" new-session -d -x 120 -y 40 \
    "SKILLNAV_CONFIG_DIR=$out/cfg $bin $fixture; echo EXIT=\$? > $out/exit; sleep 30"
  wait_for "brand-guidelines" "the tree"
  tmux -L "$sock" send-keys "$key"
  wait_for "Copied " "the copy status"
  tmux -L "$sock" send-keys 'q'
  for _ in $(seq 1 50); do [ -s "$out/exit" ] && break; sleep 0.1; done
  "$bin" "$@" > "$out/want.md"
  xclip -o -selection clipboard > "$out/got.md"
  if ! cmp -s "$out/want.md" "$out/got.md"; then
    echo "tmux smoke: after $key and q the clipboard does not hold $what"; diff "$out/want.md" "$out/got.md" | head; exit 1
  fi
  echo "tmux smoke: ok ($key copied $what; the clipboard still holds it after q)"
}
if [ -n "${DISPLAY:-}" ] && command -v xclip >/dev/null 2>&1; then
  fixture="$PWD/tests/fixtures/formats/skills/brand-guidelines"
  clip_check y "the brief" brief "$fixture" --select brand-guidelines
  clip_check Y "the rendered skill" render "$fixture"
elif [ -n "${CI:-}" ]; then
  echo "tmux smoke: no X display or xclip under CI"; exit 1
fi
