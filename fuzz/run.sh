#!/usr/bin/env bash
# Run every fuzz target (or the ones named after MINUTES) for MINUTES minutes each, JOBS at a
# time (default 1), under nice, with a 5 s per-input timeout. libFuzzer runs in fork mode and
# keeps going after a crash or a timeout, saving each finding in fuzz/artifacts/<target>/.
# Prints, per target: executions, corpus size and findings (crash/timeout/oom counts and
# the artifact files). Logs go to fuzz/logs/<target>.log.
#
# Usage: fuzz/run.sh MINUTES [TARGET...]      e.g. JOBS=3 fuzz/run.sh 10
# TIMEOUT=N sets the per-input timeout in seconds (default 5; the acceptance runs use 2).
# Needs: cargo-fuzz (`cargo install --locked cargo-fuzz`) and a nightly toolchain.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
minutes="${1:?usage: fuzz/run.sh MINUTES [TARGET...]}"
shift
secs=$((minutes * 60))
jobs="${JOBS:-1}"
timeout="${TIMEOUT:-5}"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(cargo +nightly fuzz list)
fi
[ -d corpus ] || bash ./seed.sh > /dev/null
mkdir -p logs artifacts
# --sanitizer none: the crate forbids unsafe code, and an uninstrumented build runs twice as
# fast; debug assertions stay on (cargo-fuzz builds with them).
cargo +nightly fuzz build --sanitizer none > logs/build.log 2>&1

run_one() {
    local t="$1"
    mkdir -p "corpus/$t" "artifacts/$t"
    nice -n 19 cargo +nightly fuzz run --sanitizer none "$t" "corpus/$t" -- \
        -max_total_time="$secs" -timeout="$timeout" -rss_limit_mb=2048 -max_len=65536 \
        -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
        -print_final_stats=1 > "logs/$t.log" 2>&1 || true
}

running=0
for t in "${targets[@]}"; do
    run_one "$t" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait -n || true
        running=$((running - 1))
    fi
done
wait

printf '%-20s %12s %8s %s\n' target executions corpus findings
for t in "${targets[@]}"; do
    log="logs/$t.log"
    last=$(grep -E '^#[0-9]+:' "$log" | tail -1 || true)
    execs=$(sed -E 's/^#([0-9]+):.*/\1/' <<< "$last")
    counts=$(grep -oE 'oom/timeout/crash: [0-9]+/[0-9]+/[0-9]+' <<< "$last" | cut -d' ' -f2 || true)
    corpus=$(find "corpus/$t" -type f | wc -l)
    found=$(find "artifacts/$t" -type f | wc -l)
    printf '%-20s %12s %8s oom/timeout/crash %s, %s artifact(s)\n' \
        "$t" "${execs:-?}" "$corpus" "${counts:-?}" "$found"
done
