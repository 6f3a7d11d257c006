# Finds Debian's LLVM/MLIR 19 and sets up TableGen.
#
# Accy binaries link LLVM and MLIR statically, from the component libraries
# each Accy library names with accy_link_llvm(): loading libLLVM.so and
# libMLIR.so costs ~20 ms per process (relocations and the static
# initializers of every command-line option in them), more than a warm
# `accyc build` of a file takes. ACCY_LINK_LLVM_DYLIB=ON links the shared
# libraries instead (faster links while developing). A binary must use one
# or the other, never both: mixing them registers command-line options twice
# and aborts at start-up.
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

option(ACCY_LINK_LLVM_DYLIB
  "Link libLLVM.so and libMLIR.so instead of the static component libraries" OFF)

# accy_link_llvm(<target> <PUBLIC|PRIVATE> <component>...): links the LLVM and
# MLIR component libraries (imported targets such as MLIRIR, LLVMSupport) that
# <target>'s own code calls; their dependencies come with them.
function(accy_link_llvm target scope)
  if(ACCY_LINK_LLVM_DYLIB)
    list(FILTER ARGN INCLUDE REGEX "^MLIR")
    if(ARGN)
      target_link_libraries(${target} ${scope} MLIR LLVM)
    else()
      target_link_libraries(${target} ${scope} LLVM)
    endif()
  else()
    target_link_libraries(${target} ${scope} ${ARGN})
  endif()
endfunction()

if(NOT ACCY_LINK_LLVM_DYLIB)
  # Debian builds MLIR's component libraries against libLLVM.so, so their link
  # interface names the `LLVM` dylib; a static binary would load it too and
  # run two copies of LLVM (each freeing the other's memory at exit). Name the
  # static LLVM libraries MLIR's code uses instead.
  llvm_map_components_to_libnames(accy_llvm_libs_for_mlir
    analysis asmparser bitreader bitwriter core frontendoffloading
    frontendopenmp irreader linker mc object passes support targetparser
    transformutils)
  add_library(accy_llvm_for_mlir INTERFACE)
  target_link_libraries(accy_llvm_for_mlir INTERFACE ${accy_llvm_libs_for_mlir})
  get_property(accy_mlir_libs GLOBAL PROPERTY MLIR_ALL_LIBS)
  foreach(lib IN LISTS accy_mlir_libs)
    if(TARGET ${lib})
      get_target_property(deps ${lib} INTERFACE_LINK_LIBRARIES)
      if(deps)
        list(TRANSFORM deps REPLACE "^LLVM$" accy_llvm_for_mlir)
        set_target_properties(${lib} PROPERTIES INTERFACE_LINK_LIBRARIES "${deps}")
      endif()
    endif()
  endforeach()
endif()

# Statically linked, every binary carries the part of LLVM it uses; lld links
# them in a second where GNU ld takes much longer, and --gc-sections drops
# the unreferenced code of the component libraries.
include(CheckLinkerFlag)
check_linker_flag(CXX "-fuse-ld=lld" ACCY_HAVE_LLD)
if(ACCY_HAVE_LLD)
  # lld writes its output through a shared mapping, a page at a time: the
  # page cache then holds the binary in small pages, and accyc started from
  # it ran 3-6% slower than a copy of the same bytes (bench/compile_time/
  # compare; docs/internals.md, "Start-up"). Written with write(), it runs
  # as fast as an installed copy.
  add_link_options(-fuse-ld=lld -Wl,--no-mmap-output-file)
elseif(NOT ACCY_LINK_LLVM_DYLIB)
  # GNU ld resolves archives in command-line order, and MLIR's libraries
  # depend on each other in cycles; lld does not care about order.
  message(FATAL_ERROR "Linking LLVM statically needs ld.lld on PATH "
    "(Debian package lld), or configure with -DACCY_LINK_LLVM_DYLIB=ON")
endif()
if(NOT ACCY_LINK_LLVM_DYLIB)
  # A position-independent executable carries a relocation for every pointer
  # in LLVM's tables, which the loader applies (and copies the page for) at
  # every start: ~1.5 ms of accyc's start-up.
  add_link_options(-Wl,--gc-sections -no-pie)
endif()
# The compiler's build id (accy/Pipeline/BuildId.h) is the linker's hash of
# the executable.
add_link_options(-Wl,--build-id)

# The tools a build starts once per step (accyc, and accy-lsp, accy-format)
# link the C++ runtime statically. Linked dynamically, every type_info in
# their RTTI points at a vtable in libstdc++.so: ~6,800 symbol relocations
# and ~240 copied pages at every start, 2.5 ms of a 10 ms stage step. They
# load no C++ library (libcurl and hiredis are C). With the LLVM dylib,
# which links libstdc++.so itself, they keep the shared one, and so they do
# under a sanitizer, whose runtime must interpose operator new and delete.
function(accy_link_cxx_runtime_statically target)
  if(NOT ACCY_LINK_LLVM_DYLIB AND NOT CMAKE_CXX_FLAGS MATCHES "-fsanitize")
    target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc)
  endif()
endfunction()
