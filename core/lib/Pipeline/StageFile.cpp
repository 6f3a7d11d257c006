//===- StageFile.cpp - Stage files on disk --------------------------------===//

#include "accy/Pipeline/StageFile.h"

#include "accy/Pipeline/Hashing.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>
#include <optional>

using namespace accy;

char CorruptStageFileError::ID;

void CorruptStageFileError::log(llvm::raw_ostream &os) const {
  os << path << ": corrupt stage file: " << why;
}

static llvm::Error fileError(const llvm::Twine &path, const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 path + ": " + what);
}

//===----------------------------------------------------------------------===//
// The checksum in the bytecode header
//===----------------------------------------------------------------------===//
//
// MLIR bytecode starts with the magic number, the bytecode version (a
// varint) and a NUL-terminated producer string that readers only show in
// messages. A stage file's producer is `accy xxh3:` and 32 hex digits: the
// content hash of the whole file with those digits read as zeros, so a
// changed byte anywhere, header included, shows.

static constexpr llvm::StringLiteral kBytecodeMagic("ML\xefR");
static constexpr llvm::StringLiteral kChecksumPrefix = "accy xxh3:";
static constexpr size_t kChecksumDigits = 32;

/// Where the producer string of MLIR bytecode lies: [begin, end), end at
/// its NUL. None when `bytes` is not bytecode.
static std::optional<std::pair<size_t, size_t>>
producerRange(llvm::StringRef bytes) {
  if (!bytes.starts_with(kBytecodeMagic) ||
      bytes.size() <= kBytecodeMagic.size())
    return std::nullopt;
  // A prefix varint: a set low bit marks one byte; otherwise the trailing
  // zeros count the bytes that follow (all zeros: eight more).
  auto first = static_cast<uint8_t>(bytes[kBytecodeMagic.size()]);
  size_t varint = (first & 1) ? 1 : first == 0 ? 9 : llvm::countr_zero(first) + 1;
  size_t begin = kBytecodeMagic.size() + varint;
  size_t end = bytes.find('\0', std::min(begin, bytes.size()));
  if (end == llvm::StringRef::npos)
    return std::nullopt;
  return std::make_pair(begin, end);
}

/// The checksum of `bytes` whose digits start at `digitsAt`.
static std::string checksumOf(llvm::StringRef bytes, size_t digitsAt) {
  std::string copy = bytes.str();
  copy.replace(digitsAt, kChecksumDigits, kChecksumDigits, '0');
  return contentHash(copy);
}

std::string accy::stageFileBytes(mlir::Operation *product) {
  std::string producer =
      (kChecksumPrefix + std::string(kChecksumDigits, '0')).str();
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  // The configuration of productBytes but for the producer: same program,
  // same bytes after the header.
  mlir::BytecodeWriterConfig config(producer);
  config.setDesiredBytecodeVersion(2);
  (void)mlir::writeBytecodeToFile(product, os, config);
  auto range = producerRange(bytes);
  assert(range && llvm::StringRef(bytes).slice(range->first, range->second) ==
                      producer && "unexpected bytecode header");
  size_t digitsAt = range->first + kChecksumPrefix.size();
  bytes.replace(digitsAt, kChecksumDigits, checksumOf(bytes, digitsAt));
  return bytes;
}

/// Lets through only the bytes of a stage file accyc wrote: bytecode whose
/// checksum matches.
static llvm::Error checkStageFileBytes(llvm::StringRef path,
                                       llvm::StringRef bytes) {
  auto corrupt = [&](const llvm::Twine &why) {
    return llvm::make_error<CorruptStageFileError>(path.str(), why.str());
  };
  if (bytes.empty())
    return corrupt("the file is empty");
  auto range = producerRange(bytes);
  if (!range)
    return fileError(path, "not a stage file (accyc reads the MLIR bytecode "
                           "it wrote; accy-opt reads MLIR text)");
  llvm::StringRef producer = bytes.slice(range->first, range->second);
  // Older accyc wrote "accy", other MLIR tools "MLIR<version>". MLIR's
  // readers trust what they read (counts in the bytecode encoding, nesting
  // depth, operand lists in text) and crash on damaged input, as fuzzing
  // showed, so only bytes the checksum vouches for reach them: what accyc
  // wrote. Not a corrupt stage file: nothing says accyc wrote it, so
  // nothing deletes it. A producer of a checksum's length is taken as one
  // whose prefix is damaged.
  if (!producer.starts_with(kChecksumPrefix) &&
      producer.size() != kChecksumPrefix.size() + kChecksumDigits)
    return fileError(path, "MLIR bytecode that accyc did not write (no "
                           "checksum): run the stage again");
  llvm::StringRef digits = producer.drop_front(kChecksumPrefix.size());
  if (!producer.starts_with(kChecksumPrefix) ||
      digits.size() != kChecksumDigits)
    return corrupt("its header is damaged");
  if (checksumOf(bytes, range->first + kChecksumPrefix.size()) != digits)
    return corrupt("its bytes do not match its checksum (it was changed or "
                   "damaged after accyc wrote it)");
  return llvm::Error::success();
}

llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
accy::readProductFile(mlir::MLIRContext &context, llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buffer)
    return fileError(path, "cannot read: " + buffer.getError().message());
  if (llvm::Error err = checkStageFileBytes(path, (*buffer)->getBuffer()))
    return std::move(err);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  std::string errors;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &diag) {
    if (diag.getSeverity() == mlir::DiagnosticSeverity::Error)
      errors += (errors.empty() ? "" : "; ") + diag.str();
    return mlir::success();
  });
  // Not verified here: the engine verifies each kernel it compiles
  // (StageRunner.cpp), and the kernels it takes from the store are never
  // worked on. Verifying the whole file cost a target step of a 16-kernel
  // file an eighth of its time.
  mlir::ParserConfig config(&context, /*verifyAfterParse=*/false);
  auto module = mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, config);
  if (!module)
    return fileError(path, "not a valid stage file" +
                               (errors.empty() ? "" : ": " + errors));
  return std::move(module);
}

std::string accy::stageFilePath(llvm::StringRef dir, llvm::StringRef name,
                                llvm::StringRef stage) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, name + "." + stage + ".mlirbc");
  return std::string(path);
}
