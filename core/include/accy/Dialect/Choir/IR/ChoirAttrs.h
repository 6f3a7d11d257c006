//===- ChoirAttrs.h - Choir enums and attributes ----------------*- C++ -*-===//
//
// The choir attributes without the ops: the dispatch plans
// (ChoirPlanAttrs.td), the memory plan and the kernel summary
// (ChoirKernelAttrs.td), which the backend stages, the code generation
// library and the language server read, include only this.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_DIALECT_CHOIR_IR_CHOIRATTRS_H
#define ACCY_DIALECT_CHOIR_IR_CHOIRATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"

#include "accy/Dialect/Choir/IR/ChoirDialect.h.inc"
#include "accy/Dialect/Choir/IR/ChoirEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "accy/Dialect/Choir/IR/ChoirAttrs.h.inc"

namespace accy::choir {

/// The discardable attributes through which the dispatch stage hands its
/// dispatches to the later stages (the dialect verifies them): `choir.member =
/// #choir.member<...>` on every op of a dispatch, `choir.plan =
/// #choir.plan<...>` on its root.
inline constexpr llvm::StringLiteral kMemberAttrName = "choir.member";
inline constexpr llvm::StringLiteral kPlanAttrName = "choir.plan";

/// On a kernel module: the memory stage's buffer plan (`choir.memory =
/// #choir.memory_plan<...>`) and the kernel stage's launches
/// (`choir.kernels = #choir.kernel_summary<...>`), ChoirKernelAttrs.td.
inline constexpr llvm::StringLiteral kMemoryPlanAttrName = "choir.memory";
inline constexpr llvm::StringLiteral kKernelSummaryAttrName = "choir.kernels";

/// The tag the tensor stage puts on the linalg.generic of a scan
/// (`choir.scan = #choir<scan_kind cumsum>`): a reduction loop j masked by
/// j <= i for the axis loop i.
inline constexpr llvm::StringLiteral kScanAttrName = "choir.scan";

} // namespace accy::choir

#endif // ACCY_DIALECT_CHOIR_IR_CHOIRATTRS_H
