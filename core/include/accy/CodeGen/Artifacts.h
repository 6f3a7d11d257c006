//===- Artifacts.h - What the target product holds, as files ---*- C++ -*-===//
//
// The target product keeps, per kernel module, one `gpu.binary @<target>` per
// GPU target (PTX text or an AMDGPU code object, with the optimized LLVM
// bitcode in the object's properties) and the `accy.host_object` attribute
// (an x86-64 ELF relocatable object and its bitcode). This API reads them
// back, per kernel or for a whole file, and the kernel summary a runtime
// launches from.
//
// Whole-file artifacts (one PTX per sm_*, one HSACO per gfx*, one host
// object, each with every kernel of the file) are made by linking the
// kernels' bitcode and running code generation once more; they never
// require re-running the target stage. See docs/abi.md.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_CODEGEN_ARTIFACTS_H
#define ACCY_CODEGEN_ARTIFACTS_H

#include "accy/Target/TargetProfile.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace accy::codegen {

struct Artifact {
  /// Target profile name: "sm_90", "gfx942", "host".
  std::string target;
  ArtifactKind kind;
  /// PTX text, AMDGPU code object (ELF shared object) or ELF relocatable.
  std::string bytes;

  /// `<stem>.<target><ext>`: NAME.sm_90.ptx, NAME.gfx942.hsaco, NAME.host.o.
  std::string fileName(llvm::StringRef stem) const;
};

/// The artifacts of one kernel module of a target product, in canonical
/// target order.
llvm::Expected<std::vector<Artifact>> extractArtifacts(mlir::ModuleOp kernel);

/// The property of a GPU target's gpu.object that holds what links a
/// kernel's code with the file's other kernels': the optimized bitcode
/// (kBitcodeProperty) or, for AMDGPU, the relocatable object the code
/// object was linked from (kRelocatableProperty).
llvm::StringRef getLinkableProperty(TargetKind kind);

/// Links the artifacts of all `kernels`, target by target: one artifact per
/// target that every kernel has, containing all their kernels (it is an
/// error if the kernels were compiled for different targets). `stem` names
/// the linked LLVM modules (it appears nowhere in the bytes but PTX
/// comments). Deterministic: the same kernels give the same bytes.
llvm::Expected<std::vector<Artifact>>
linkFileArtifacts(llvm::ArrayRef<mlir::ModuleOp> kernels, llvm::StringRef stem);

/// Writes `artifacts` as `<directory>/<artifact.fileName(stem)>`, each only
/// when its bytes differ from what is there (writeFileIfChanged).
llvm::Error writeArtifacts(llvm::ArrayRef<Artifact> artifacts,
                           llvm::StringRef directory, llvm::StringRef stem);

//===----------------------------------------------------------------------===//
// Kernel summary (`choir.kernels`)
//===----------------------------------------------------------------------===//

/// One kernel argument, as the runtime must pass it.
struct KernelArgument {
  enum class Kind { Argument, Buffer, Index, Scalar } kind;
  /// Argument: index of the entry argument; Buffer: id in the memory plan.
  int64_t index = -1;
  /// Index: the value as an expression of the symbols.
  mlir::AffineExpr value;
  /// Scalar: the constant.
  mlir::Attribute scalar;
};

struct KernelLaunch {
  std::string name;
  int64_t dispatch = -1;
  std::string schedule;
  int64_t block[3] = {1, 1, 1};
  /// Grid size per dimension, expressions of the symbols.
  mlir::AffineExpr grid[3];
  int64_t sharedMemoryBytes = 0;
  std::vector<KernelArgument> arguments;
  /// When the launch runs, where the launch function chooses on the sizes:
  /// any of these conjunctions of constraints `e >= 0` over the symbols
  /// holds (none: never); no value: always.
  std::optional<std::vector<std::vector<mlir::AffineExpr>>> when;
};

struct KernelSummary {
  /// Symbol i is dimension `symbols[i].second` of entry argument
  /// `symbols[i].first`.
  std::vector<std::pair<int64_t, int64_t>> symbols;
  /// Per GPU target, the launches in order.
  std::vector<std::pair<std::string, std::vector<KernelLaunch>>> targets;
};

/// Reads `choir.kernels` of a kernel module (kernel or target product).
llvm::Expected<KernelSummary> readKernelSummary(mlir::ModuleOp kernel);

/// Evaluates a summary expression for concrete symbol values.
int64_t evaluate(mlir::AffineExpr expr, llvm::ArrayRef<int64_t> symbols);

/// The expression as C++ source over `symbolNames` (for generated
/// launchers), e.g. "((s0 * s1) + 255) / 256".
std::string toCxxExpression(mlir::AffineExpr expr,
                            llvm::ArrayRef<std::string> symbolNames);

} // namespace accy::codegen

#endif // ACCY_CODEGEN_ARTIFACTS_H
