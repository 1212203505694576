# Functions of run.sh, sourced by it and by its test (tests/gpu/test_run_sh.sh).

# The folders holding the libraries the calibration loads at run time (cuBLASLt and NCCL of CUDA 13 or
# 12), that the loader does not find by itself: the CUDA toolkits, pip wheels (nvidia-cublas-cu12/-cu13,
# nvidia-nccl-cu12/-cu13) in the active virtual environment or conda environment, under $HOME (virtual
# environments, ~/.local) and in system folders. One folder per line, each once. LP_LIB_SEARCH_ROOTS
# replaces the search roots (for the test).
library_dirs() {
  local roots=${LP_LIB_SEARCH_ROOTS:-"${VIRTUAL_ENV:-} ${CONDA_PREFIX:-} $HOME /usr/local /opt /usr/lib"}
  local lib root f found
  for lib in libcublasLt.so.13 libcublasLt.so.12 libnccl.so.2; do
    if [ -z "${LP_LIB_SEARCH_ROOTS:-}" ] && ldconfig -p 2>/dev/null | grep -q "$lib"; then
      continue
    fi
    found=
    for root in $roots; do
      [ -d "$root" ] || continue
      f=$(find "$root" -maxdepth 8 -name "$lib" \( -type f -o -type l \) 2>/dev/null | head -1)
      if [ -n "$f" ]; then
        found=$(dirname "$f")
        break
      fi
    done
    [ -n "$found" ] && echo "$found"
  done | awk '!seen[$0]++'
}

# The GPU preset a measured profile was normalised against (its "gpu_id"); empty when calibrate found
# none (an unknown GPU: its log says so).
preset_from_profile() {
  [ -f "$1" ] || return 0
  sed -n 's/^ *"gpu_id": *"\([^"]*\)".*/\1/p' "$1" | head -1
}
