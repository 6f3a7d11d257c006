# Two-core machines spend most of a rebuild in MLIR headers; ccache makes
# repeated configure+build cycles (CI retries, bisects) cheap.
find_program(ACCY_CCACHE ccache)
if(ACCY_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_CXX_COMPILER_LAUNCHER "${ACCY_CCACHE}")
  set(CMAKE_C_COMPILER_LAUNCHER "${ACCY_CCACHE}")
endif()
