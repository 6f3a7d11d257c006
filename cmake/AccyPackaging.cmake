# CPack: `cpack -G DEB` makes a Debian package of everything `cmake
# --install` installs, `cpack -G TGZ` the same files as a tarball (see
# docs/install.md). Only for Accy's own build: a project that adds Accy
# with add_subdirectory() keeps its own CPack settings.
set(CPACK_PACKAGE_NAME accy)
set(CPACK_PACKAGE_VENDOR "Accy")
set(CPACK_PACKAGE_CONTACT "Accy developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "tensor-kernel toolchain: compiler, language server, runtime, CMake package")
# Lines of at most 80 characters, as the Debian control file wants them.
string(JOIN "\n" CPACK_PACKAGE_DESCRIPTION
  "accyc compiles .accy kernels through seven MLIR stages into PTX, AMDGPU"
  "code objects and host objects; accy_add_kernels() (find_package(Accy))"
  "builds them into a C++ program with one typed launch function per kernel,"
  "run by Accy::runtime on a GPU or the host. accy-lsp serves editors;"
  "accy-format lays out .accy files.")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_GENERATOR "DEB;TGZ")
# The tools carry their part of LLVM statically: stripped they are ~70 MB
# instead of ~95 MB each.
set(CPACK_STRIP_FILES ON)
set(CPACK_THREADS 0)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# dpkg-shlibdeps names the Debian libraries the tools load (libc6,
# zlib, zstd, ...; not libstdc++6, which the tools link statically), in the
# versions this build linked.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# What accy_add_kernels() needs to build a user's project; ld.lld, which
# accyc runs to link AMDGPU code objects; libcurl4, which it opens (dlopen,
# so dpkg-shlibdeps does not see it) for an HTTP remote cache.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "cmake (>= 3.25), ninja-build, g++ | c++-compiler, lld-19, libcurl4")
# xz, the archive's default: 32 MB in ~50 s on two cores. The test of the
# package (tests/install) asks for gzip, 48 MB in ~7 s; dpkg reads zstd too
# (45 MB, ~5 s), but Debian's archive does not take it.
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)

include(CPack)
