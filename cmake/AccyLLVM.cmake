# Finds Debian's LLVM/MLIR 19 and sets up TableGen. Every Accy binary links the
# shared libraries `MLIR` and `LLVM`, never the static component libraries:
# mixing them registers command-line options twice and aborts at start-up.
if(NOT MLIR_DIR)
  set(MLIR_DIR /usr/lib/llvm-19/lib/cmake/mlir)
endif()
find_package(MLIR CONFIG REQUIRED)
message(STATUS "Using MLIR from ${MLIR_DIR} (LLVM ${LLVM_PACKAGE_VERSION})")

list(APPEND CMAKE_MODULE_PATH "${MLIR_CMAKE_DIR}" "${LLVM_CMAKE_DIR}")
include(TableGen)
include(AddLLVM)
include(AddMLIR)

set(ACCY_LLVM_TOOLS_DIR "${LLVM_TOOLS_BINARY_DIR}")
set(ACCY_LIT "${LLVM_TOOLS_BINARY_DIR}/../build/utils/lit/lit.py")
if(NOT EXISTS "${ACCY_LIT}")
  set(ACCY_LIT /usr/lib/llvm-19/build/utils/lit/lit.py)
endif()

# Interface target carrying LLVM/MLIR include directories and definitions.
add_library(accy_llvm_flags INTERFACE)
target_include_directories(accy_llvm_flags SYSTEM INTERFACE
  ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS})
separate_arguments(_accy_llvm_defs NATIVE_COMMAND "${LLVM_DEFINITIONS}")
target_compile_definitions(accy_llvm_flags INTERFACE ${_accy_llvm_defs})

# Like LLVM itself, Accy's libraries and tools are built without exceptions
# (errors are values). Only test programs, which use Catch2, enable them.
set(ACCY_NO_EXCEPTIONS -fno-exceptions)
