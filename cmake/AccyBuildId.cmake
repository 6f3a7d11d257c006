# The compiler build id is part of every product key: a product made by one
# build of the compiler is never reused by another.
execute_process(
  COMMAND git rev-parse --short=12 HEAD
  WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
  OUTPUT_VARIABLE ACCY_GIT_REVISION
  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT ACCY_GIT_REVISION)
  set(ACCY_GIT_REVISION "unknown")
endif()
set(ACCY_BUILD_ID "accy-${PROJECT_VERSION}-${ACCY_GIT_REVISION}")
