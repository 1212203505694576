#!/usr/bin/env bash
# Runs every libFuzzer target of a fuzz build (-DLP_FUZZ=ON, see tests/fuzz/CMakeLists.txt) for a
# bounded time, starting from its seed corpus in tests/data/fuzz/<target>/.
#   tests/fuzz/run-fuzzers.sh BUILD_DIR [SECONDS_PER_TARGET] [TARGET...]
# The corpus grows in a scratch copy (the repository's seeds are never modified). A crash, leak,
# timeout or failed property leaves its input in BUILD_DIR/fuzz-artifacts/<target>-crash-<sha1>;
# the script goes on with the other targets and exits 1 at the end. To keep a crash as a
# regression input: copy it to tests/data/fuzz/regressions/<target>-<short-name>.json.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${1:?usage: run-fuzzers.sh BUILD_DIR [SECONDS_PER_TARGET] [TARGET...]}
SECONDS_PER_TARGET=${2:-20}
shift $(($# >= 2 ? 2 : 1))
TARGETS=("$@")
((${#TARGETS[@]})) || TARGETS=(scenario profile validation_cases hf_config run_log)

# Stacks with function names and lines.
if [ -z "${ASAN_SYMBOLIZER_PATH:-}" ]; then
  for s in llvm-symbolizer llvm-symbolizer-16 llvm-symbolizer-14; do
    command -v "$s" >/dev/null && { export ASAN_SYMBOLIZER_PATH=$(command -v "$s"); break; }
  done
fi

ARTIFACTS=$BUILD/fuzz-artifacts
mkdir -p "$ARTIFACTS"
SCRATCH=$(mktemp -d)
trap 'rm -rf "$SCRATCH"' EXIT

failed=()
for t in "${TARGETS[@]}"; do
  exe=$BUILD/tests/fuzz/fuzz_$t
  if [ ! -x "$exe" ]; then
    echo "run-fuzzers: $exe is missing (configure with -DLP_FUZZ=ON and build the lp_fuzzers target)" >&2
    failed+=("$t")
    continue
  fi
  mkdir -p "$SCRATCH/$t"
  cp "$ROOT/tests/data/fuzz/$t"/* "$SCRATCH/$t/"
  dict=()
  [ -f "$ROOT/tests/fuzz/$t.dict" ] && dict=(-dict="$ROOT/tests/fuzz/$t.dict")
  echo "== fuzz_$t: ${SECONDS_PER_TARGET}s"
  # Inputs above 16 KiB only slow the search down (the loaders' size limit is tested elsewhere).
  if ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
     "$exe" "${dict[@]}" -max_total_time="$SECONDS_PER_TARGET" -max_len=16384 -timeout=10 \
            -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$ARTIFACTS/$t-" \
            "$SCRATCH/$t" 2>"$SCRATCH/$t.log"; then
    grep -E '^(Done|stat::number_of_executed_units|stat::peak_rss_mb)|#[0-9]+ *DONE' "$SCRATCH/$t.log" || true
  else
    echo "run-fuzzers: fuzz_$t FAILED; the last lines of its log:" >&2
    tail -n 60 "$SCRATCH/$t.log" >&2
    ls -1 "$ARTIFACTS/$t-"* 2>/dev/null | sed 's/^/  input: /' >&2
    failed+=("$t")
  fi
done

if ((${#failed[@]})); then
  echo "run-fuzzers: failed: ${failed[*]} (inputs in $ARTIFACTS)" >&2
  exit 1
fi
echo "run-fuzzers: all ${#TARGETS[@]} targets ran ${SECONDS_PER_TARGET}s without a finding"
