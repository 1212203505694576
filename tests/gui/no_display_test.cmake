# Runs the window binary with no display at all (DISPLAY, WAYLAND_DISPLAY and QT_QPA_PLATFORM unset),
# as over SSH or in a container: --version, --help and --screenshot still work (offscreen platform);
# a plain start exits 2 with a message that says what to do, instead of Qt's abort in the xcb plugin.
set(ENV_CLEAN ${CMAKE_COMMAND} -E env --unset=DISPLAY --unset=WAYLAND_DISPLAY --unset=QT_QPA_PLATFORM)

execute_process(COMMAND ${ENV_CLEAN} ${APP} --version RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "layout-planner")
  message(FATAL_ERROR "--version without a display: rc ${rc}, out '${out}', err '${err}'")
endif()

execute_process(COMMAND ${ENV_CLEAN} ${APP} --help RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "--screenshot")
  message(FATAL_ERROR "--help without a display: rc ${rc}, out '${out}', err '${err}'")
endif()

execute_process(COMMAND ${ENV_CLEAN} ${APP} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "a plain start without a display should exit 2, got ${rc}: '${err}'")
endif()
if(NOT err MATCHES "no display" OR NOT err MATCHES "xvfb-run" OR NOT err MATCHES "layout-planner-cli")
  message(FATAL_ERROR "the no-display message should name the ways out, got '${err}'")
endif()

file(REMOVE ${OUT})
execute_process(COMMAND ${ENV_CLEAN} ${APP} --screenshot=${OUT} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT EXISTS ${OUT})
  message(FATAL_ERROR "--screenshot without a display failed (${rc}): ${err}")
endif()
file(READ ${OUT} header LIMIT 8 HEX)
if(NOT header STREQUAL "89504e470d0a1a0a")
  message(FATAL_ERROR "${OUT} is not a PNG (${header})")
endif()
message(STATUS "no-display start OK")
