//===- ChoirDialect.cpp - The choir dialect -------------------------------===//

#include "accy/Dialect/Choir/IR/Choir.h"

#include "ChoirBytecode.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace accy::choir;

#include "accy/Dialect/Choir/IR/ChoirDialect.cpp.inc"
#include "accy/Dialect/Choir/IR/ChoirEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "accy/Dialect/Choir/IR/ChoirAttrs.cpp.inc"

void ChoirDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "accy/Dialect/Choir/IR/ChoirAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "accy/Dialect/Choir/IR/ChoirOps.cpp.inc"
      >();
  addBytecodeInterface(*this);
}

Operation *ChoirDialect::materializeConstant(OpBuilder &builder,
                                             Attribute value, Type type,
                                             Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return builder.create<ConstantOp>(loc, elements);
}

/// The choir attributes that ops carry as discardable ones: the dispatch
/// membership and plan, the scan tag, the memory plan and the kernel
/// summary, each of its own attribute class.
LogicalResult ChoirDialect::verifyOperationAttribute(Operation *op,
                                                     NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == kMemberAttrName && !isa<MemberAttr>(attr.getValue()))
    return op->emitOpError() << "'" << name << "' must be #choir.member";
  if (name == kPlanAttrName && !isa<PlanAttr>(attr.getValue()))
    return op->emitOpError() << "'" << name << "' must be #choir.plan";
  if (name == kScanAttrName && !isa<ScanKindAttr>(attr.getValue()))
    return op->emitOpError()
           << "'" << name << "' must be #choir<scan_kind ...>";
  if (name == kMemoryPlanAttrName && !isa<MemoryPlanAttr>(attr.getValue()))
    return op->emitOpError() << "'" << name << "' must be #choir.memory_plan";
  if (name == kKernelSummaryAttrName &&
      !isa<KernelSummaryAttr>(attr.getValue()))
    return op->emitOpError()
           << "'" << name << "' must be #choir.kernel_summary";
  return success();
}
