# `layout-planner` given a file it cannot open, or a --size it cannot paint: the reason on standard error and
# a non-zero exit, never a crash. APP is the binary, DATA tests/data, WORK a scratch folder.
file(MAKE_DIRECTORY ${WORK})
set(ENV{XDG_CONFIG_HOME} ${WORK}/config) # the plain window start keeps recent files: never the user's own
set(ENV{XDG_DATA_HOME} ${WORK}/data)

function(expect_failure what expected_rc pattern)
  execute_process(COMMAND ${APP} ${ARGN} RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET TIMEOUT 50)
  if(NOT rc EQUAL expected_rc OR NOT err MATCHES "${pattern}")
    message(FATAL_ERROR "${what}: expected exit ${expected_rc} and \"${pattern}\", got ${rc}: ${err}")
  endif()
endfunction()

# Every way of opening a file says why it did not open, in the words --export-pdf uses.
set(truncated ${DATA}/malformed/truncated.json)
expect_failure("--export-pdf, truncated file" 2 "truncated.json: line [0-9]+, column [0-9]+: parse error"
               --export-pdf ${WORK}/out.pdf ${truncated})
expect_failure("--screenshot, truncated file" 2 "truncated.json: line [0-9]+, column [0-9]+: parse error"
               --screenshot ${WORK}/out.png ${truncated})
expect_failure("--screenshot, wrong value" 2 "negative_heads.json: \\$\\.model\\.heads: "
               --screenshot ${WORK}/out.png ${DATA}/malformed/negative_heads.json)
expect_failure("--screenshot, a folder" 2 "cannot read ${WORK}: Is a directory" --screenshot ${WORK}/out.png ${WORK})
expect_failure("--screenshot, a missing file" 2 "cannot read ${WORK}/missing.json: No such file or directory"
               --screenshot ${WORK}/out.png ${WORK}/missing.json)
# The plain window start says it too (a bad --tour-step then ends it before the window would wait for a user).
expect_failure("a plain start, truncated file" 2 "truncated.json: line [0-9]+, column [0-9]+: parse error"
               ${truncated} --tour-step 0)

# --size beyond its bounds is refused before any painting.
foreach(size 100000x100000 40000x40000 1x100000000 16385x10 10000x10000 0x10 axb 1600)
  expect_failure("--size ${size}" 2 "--size must be WIDTHxHEIGHT, each from 1 to 16384 and at most 67108864 pixels"
                 --screenshot ${WORK}/out.png --size ${size})
endforeach()
if(EXISTS ${WORK}/out.png)
  message(FATAL_ERROR "a refused --screenshot wrote ${WORK}/out.png")
endif()
