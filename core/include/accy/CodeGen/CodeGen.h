//===- CodeGen.h - LLVM IR to PTX, AMDGPU code objects, host objects -*- C++
//-*-===//
//
// The backend half of the target stage, independent of MLIR: optimize an
// LLVM module for a target profile and emit its artifact. The target stage
// calls it per kernel; the whole-file artifacts (Artifacts.h) call it on the
// kernels' bitcode linked together. Everything here is deterministic: fixed
// target options, no timestamps, no paths in the output.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_CODEGEN_CODEGEN_H
#define ACCY_CODEGEN_CODEGEN_H

#include "accy/Target/TargetProfile.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
class Target;
} // namespace llvm

namespace accy::codegen {

class CanonicalNames;

/// The LLVM backend of `profile`, registered on first use (thread-safe).
llvm::Expected<const llvm::Target &> getBackend(const TargetProfile &profile);

/// Makes target machines for `profiles` ahead of their first use, until
/// `count` of each wait unused: a thread with nothing else to do pays for
/// them (each costs about half a millisecond) instead of code generation.
void prepareTargetMachines(llvm::ArrayRef<const TargetProfile *> profiles,
                           unsigned count);

/// The target machines of `profile` that wait unused: code generation lends
/// one to each module it works on and takes it back after.
size_t countIdleTargetMachines(const TargetProfile &profile);

/// External functions a host object may call: the C allocator and the
/// memory intrinsics' library forms (docs/abi.md).
llvm::ArrayRef<llvm::StringRef> getAllowedHostExternals();

/// The LLVM optimization pipeline for `kind`'s code, in the text of
/// `opt -passes=`.
llvm::StringRef getOptimizationPipeline(TargetKind kind);

/// The IR passes of `kind`'s code generation pipeline that are left out,
/// by their registered argument (`llc -debug-pass=Arguments` names them).
llvm::ArrayRef<llvm::StringRef> getSkippedCodegenPasses(TargetKind kind);

/// The data layout of `profile`'s target machine, in LLVM's string form.
/// Translation from MLIR needs it: a load or store it makes without an
/// alignment takes its type's ABI alignment from the module's layout, and
/// LLVM's default layout aligns i64 to 4 bytes (NVPTX then splits every
/// i64 access into two 32-bit ones).
llvm::Expected<std::string> getDataLayout(const TargetProfile &profile);

/// Sets the triple and data layout of `module` for `profile` and runs
/// getOptimizationPipeline(profile.kind). Each pass is a span of the time
/// trace where the thread traces, named after the IR it ran on: under the
/// names that `names` restores where the module has canonical ones.
llvm::Error optimizeModule(llvm::Module &module, const TargetProfile &profile,
                           const CanonicalNames *names = nullptr);

/// Fails, naming them, when `module` declares functions it does not define
/// (other than intrinsics and, on the host, getAllowedHostExternals()).
llvm::Error checkSelfContained(const llvm::Module &module,
                               const TargetProfile &profile);

/// The module as LLVM bitcode.
std::string writeBitcode(const llvm::Module &module);

/// Parses bitcode written by writeBitcode (or several, linked into one
/// module).
llvm::Expected<std::unique_ptr<llvm::Module>>
linkBitcode(llvm::LLVMContext &context,
            llvm::ArrayRef<llvm::StringRef> bitcodes, llvm::StringRef name);

/// Code generation for one optimized module, in the form that joins with
/// other modules' code (joinCode, below): PTX text for NVPTX, an ELF
/// relocatable object for AMDGPU and the host. An AMDGPU object loads only
/// once linked into a code object (linkCodeObjects).
llvm::Expected<std::string> emitObjectCode(llvm::Module &module,
                                           const TargetProfile &profile);

/// What a loader takes: emitObjectCode, and for AMDGPU the object linked
/// into a code object.
llvm::Expected<std::string> emitArtifact(llvm::Module &module,
                                         const TargetProfile &profile);

/// One loadable AMDGPU code object from relocatable objects of one profile
/// (emitObjectCode's: of a kernel, or of some of its entries, each), with
/// their metadata notes merged into one, as a loader reads one
/// NT_AMDGPU_METADATA note per code object. Fails when the notes disagree
/// on the target or version.
llvm::Expected<std::string>
linkCodeObjects(llvm::ArrayRef<llvm::StringRef> objects);

/// One artifact of `profile` from pieces of code generated apart (a
/// kernel's entries, a file's kernels), without generating their code again
/// where it can: `codes` are the pieces' code (emitObjectCode, or PTX and
/// host objects joined before; AMDGPU's are not read) and `linkables` what
/// links them (NVPTX: the optimized bitcode; AMDGPU: relocatable objects).
/// `name` names a module linked from the bitcode.
llvm::Expected<std::string> joinCode(const TargetProfile &profile,
                                     llvm::ArrayRef<llvm::StringRef> linkables,
                                     llvm::ArrayRef<llvm::StringRef> codes,
                                     llvm::StringRef name);

/// ld.lld: next to the LLVM tools Accy was built with, else on PATH.
llvm::Expected<std::string> findLinker();

/// One relocatable host object made of `objects` (ld.lld -r): the host
/// objects of a file's kernels, each compiled on its own, without compiling
/// their code again.
llvm::Expected<std::string>
linkHostObjects(llvm::ArrayRef<llvm::StringRef> objects);

} // namespace accy::codegen

#endif // ACCY_CODEGEN_CODEGEN_H
