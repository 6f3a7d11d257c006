//===- ProductAttributes.h - Attribute names of stage products --*- C++ -*-===//
//
// The names of the attributes a product carries, from the frontend's
// emission to the target stage, for every library and tool that reads or
// writes them (the stages, the pipeline, the Target library, accy-lsp).
// Header only and MLIR-free, so any of them may include it.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_PRODUCTATTRIBUTES_H
#define ACCY_PRODUCTATTRIBUTES_H

#include "llvm/ADT/StringRef.h"

namespace accy {

/// On a product: the stage that made it, and the schema version of that
/// stage's products.
inline constexpr llvm::StringLiteral kStageAttr = "accy.stage";
inline constexpr llvm::StringLiteral kSchemaAttr = "accy.schema";
/// On a kernel module of a product: its product key, and the key of the
/// kernel module it was made from.
inline constexpr llvm::StringLiteral kKeyAttr = "accy.key";
inline constexpr llvm::StringLiteral kInputKeyAttr = "accy.input_key";

/// On a kernel module: the kernel's name.
inline constexpr llvm::StringLiteral kKernelAttr = "accy.kernel";
/// On the kernel's entry function.
inline constexpr llvm::StringLiteral kEntryAttr = "accy.entry";
/// On an output argument of the entry: the result index it holds.
inline constexpr llvm::StringLiteral kResultAttr = "accy.result";
/// On an input argument of the entry: the parameter's name in the source,
/// which the generated launch function and the runtime's messages use.
inline constexpr llvm::StringLiteral kParamNameAttr = "accy.name";
// The dispatches and their plans, the memory plan and the kernel summary
// are typed choir attributes (`choir.member`, `choir.plan`, `choir.memory`,
// `choir.kernels`; ChoirPlanAttrs.td, ChoirKernelAttrs.td).
/// On a kernel module: the planned targets, in canonical order.
inline constexpr llvm::StringLiteral kTargetsAttr = "accy.targets";
/// On an allocation: its buffer id in the memory plan.
inline constexpr llvm::StringLiteral kBufferAttr = "accy.buffer";
/// On a launch function: the target it launches on.
inline constexpr llvm::StringLiteral kLaunchTargetAttr = "accy.launch_target";
/// On a launch function: what each launch is, in launch order (its
/// dispatch, schedule and the plan's `#choir.launch` on the target).
inline constexpr llvm::StringLiteral kLaunchesAttr = "accy.launches";
/// On a gpu.module: the target its kernels were generated for.
inline constexpr llvm::StringLiteral kGPUModuleTargetAttr = "accy.target";
/// On a kernel module of the target product: the host object.
inline constexpr llvm::StringLiteral kHostObjectAttr = "accy.host_object";
/// In an NVPTX gpu.object's properties: the optimized LLVM bitcode, which a
/// file's kernels link and compile again when their PTX cannot be merged.
inline constexpr llvm::StringLiteral kBitcodeProperty = "accy.bitcode";
/// In an AMDGPU gpu.object's properties: the relocatable object its code
/// object was linked from, which links with the file's other kernels'.
inline constexpr llvm::StringLiteral kRelocatableProperty = "accy.relocatable";
/// Name of the nested module holding the host version of a kernel.
inline constexpr llvm::StringLiteral kHostModuleName = "host";

} // namespace accy

#endif // ACCY_PRODUCTATTRIBUTES_H
