# The architecture check must catch what it is there to catch: run it on a small tree that breaks every
# rule once (tests/data/architecture) and require a failure that names each break.
# Usage: cmake -DCHECK=<check_architecture.cmake> -DFIXTURE=<tests/data/architecture> -P expect_violations.cmake
execute_process(COMMAND ${CMAKE_COMMAND} -DROOT=${FIXTURE} -DRULES=${FIXTURE}/rules.txt -P ${CHECK}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "the architecture check passed a tree that breaks its rules:\n${out}${err}")
endif()
set(expected
    "core/model/UsesEngine.h: includes core/estimate/Plan.h, but core/model may not use core/estimate"
    "core/model/UsesQt.cpp: includes Qt"
    "core/estimate/UsesReportDetail.cpp: includes core/report/detail/Content.h, but core/estimate may not use core/report"
    "core/estimate/UsesReportDetail.cpp: includes core/report/detail/Content.h, a detail header of core/report"
    "core/Stray.h: in no folder with a dependency rule"
    "core/model/CMakeLists.txt: lists sources with file\\(GLOB\\)"
    "ui/plan/UsesShell.cpp: includes ui/shell/MainWindow.h, but ui/plan may not use ui/shell")
foreach(message IN LISTS expected)
  if(NOT err MATCHES "${message}")
    message(FATAL_ERROR "the architecture check did not report \"${message}\":\n${err}")
  endif()
endforeach()
message(STATUS "the architecture check reports every break in the fixture")
