//===- GPUBytecode.cpp - A bytecode encoding of gpu.object ----------------===//
//
// MLIR 19's GPU dialect has no bytecode interface, so the bytecode writer
// prints every gpu attribute as text and the reader parses it again. For
// `#gpu.object` that text is the kernel's PTX or code object and its LLVM
// bitcode, escaped byte by byte: printing and parsing it was half of a
// target step that takes every kernel from the kernel store (measured with
// perf on the 16-kernel file of bench/incremental_build: 27% in
// printEscapedString under ObjectAttr::print, 17% in ObjectAttr::parse).
// Here the object's fields are written as attributes, so its bytes are one
// string of the bytecode's string section. Other gpu attributes keep the
// textual form (writeAttribute fails for them, which the writer takes as
// "print it"), and entries written as text still read.
//
//===----------------------------------------------------------------------===//

#include "GPUBytecode.h"

#include "mlir/Bytecode/BytecodeImplementation.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;

namespace {

/// The first varint of a gpu attribute in this encoding.
enum class GPUAttrCode : uint64_t { Object = 0 };

struct GPUBytecodeInterface : public BytecodeDialectInterface {
  explicit GPUBytecodeInterface(Dialect *dialect)
      : BytecodeDialectInterface(dialect) {}

  Attribute readAttribute(DialectBytecodeReader &reader) const override {
    uint64_t code, format;
    Attribute target;
    StringAttr object;
    DictionaryAttr properties;
    if (failed(reader.readVarInt(code)))
      return {};
    if (code != static_cast<uint64_t>(GPUAttrCode::Object)) {
      reader.emitError() << "unknown gpu attribute code " << code;
      return {};
    }
    if (failed(reader.readAttribute(target)) ||
        failed(reader.readVarInt(format)) ||
        failed(reader.readAttribute(object)) ||
        failed(reader.readOptionalAttribute(properties)))
      return {};
    auto kind = format > UINT32_MAX ? std::nullopt
                                    : gpu::symbolizeCompilationTarget(
                                          static_cast<uint32_t>(format));
    if (!kind) {
      reader.emitError() << "unknown gpu.object format " << format;
      return {};
    }
    return gpu::ObjectAttr::getChecked(
        [&] { return reader.emitError(); }, getContext(), target, *kind,
        object, properties);
  }

  LogicalResult writeAttribute(Attribute attr,
                               DialectBytecodeWriter &writer) const override {
    auto object = dyn_cast<gpu::ObjectAttr>(attr);
    if (!object)
      return failure();
    writer.writeVarInt(static_cast<uint64_t>(GPUAttrCode::Object));
    writer.writeAttribute(object.getTarget());
    writer.writeVarInt(static_cast<uint64_t>(object.getFormat()));
    writer.writeAttribute(object.getObject());
    writer.writeOptionalAttribute(object.getProperties());
    return success();
  }
};

} // namespace

void accy::registerGPUBytecodeInterface(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *, gpu::GPUDialect *dialect) {
    dialect->addInterfaces<GPUBytecodeInterface>();
  });
}
