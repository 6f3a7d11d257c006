# What `cmake --install` puts beside the CMake package (cmake-modules/): the
# tools a user runs, their man pages and the user documentation. One install
# component each, so that `--component accy` (the compiler, the runtime and
# the CMake package, all a user project needs) stays small.
include(GNUInstallDirs)

# Every tool a user runs from an installed Accy. Each has a man page,
# docs/man/TOOL.1, which tests/install checks against the tool's --help.
set(ACCY_USER_TOOLS accyc accy-lsp accy-format)

# Installed compressed, as Debian's policy asks (gzip -n: no name or time
# in the header, so the bytes depend on the page only).
set(accy_man_pages)
foreach(tool IN LISTS ACCY_USER_TOOLS)
  set(page "${PROJECT_SOURCE_DIR}/docs/man/${tool}.1")
  if(NOT EXISTS "${page}")
    message(FATAL_ERROR "${tool} is a user tool (ACCY_USER_TOOLS) without a "
      "man page: write docs/man/${tool}.1")
  endif()
  set(compressed "${PROJECT_BINARY_DIR}/man/${tool}.1")
  add_custom_command(OUTPUT "${compressed}.gz"
    COMMAND "${CMAKE_COMMAND}" -E copy "${page}" "${compressed}"
    COMMAND gzip -9nf "${compressed}"
    DEPENDS "${page}"
    COMMENT "Compressing the man page of ${tool}"
    VERBATIM)
  list(APPEND accy_man_pages "${compressed}.gz")
endforeach()
add_custom_target(accy-man-pages ALL DEPENDS ${accy_man_pages})
install(FILES ${accy_man_pages} DESTINATION "${CMAKE_INSTALL_MANDIR}/man1"
  COMPONENT docs)

# accyc is installed with the CMake package, which exports it.
install(TARGETS accy-lsp
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT lsp)
install(TARGETS accy-format
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT format)

# The user documentation, in Debian's place for it (GNUInstallDirs would
# say share/doc/Accy); internals.md is for contributors and stays in the
# source tree.
set(ACCY_INSTALL_DOCDIR "${CMAKE_INSTALL_DATAROOTDIR}/doc/accy")
install(FILES
  "${PROJECT_SOURCE_DIR}/README.md"
  "${PROJECT_SOURCE_DIR}/docs/abi.md"
  "${PROJECT_SOURCE_DIR}/docs/accyc.md"
  "${PROJECT_SOURCE_DIR}/docs/cache.md"
  "${PROJECT_SOURCE_DIR}/docs/cmake.md"
  "${PROJECT_SOURCE_DIR}/docs/diagnostics.md"
  "${PROJECT_SOURCE_DIR}/docs/format.md"
  "${PROJECT_SOURCE_DIR}/docs/getting-started.md"
  "${PROJECT_SOURCE_DIR}/docs/install.md"
  "${PROJECT_SOURCE_DIR}/docs/language.md"
  "${PROJECT_SOURCE_DIR}/docs/lsp.md"
  "${PROJECT_SOURCE_DIR}/docs/runtime.md"
  DESTINATION "${ACCY_INSTALL_DOCDIR}" COMPONENT docs)
