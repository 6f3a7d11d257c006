//===- ChoirBytecode.cpp - Choir attributes in MLIR bytecode --------------===//
//
// A choir attribute is written to bytecode as its text, as MLIR writes the
// attributes of a dialect without a bytecode interface, but printed once
// per attribute and context rather than twice per serialization: MLIR's
// fallback prints it to number what it nests and again to write it, each
// time with a new printer state, whose set-up (every loaded dialect's asm
// interface) was most of the cost. Products are serialized several times a
// stage (fingerprint, content hash and store, stage file): the fallback was
// 1.6% of the instructions of a cold build of the three examples.
//
//===----------------------------------------------------------------------===//

#include "ChoirBytecode.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Bytecode/BytecodeImplementation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/StringSaver.h"

#include <mutex>

using namespace mlir;

namespace {

struct ChoirBytecodeInterface : public BytecodeDialectInterface {
  explicit ChoirBytecodeInterface(Dialect *dialect)
      : BytecodeDialectInterface(dialect) {}

  Attribute readAttribute(DialectBytecodeReader &reader) const override {
    StringRef text;
    if (failed(reader.readString(text)))
      return {};
    Attribute attr = parseAttribute(text, getContext());
    if (!attr)
      reader.emitError() << "invalid choir attribute '" << text << "'";
    return attr;
  }

  LogicalResult writeAttribute(Attribute attr,
                               DialectBytecodeWriter &writer) const override {
    writer.writeOwnedString(textOf(attr));
    return success();
  }

private:
  /// The text of `attr`, kept for the context's life as the attribute is.
  StringRef textOf(Attribute attr) const {
    std::lock_guard<std::mutex> lock(mutex);
    auto [entry, inserted] = texts.try_emplace(attr);
    if (inserted) {
      std::string text;
      llvm::raw_string_ostream os(text);
      attr.print(os);
      entry->second = saver.save(text);
    }
    return entry->second;
  }

  mutable std::mutex mutex;
  mutable llvm::BumpPtrAllocator allocator;
  mutable llvm::StringSaver saver{allocator};
  mutable llvm::DenseMap<Attribute, StringRef> texts;
};

} // namespace

void accy::choir::addBytecodeInterface(Dialect &dialect) {
  dialect.addInterfaces<ChoirBytecodeInterface>();
}
