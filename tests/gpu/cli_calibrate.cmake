# Runs `layout-planner-cli calibrate` (cmake -P). Variables: CLI, WORK_DIR, DATA_DIR, MODE.
#   MODE=no-gpu  the GPUs hidden with CUDA_VISIBLE_DEVICES=-1: exit 3 with the reason and no file; bad input
#                exits 2 before any GPU is looked for. Passes in every build, with or without GPUs.
#   MODE=gpu     `calibrate --quick -o` on the real GPUs, then `evaluate --profile` with the result. Prints
#                "SKIPPED: ..." (ctest SKIP_REGULAR_EXPRESSION) when calibrate exits 3.
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
  if(code STREQUAL "3")
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
else()
  message(FATAL_ERROR "MODE must be no-gpu or gpu")
endif()
