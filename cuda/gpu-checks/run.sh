#!/usr/bin/env bash
# The GPU checks of docs/calibration.md, in one go, on a machine with an NVIDIA GPU:
#   1. ctest -L gpu (gpu_calibration, gpu_cli_calibrate) with LP_EXPECT_GPU=1 (a GPU that cannot be used
#      fails them), and the no-GPU check with the GPU hidden;
#   2. a full `calibrate` on the default scenario's shapes, the profile and the log kept, with the SM clock
#      and power logged by nvidia-smi meanwhile;
#   3. `evaluate` of the default scenario on the GPU preset calibrate detected (the profile's gpu_id, also
#      its file name: h100-sxm-80gb-measured.json), with the built-in and with the measured profile;
#   4. attention.py (PyTorch SDPA flash attention), a cross-check of the built-in attention figures.
# Usage: cuda/gpu-checks/run.sh [BUILD_DIR] [OUT_DIR]   (BUILD_DIR built with LP_BUILD_CUDA=ON; it may have
# been built on another machine: the paths in its CTestTestfile.cmake files are rewritten to this tree).
# Each step has a time limit; the summary lines come last.
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
OUT_DIR=${2:-${OUT:-$ROOT/gpu-checks-out}}
mkdir -p "$OUT_DIR"
CLI=$BUILD/app/layout-planner-cli
log() { printf '== %s\n' "$*"; }

# shellcheck source=lib.sh
. "$ROOT/cuda/gpu-checks/lib.sh"

# cuBLASLt and NCCL are loaded at run time: add the folders that hold them (toolkits, pip wheels in a
# virtual environment or under $HOME, CUDA 13 or 12).
while read -r dir; do
  [ -n "$dir" ] && export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
done < <(library_dirs)
log "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem,power.limit,temperature.gpu \
  --format=csv 2>&1 | tee "$OUT_DIR/gpu.txt"

# The build tree may come from another checkout: point its test files at this one.
old_root=$(sed -n 's/^# Source directory: //p' "$BUILD/CTestTestfile.cmake" | head -1)
old_build=$(sed -n 's/^# Build directory: //p' "$BUILD/CTestTestfile.cmake" | head -1)
if [ -n "$old_root" ] && { [ "$old_root" != "$ROOT" ] || [ "$old_build" != "$BUILD" ]; }; then
  find "$BUILD" -name CTestTestfile.cmake -exec sed -i -e "s#$old_build#$BUILD#g" -e "s#$old_root#$ROOT#g" {} +
fi
# ... and at this machine's cmake, which runs the command-line tests' scripts.
old_cmake=$(grep -ho '"/[^"]*/cmake"' "$BUILD/cuda/tests-gpu/CTestTestfile.cmake" | head -1 | tr -d '"')
new_cmake=$(command -v cmake)
if [ -n "$old_cmake" ] && [ -n "$new_cmake" ] && [ "$old_cmake" != "$new_cmake" ]; then
  find "$BUILD" -name CTestTestfile.cmake -exec sed -i "s#\"$old_cmake\"#\"$new_cmake\"#g" {} +
fi

log "ctest -L gpu"
LP_EXPECT_GPU=1 timeout 200 ctest --test-dir "$BUILD" -L gpu -V > "$OUT_DIR/ctest-gpu.log" 2>&1; gpu_rc=$?
log "ctest -R cli_calibrate_no_gpu"
timeout 40 ctest --test-dir "$BUILD" -R cli_calibrate_no_gpu --output-on-failure > "$OUT_DIR/ctest-nogpu.log" 2>&1; nogpu_rc=$?

log "calibrate (full) on the default scenario"
# The SM clock, power and throttle reasons twice a second while it runs (the GEMM hold's power limit).
smi_pid=
if command -v nvidia-smi > /dev/null; then
  nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active \
    --format=csv -lms 500 > "$OUT_DIR/smi.csv" 2>&1 &
  smi_pid=$!
fi
timeout 200 "$CLI" calibrate --scenario "$ROOT/tests/data/scenarios/default.json" -o "$OUT_DIR/measured.json" \
  > "$OUT_DIR/calibrate.log" 2>&1; cal_rc=$?
[ -n "$smi_pid" ] && kill "$smi_pid" 2> /dev/null

# The comparison is made on the GPU preset calibrate detected (the profile's gpu_id), never a fixed one.
preset=$(preset_from_profile "$OUT_DIR/measured.json")
if [ -n "$preset" ]; then
  mv "$OUT_DIR/measured.json" "$OUT_DIR/$preset-measured.json"
  log "evaluate on $preset: built-in profile, then the measured one"
  "$CLI" evaluate "$ROOT/tests/data/scenarios/default.json" --gpu "$preset" > "$OUT_DIR/evaluate.txt" 2>&1
  "$CLI" evaluate "$ROOT/tests/data/scenarios/default.json" --gpu "$preset" --profile "$OUT_DIR/$preset-measured.json" \
    >> "$OUT_DIR/evaluate.txt" 2>&1
elif [ -f "$OUT_DIR/measured.json" ]; then
  log "no GPU preset matches this GPU (calibrate.log says why): no comparison with a built-in profile"
fi

log "attention.py"
PYTHONUNBUFFERED=1 timeout 150 python3 "$ROOT/cuda/gpu-checks/attention.py" > "$OUT_DIR/attention.txt" 2>&1; att_rc=$?

log "summary"
grep -E "^[0-9]+: (device|  GEMM|  bf16|  fp8|  held|  HBM|  NCCL|  note|  check|  bounds|  all-reduce)" \
  "$OUT_DIR/ctest-gpu.log" | head -60
grep -E "tests passed|tests failed|Passed|Failed|Skipped|\*\*\*" "$OUT_DIR/ctest-gpu.log" "$OUT_DIR/ctest-nogpu.log" | head
grep -E "held|Wrote|note|curve" "$OUT_DIR/calibrate.log" | head -40
grep -E "MFU|Step time|Profile" "$OUT_DIR/evaluate.txt" 2>/dev/null | head
cat "$OUT_DIR/attention.txt"
echo "preset: ${preset:-none}"
echo "rc: ctest-gpu=$gpu_rc no-gpu=$nogpu_rc calibrate=$cal_rc attention=$att_rc"
