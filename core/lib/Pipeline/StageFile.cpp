//===- StageFile.cpp - Stage files on disk --------------------------------===//

#include "accy/Pipeline/StageFile.h"

#include "accy/Pipeline/Hashing.h"

#include "mlir/Bytecode/BytecodeReaderConfig.h"
#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/bit.h"
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

/// Checks the checksum of a stage file's bytes, when it has one.
static llvm::Error checkStageFileBytes(llvm::StringRef path,
                                       llvm::StringRef bytes) {
  auto corrupt = [&](const llvm::Twine &why) {
    return llvm::make_error<CorruptStageFileError>(path.str(), why.str());
  };
  if (bytes.empty())
    return corrupt("the file is empty");
  auto range = producerRange(bytes);
  if (!range)
    return llvm::Error::success(); // not bytecode; the parser decides
  llvm::StringRef producer = bytes.slice(range->first, range->second);
  // Older accyc wrote "accy", other MLIR tools "MLIR<version>". MLIR's
  // bytecode reader trusts the counts inside the encoding and crashes on
  // damaged ones (found by fuzzing), so bytecode is read only once its
  // checksum has vouched for it; MLIR text has no such trap. Not a corrupt
  // stage file: nothing says accyc wrote it, so nothing deletes it. A
  // producer of a checksum's length is taken as one whose prefix is
  // damaged.
  if (!producer.starts_with(kChecksumPrefix) &&
      producer.size() != kChecksumPrefix.size() + kChecksumDigits)
    return fileError(path, "MLIR bytecode that accyc did not write (no "
                           "checksum): run the stage again, or give the "
                           "product as MLIR text");
  llvm::StringRef digits = producer.drop_front(kChecksumPrefix.size());
  if (!producer.starts_with(kChecksumPrefix) ||
      digits.size() != kChecksumDigits)
    return corrupt("its header is damaged");
  if (checksumOf(bytes, range->first + kChecksumPrefix.size()) != digits)
    return corrupt("its bytes do not match its checksum (it was changed or "
                   "damaged after accyc wrote it)");
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Nesting
//===----------------------------------------------------------------------===//
//
// MLIR's parsers recurse once per level of nested attributes and types (and
// the text parser once per nested region), without a bound: a text file
// nesting `[[[...` a hundred thousand deep, or bytecode whose attribute
// refers to itself, overflows the stack. Stage files nest a few dozen levels
// at most, so the reader refuses to go much deeper.

/// Deeper bracket nesting than this in a text stage file is refused.
static constexpr unsigned kMaxTextNesting = 256;
/// Stack the bytecode reader may use below readProductFile's frame.
static constexpr std::uintptr_t kMaxReaderStack = 1u << 20;

/// The deepest nesting of ( [ { < in MLIR text, outside string literals and
/// comments (the `>` of `->` closes nothing).
static unsigned textNesting(llvm::StringRef text) {
  unsigned depth = 0, deepest = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    switch (text[i]) {
    case '"':
      for (++i; i < e && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      break;
    case '/':
      if (i + 1 < e && text[i + 1] == '/')
        while (i < e && text[i] != '\n')
          ++i;
      break;
    case '(':
    case '[':
    case '{':
    case '<':
      deepest = std::max(deepest, ++depth);
      break;
    case '>':
      if (i > 0 && text[i - 1] == '-')
        break;
      [[fallthrough]];
    case ')':
    case ']':
    case '}':
      if (depth)
        --depth;
      break;
    default:
      break;
    }
  }
  return deepest;
}

/// MLIR's bytecode reader sizes its tables from counts in the file before
/// reading their entries (LLVM 19: `strings.resize(numStrings)` and the
/// like), so a damaged count makes it allocate, and zero, gigabytes. Each
/// entry takes at least one byte of its section: a section that counts more
/// entries than it has bytes is damaged. This walks the top-level sections
/// and checks the counts they start with; anything it cannot follow is left
/// to the reader. Returns why the file is damaged, or nothing.
static std::optional<std::string> implausibleCounts(llvm::StringRef bytes) {
  size_t at = 0;
  auto varint = [&](llvm::StringRef data, size_t &pos,
                    uint64_t &value) -> bool {
    if (pos >= data.size())
      return false;
    auto first = static_cast<uint8_t>(data[pos]);
    size_t extra = (first & 1) ? 0 : first == 0 ? 8 : llvm::countr_zero(first);
    if (pos + 1 + extra > data.size())
      return false;
    uint64_t v = 0;
    for (size_t i = extra; i > 0; --i)
      v = (v << 8) | static_cast<uint8_t>(data[pos + i]);
    v = first == 0 ? v : (v << 8 | first) >> (extra + 1);
    value = v;
    pos += 1 + extra;
    return true;
  };
  auto range = producerRange(bytes);
  if (!range)
    return std::nullopt;
  at = range->second + 1;
  while (at < bytes.size()) {
    auto idAndAlign = static_cast<uint8_t>(bytes[at++]);
    uint64_t length, alignment;
    if (!varint(bytes, at, length))
      return std::nullopt;
    if ((idAndAlign & 0x80) && !varint(bytes, at, alignment))
      return std::nullopt;
    while ((idAndAlign & 0x80) && at < bytes.size() &&
           static_cast<uint8_t>(bytes[at]) == 0xCB)
      ++at;
    if (length > bytes.size() - at)
      return std::nullopt; // the reader reports the short section
    llvm::StringRef section = bytes.substr(at, length);
    at += length;
    unsigned id = idAndAlign & 0x7f;
    // String (0), dialect (1) and properties (8) sections start with their
    // number of entries; the attribute/type offset section (3) with the
    // numbers of attributes and of types.
    unsigned counts = id == 0 || id == 1 || id == 8 ? 1 : id == 3 ? 2 : 0;
    size_t pos = 0;
    uint64_t total = 0;
    for (unsigned i = 0; i < counts; ++i) {
      uint64_t n;
      if (!varint(section, pos, n))
        return std::nullopt;
      total += std::min<uint64_t>(n, section.size() + 1);
    }
    if (total > section.size())
      return "section " + std::to_string(id) + " counts " +
             std::to_string(total) + " entries in " +
             std::to_string(section.size()) + " bytes";
  }
  return std::nullopt;
}

static std::uintptr_t frameAddress() {
  return reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
}

llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
accy::readProductFile(mlir::MLIRContext &context, llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buffer)
    return fileError(path, "cannot read: " + buffer.getError().message());
  if (llvm::Error err = checkStageFileBytes(path, (*buffer)->getBuffer()))
    return std::move(err);
  bool isBytecode = (*buffer)->getBuffer().starts_with(kBytecodeMagic);
  if (!isBytecode && textNesting((*buffer)->getBuffer()) > kMaxTextNesting)
    return llvm::make_error<CorruptStageFileError>(
        path.str(), "it nests deeper than " + std::to_string(kMaxTextNesting) +
                        " levels");
  if (isBytecode)
    if (auto why = implausibleCounts((*buffer)->getBuffer()))
      return llvm::make_error<CorruptStageFileError>(path.str(), *why);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  std::string errors;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &diag) {
    if (diag.getSeverity() == mlir::DiagnosticSeverity::Error)
      errors += (errors.empty() ? "" : "; ") + diag.str();
    return mlir::success();
  });
  mlir::ParserConfig config(&context);
  // Every attribute and type with a custom bytecode encoding passes these
  // callbacks before its dialect reads it; they read nothing, only stop a
  // reader that has recursed too deep.
  std::uintptr_t base = frameAddress();
  bool tooDeep = false;
  auto guard = [&]() {
    std::uintptr_t here = frameAddress();
    if (here < base && base - here > kMaxReaderStack)
      tooDeep = true;
    return mlir::failure(tooDeep);
  };
  config.getBytecodeReaderConfig().attachAttributeCallback(
      [guard](mlir::DialectBytecodeReader &, llvm::StringRef,
              mlir::Attribute &) { return guard(); });
  config.getBytecodeReaderConfig().attachTypeCallback(
      [guard](mlir::DialectBytecodeReader &, llvm::StringRef, mlir::Type &) {
        return guard();
      });
  auto module = mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, config);
  if (tooDeep)
    return llvm::make_error<CorruptStageFileError>(
        path.str(), "its attributes nest too deep (or refer to themselves)");
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
