//===- ChoirDispatchOps.cpp - The dispatch region verifier ----------------===//

#include "accy/Dialect/Choir/IR/Choir.h"

using namespace mlir;
using namespace accy::choir;

LogicalResult DispatchOp::verify() {
  Block &body = getBody().front();
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return emitOpError("region must end in choir.yield");
  if (body.getNumArguments() != getNumOperands())
    return emitOpError() << "region has " << body.getNumArguments()
                         << " arguments for " << getNumOperands()
                         << " operands";
  for (auto [index, operand, argument] :
       llvm::enumerate(getOperands(), body.getArguments()))
    if (operand.getType() != argument.getType())
      return emitOpError() << "operand " << index << " of type "
                           << operand.getType()
                           << " is taken by a region argument of type "
                           << argument.getType();
  if (yield.getValues().getTypes() != getResultTypes())
    return emitOpError("choir.yield types differ from the results");
  if (!getRoot())
    return emitOpError("region holds no root (an op marked #choir.member<N>)");
  return success();
}

Operation *DispatchOp::getRoot() {
  for (Operation &op : getBody().front().without_terminator())
    if (auto member = op.getAttrOfType<MemberAttr>(kMemberAttrName);
        member && member.getRole() == DispatchRole::Root)
      return &op;
  return nullptr;
}
