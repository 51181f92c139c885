#!/usr/bin/env bash
# Replay every saved finding of the named targets (all when none) and print, per artifact,
# the panic message, or "passes" when the input no longer fails (fixed), or "timeout" when
# it still runs past 5 s.
# Usage: fuzz/replay.sh [TARGET...]
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
bin=target/x86_64-unknown-linux-gnu/release
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(ls artifacts 2>/dev/null)
fi
for t in "${targets[@]}"; do
    for f in artifacts/"$t"/*; do
        [ -f "$f" ] || continue
        out=$(timeout 10 "$bin/$t" -timeout=5 "$f" 2>&1)
        rc=$?
        if [ $rc -eq 0 ]; then
            msg="passes"
        elif [ $rc -eq 124 ] || grep -q "ALARM: working on the last Unit for" <<< "$out"; then
            msg="timeout"
        else
            msg=$(grep -A1 "panicked at" <<< "$out" | grep -v "panicked at" | head -1)
        fi
        printf '%s %s: %s\n' "$t" "$(basename "$f")" "$msg"
    done
done
