//===- ImageObject.h - A file's device images as a host object -*- C++ -*-===//
//
// NAME.images.o: every device image of a file (PTX, AMDGPU code objects) in
// one x86-64 ELF relocatable object, with the table of them that the
// registration table of NAME.accy.cpp points at (accy::detail::Image[],
// accy/runtime/Kernel.h). The launcher refers to the table by one extern
// symbol, so an edit inside a kernel changes this object and leaves the
// launcher's source byte-identical: the build skips its C++ compile.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_CODEGEN_IMAGEOBJECT_H
#define ACCY_CODEGEN_IMAGEOBJECT_H

#include "accy/CodeGen/Artifacts.h"

namespace accy::codegen {

/// The symbol of a file's image table: a C identifier derived from the stem
/// and a hash of the qualified launch functions (`cppNamespace` and
/// `functions`), so that it is the same in every build directory and as
/// unique as the launch functions are.
std::string getImageTableSymbol(llvm::StringRef stem,
                                llvm::StringRef cppNamespace,
                                llvm::ArrayRef<std::string> functions);

/// The GPU images of `artifacts` (host objects are left out), in order.
std::vector<const Artifact *>
getDeviceImages(llvm::ArrayRef<Artifact> artifacts);

/// NAME.images.o: an ELF relocatable object for the host defining `symbol`
/// as the accy::detail::Image array of getDeviceImages(artifacts), each
/// image's bytes followed by a 0 (PTX text needs it; the size leaves it
/// out). The table has hidden visibility and strong, non-COMDAT linkage:
/// two different tables of one name fail the link instead of being merged.
/// Deterministic.
llvm::Expected<std::string> emitImageObject(llvm::ArrayRef<Artifact> artifacts,
                                            llvm::StringRef symbol,
                                            llvm::StringRef stem);

} // namespace accy::codegen

#endif // ACCY_CODEGEN_IMAGEOBJECT_H
