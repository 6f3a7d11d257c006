//===- GPUBytecode.h - A bytecode encoding of gpu.object --------*- C++ -*-===//
#ifndef ACCY_PIPELINE_GPUBYTECODE_H
#define ACCY_PIPELINE_GPUBYTECODE_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace accy {

/// Gives the GPU dialect a bytecode encoding of `#gpu.object`, the
/// attribute that holds each kernel's PTX or code object and bitcode in the
/// target product (see GPUBytecode.cpp for why).
void registerGPUBytecodeInterface(mlir::DialectRegistry &registry);

} // namespace accy

#endif // ACCY_PIPELINE_GPUBYTECODE_H
