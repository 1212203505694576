#!/usr/bin/env bash
# cuda/gpu-checks/run.sh's logic without a GPU: the preset its comparison uses comes from the profile
# calibrate wrote, and the library search finds pip wheels in virtual environments and under $HOME, CUDA
# 13 and 12. Usage: test_run_sh.sh GPU_CHECKS_DIR WORK_DIR
set -eu
. "$1/lib.sh"
work=$2
rm -rf "$work"
mkdir -p "$work"
fail() { echo "FAILED: $*"; exit 1; }

# The preset: the profile's gpu_id, whatever the GPU.
for id in h100-sxm-80gb a100-sxm-80gb h200-sxm-141gb; do
  printf '{\n  "name": "measured on a GPU",\n  "gpu_id": "%s",\n  "origin": "measured"\n}\n' "$id" > "$work/p.json"
  [ "$(preset_from_profile "$work/p.json")" = "$id" ] || fail "preset of a profile with gpu_id $id"
done
printf '{\n  "name": "measured on NVIDIA GH200 480GB",\n  "gpu_id": "",\n  "origin": "measured"\n}\n' > "$work/p.json"
[ -z "$(preset_from_profile "$work/p.json")" ] || fail "an unknown GPU has no preset"
[ -z "$(preset_from_profile "$work/missing.json")" ] || fail "no profile, no preset"
echo "ok: the preset comes from the profile calibrate wrote"

# The library search: a CUDA 12 cuBLASLt wheel in a virtual environment, NCCL in ~/.local.
venv=$work/venv/lib/python3.11/site-packages/nvidia
home=$work/home/.local/lib/python3.10/site-packages/nvidia
mkdir -p "$venv/cublas/lib" "$home/nccl/lib" "$work/opt/cuda-13/lib64"
touch "$venv/cublas/lib/libcublasLt.so.12" "$home/nccl/lib/libnccl.so.2" "$work/opt/cuda-13/lib64/libcublasLt.so.13"
dirs=$(LP_LIB_SEARCH_ROOTS="$work/venv $work/home $work/opt" library_dirs)
echo "$dirs"
echo "$dirs" | grep -qx "$venv/cublas/lib" || fail "the CUDA 12 wheel in the virtual environment"
echo "$dirs" | grep -qx "$home/nccl/lib" || fail "NCCL under \$HOME"
echo "$dirs" | grep -qx "$work/opt/cuda-13/lib64" || fail "the CUDA 13 toolkit"
[ "$(echo "$dirs" | wc -l)" = 3 ] || fail "each folder once"
echo "ok: libraries found in virtual environments, \$HOME and toolkits"

# run.sh itself: the fixed H200 preset and file name are gone.
! grep -q "h200-sxm-141gb\|h200-measured" "$1/run.sh" || fail "run.sh still names the H200"
bash -n "$1/run.sh" || fail "run.sh does not parse"
echo "ok: run.sh"
