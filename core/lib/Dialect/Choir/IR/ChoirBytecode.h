//===- ChoirBytecode.h - Choir attributes in MLIR bytecode ------*- C++ -*-===//
#ifndef ACCY_LIB_DIALECT_CHOIR_IR_CHOIRBYTECODE_H
#define ACCY_LIB_DIALECT_CHOIR_IR_CHOIRBYTECODE_H

namespace mlir {
class Dialect;
} // namespace mlir

namespace accy::choir {

/// Gives the choir dialect its bytecode encoding of attributes.
void addBytecodeInterface(mlir::Dialect &dialect);

} // namespace accy::choir

#endif // ACCY_LIB_DIALECT_CHOIR_IR_CHOIRBYTECODE_H
