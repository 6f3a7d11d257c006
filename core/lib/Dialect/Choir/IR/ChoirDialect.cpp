//===- ChoirDialect.cpp - The choir dialect -------------------------------===//

#include "accy/Dialect/Choir/IR/Choir.h"

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
}

Operation *ChoirDialect::materializeConstant(OpBuilder &builder,
                                             Attribute value, Type type,
                                             Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return builder.create<ConstantOp>(loc, elements);
}
