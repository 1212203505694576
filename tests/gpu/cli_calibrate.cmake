# Runs `layout-planner-cli calibrate` (cmake -P). Variables: CLI, WORK_DIR, DATA_DIR, MODE.
#   MODE=no-gpu  the GPUs hidden with CUDA_VISIBLE_DEVICES=-1: exit 3 with the reason and no file; bad input
#                exits 2 before any GPU is looked for. Passes in every build, with or without GPUs.
#   MODE=gpu     `calibrate --quick -o` on the real GPUs, then `evaluate --profile` with the result. Prints
#                "SKIPPED: ..." (ctest SKIP_REGULAR_EXPRESSION) when calibrate exits 3 and no GPU is expected
#                here; fails when the driver lists GPUs (or LP_EXPECT_GPU=1) that cannot be used.
#   MODE=expect-gpu  that failure path with a fake `nvidia-smi -L` list (below).
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(profile ${WORK_DIR}/profile.json)

function(run_cli out_code out_stdout out_stderr)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE so ERROR_VARIABLE se TIMEOUT 850)
  set(${out_code} "${code}" PARENT_SCOPE)
  set(${out_stdout} "${so}" PARENT_SCOPE)
  set(${out_stderr} "${se}" PARENT_SCOPE)
endfunction()

function(expect what code expected_code text pattern)
  if(NOT code STREQUAL expected_code)
    message(FATAL_ERROR "${what}: exit code ${code}, expected ${expected_code}\n${text}")
  endif()
  if(NOT text MATCHES "${pattern}")
    message(FATAL_ERROR "${what}: output does not match '${pattern}':\n${text}")
  endif()
  message(STATUS "ok: ${what}")
endfunction()

if(MODE STREQUAL "no-gpu")
  set(hide ${CMAKE_COMMAND} -E env CUDA_VISIBLE_DEVICES=-1)

  run_cli(code so se ${hide} ${CLI} calibrate -o ${profile})
  expect("no GPU: exit 3 and the reason" "${code}" 3 "${se}"
         "error: .*no usable GPU: .*(no CUDA-capable device|driver|no CUDA support)")
  if(EXISTS ${profile})
    message(FATAL_ERROR "no GPU: a profile was written anyway")
  endif()

  run_cli(code so se ${hide} ${CLI} calibrate --quick --scenario ${DATA_DIR}/scenarios/default.json -o ${profile})
  expect("no GPU with a scenario: exit 3" "${code}" 3 "${se}" "no usable GPU")

  run_cli(code so se ${hide} ${CLI} calibrate --json -o ${profile})
  expect("no GPU, --json: the error as JSON" "${code}" 3 "${so}" "\"error\"")

  run_cli(code so se ${hide} ${CLI} calibrate)
  expect("missing -o: exit 2" "${code}" 2 "${se}" "-o")

  run_cli(code so se ${hide} ${CLI} calibrate --no-such-flag -o ${profile})
  expect("unknown flag: exit 2" "${code}" 2 "${se}" "--no-such-flag")

  run_cli(code so se ${hide} ${CLI} calibrate --scenario ${WORK_DIR}/missing.json -o ${profile})
  expect("missing scenario file: exit 2" "${code}" 2 "${se}" "missing.json")

  run_cli(code so se ${hide} ${CLI} calibrate --gpu no-such-gpu -o ${profile})
  expect("unknown GPU preset: exit 2" "${code}" 2 "${se}" "no-such-gpu")

  run_cli(code so se ${hide} ${CLI} calibrate --device x -o ${profile})
  expect("bad --device: exit 2" "${code}" 2 "${se}" "--device")

  run_cli(code so se ${hide} ${CLI} calibrate -o ${WORK_DIR}/no/such/folder/p.json)
  expect("output folder missing: exit 2" "${code}" 2 "${se}" "does not exist")

  run_cli(code so se ${CLI} calibrate --help)
  expect("--help" "${code}" 0 "${so}" "Usage: layout-planner-cli calibrate")

  run_cli(code so se ${CLI} --help)
  expect("listed in the top-level help" "${code}" 0 "${so}" "calibrate")
