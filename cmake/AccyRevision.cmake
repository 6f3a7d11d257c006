# The source revision the build was configured from, shown by --version.
# (Product keys use the running executable's own hash: see BuildId.h.)
execute_process(
  COMMAND git rev-parse --short=12 HEAD
  WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
  OUTPUT_VARIABLE ACCY_GIT_REVISION
  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT ACCY_GIT_REVISION)
  set(ACCY_GIT_REVISION "unknown")
endif()
set(ACCY_REVISION "${ACCY_GIT_REVISION}")