elseif(MODE STREQUAL "gpu")
  run_cli(code so se ${CLI} calibrate --quick -o ${profile})
  if(code STREQUAL "3" AND se MATCHES "but none can be used")
    # The driver lists GPUs (or LP_EXPECT_GPU=1) and none can be used: a failure, not a skip.
    message(FATAL_ERROR "GPUs are expected here, but calibrate cannot use them:\n${se}")
  elseif(code STREQUAL "3")
    string(REGEX REPLACE "\n.*" "" first_line "${se}")
    message(STATUS "SKIPPED: no GPU (${first_line})")
    return()
  endif()
  expect("calibrate --quick" "${code}" 0 "${so}" "Wrote ")
  if(NOT EXISTS ${profile})
    message(FATAL_ERROR "calibrate reported success but ${profile} is missing")
  endif()
  message(STATUS "${se}")
  message(STATUS "${so}")
  file(READ ${profile} text)
  if(NOT text MATCHES "\"origin\": \"measured\"")
    message(FATAL_ERROR "the profile is not marked as measured:\n${text}")
  endif()
  run_cli(code so se ${CLI} evaluate --profile ${profile})
  expect("evaluate --profile with the measured profile" "${code}" 0 "${so}${se}" "measured on")
elseif(MODE STREQUAL "expect-gpu")
  # The GPU tests with a fake `nvidia-smi -L` list (LP_NVIDIA_SMI_LIST_FILE) and the GPUs hidden: GPUs that
  # are listed but cannot be used fail both GPU tests with the reason; nothing listed and no LP_EXPECT_GPU
  # skips them. Variables also: GPU_TEST (test_gpu_calibration), SCRIPT (this file).
  set(list_file ${WORK_DIR}/nvidia-smi-L.txt)
  file(WRITE ${list_file} "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-0a1b)\nGPU 1: NVIDIA H100 80GB HBM3 (UUID: GPU-0a1c)\n")
  set(fake ${CMAKE_COMMAND} -E env CUDA_VISIBLE_DEVICES=-1 LP_NVIDIA_SMI_LIST_FILE=${list_file} --unset=LP_EXPECT_GPU)

  run_cli(code so se ${fake} ${GPU_TEST})
  expect("listed GPUs, none usable: gpu_calibration fails" "${code}" 1 "${so}"
         "FAILED: GPUs are expected here: nvidia-smi -L lists 2 GPUs \\(NVIDIA H100 80GB HBM3\\), but none can be used: ")
  run_cli(code so se ${fake} ${CLI} calibrate -o ${profile})
  expect("listed GPUs, none usable: calibrate says so" "${code}" 3 "${se}"
         "no usable GPU: nvidia-smi -L lists 2 GPUs .*, but none can be used: ")
  run_cli(code so se ${fake} ${CMAKE_COMMAND} -DCLI=${CLI} -DWORK_DIR=${WORK_DIR}/gpu -DDATA_DIR=${DATA_DIR} -DMODE=gpu
          -P ${SCRIPT})
  if(code STREQUAL "0" OR NOT "${so}${se}" MATCHES "GPUs are expected here")
    message(FATAL_ERROR "listed GPUs, none usable: gpu_cli_calibrate did not fail (exit ${code}):\n${so}${se}")
  endif()
  message(STATUS "ok: listed GPUs, none usable: gpu_cli_calibrate fails")

  file(WRITE ${list_file} "")
  set(asked ${CMAKE_COMMAND} -E env CUDA_VISIBLE_DEVICES=-1 LP_NVIDIA_SMI_LIST_FILE=${list_file} LP_EXPECT_GPU=1)
  run_cli(code so se ${asked} ${GPU_TEST})
  expect("LP_EXPECT_GPU=1, no GPU: gpu_calibration fails" "${code}" 1 "${so}"
         "FAILED: GPUs are expected here: LP_EXPECT_GPU=1 is set, but none can be used: ")

  set(none ${CMAKE_COMMAND} -E env CUDA_VISIBLE_DEVICES=-1 LP_NVIDIA_SMI_LIST_FILE=${list_file} --unset=LP_EXPECT_GPU)
  run_cli(code so se ${none} ${GPU_TEST})
  expect("nothing listed: gpu_calibration skips" "${code}" 77 "${so}" "SKIPPED: no GPU")
else()
  message(FATAL_ERROR "MODE must be no-gpu, gpu or expect-gpu")
endif()
