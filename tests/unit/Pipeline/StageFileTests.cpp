//===- StageFileTests.cpp - Stage files on disk ---------------------------===//

#include <catch2/catch.hpp>

#include "PipelineTestUtil.h"

#include "accy/Dialect/Choir/IR/ChoirAttrs.h"
#include "accy/Pipeline/Hashing.h"
#include "accy/Pipeline/Product.h"
#include "accy/Pipeline/StageFile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

using namespace accy;
using namespace accy::test;

namespace {
struct TempDir {
  TempDir() { llvm::sys::fs::createUniqueDirectory("accy-stagefile", path); }
  ~TempDir() { llvm::sys::fs::remove_directories(path); }
  std::string file(llvm::StringRef name) const {
    llvm::SmallString<256> p(path);
    llvm::sys::path::append(p, name);
    return std::string(p);
  }
  llvm::SmallString<256> path;
};

bool written(llvm::Expected<bool> result) {
  return succeeded(result.takeError());
}

llvm::sys::TimePoint<> mtime(const std::string &path) {
  llvm::sys::fs::file_status status;
  llvm::sys::fs::status(path, status);
  return status.getLastModificationTime();
}
} // namespace

TEST_CASE("a file is written only when its bytes change", "[stagefile]") {
  TempDir dir;
  std::string path = dir.file("a.contract.mlirbc");
  auto first = writeFileIfChanged(path, "bytes");
  REQUIRE(static_cast<bool>(first));
  CHECK(*first);
  auto before = mtime(path);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  auto same = writeFileIfChanged(path, "bytes");
  REQUIRE(static_cast<bool>(same));
  CHECK_FALSE(*same);
  CHECK(mtime(path) == before);
  auto changed = writeFileIfChanged(path, "other bytes");
  REQUIRE(static_cast<bool>(changed));
  CHECK(*changed);
  CHECK((*llvm::MemoryBuffer::getFile(path))->getBuffer() == "other bytes");
  // No temporary file is left behind.
  std::error_code ec;
  int entries = 0;
  for (llvm::sys::fs::directory_iterator it(dir.path, ec), end; it != end && !ec;
       it.increment(ec))
    ++entries;
  CHECK(entries == 1);
}

TEST_CASE("an unwritable location is an error value", "[stagefile]") {
  auto result = writeFileIfChanged("/proc/accy-cannot-write/x.mlirbc", "b");
  REQUIRE_FALSE(static_cast<bool>(result));
  CHECK(llvm::toString(result.takeError()).find("/proc/accy-cannot-write") !=
        std::string::npos);
}

/// One kernel compiled as far as `compiler` goes.
static Compilation compileOneKernel(Compiler &compiler) {
  Compilation c = compiler.compileBuffer(
      "/virtual/k.accy", "kernel k(x: f32[N]) -> f32[N] { return x + 1.0; }");
  REQUIRE(c.succeeded());
  return c;
}

TEST_CASE("corrupt and truncated stage files give errors", "[stagefile]") {
  TempDir dir;
  auto context = makeContext();
  Compiler compiler(*context, defaultOptions(StageId::Contract));
  Compilation c = compileOneKernel(compiler);
  std::string bytes = stageFileBytes(c.product(StageId::Contract));

  std::string good = dir.file("good.contract.mlirbc");
  REQUIRE(written(writeFileIfChanged(good, bytes)));
  auto read = readProductFile(*context, good);
  REQUIRE(static_cast<bool>(read));
  CHECK(succeeded(verifyProduct(**read, StageId::Contract)));
  llvm::Error wrongStage = verifyProduct(**read, StageId::Tensor);
  CHECK(static_cast<bool>(wrongStage));
  llvm::consumeError(std::move(wrongStage));

  for (size_t cut : {size_t(0), size_t(7), bytes.size() / 2, bytes.size() - 1}) {
    CAPTURE(cut);
    std::string truncated = dir.file("cut.mlirbc");
    REQUIRE(written(writeFileIfChanged(truncated, bytes.substr(0, cut))));
    auto bad = readProductFile(*context, truncated);
    CHECK_FALSE(static_cast<bool>(bad));
    if (!bad)
      CHECK(llvm::toString(bad.takeError()).find("cut.mlirbc") !=
            std::string::npos);
  }
  std::string garbage = dir.file("garbage.mlirbc");
  std::string noise(4096, '\0');
  for (size_t i = 0; i < noise.size(); ++i)
    noise[i] = static_cast<char>((i * 2654435761u) >> 13);
  REQUIRE(written(writeFileIfChanged(garbage, noise)));
  auto bad = readProductFile(*context, garbage);
  CHECK_FALSE(static_cast<bool>(bad));
  if (!bad)
    llvm::consumeError(bad.takeError());
}

// Found by the stage-file fuzzer (fuzz/FuzzStageFile.cpp): MLIR's readers
// trust what they read (nesting depth, counts, operand lists) and crashed on
// these; they never reach them now, since only bytecode whose checksum
// matches is parsed.
TEST_CASE("deeply nested, self-referring and over-counting stage files give "
          "errors, not a stack overflow or a huge allocation",
          "[stagefile]") {
  TempDir dir;
  auto context = makeContext();
  // Writes `bytes` to `path` and reads it back: which of the two refusals
  // for what accyc did not write the reader gave, or its whole message.
  auto refusal = [&](const std::string &path, llvm::StringRef bytes) {
    REQUIRE(written(writeFileIfChanged(path, bytes)));
    auto read = readProductFile(*context, path);
    REQUIRE_FALSE(static_cast<bool>(read));
    std::string message = llvm::toString(read.takeError());
    for (const char *reason : {"accyc did not write", "not a stage file"})
      if (message.find(reason) != std::string::npos)
        return std::string(reason);
    return message;
  };
  auto bytesOf = [](const auto &array) {
    return llvm::StringRef(reinterpret_cast<const char *>(array),
                           sizeof(array));
  };

  // Bytecode (an unchecked, older producer) whose attribute's encoding
  // refers to itself.
  static const unsigned char selfReferring[] = {
    0x4d, 0x4c, 0xef, 0x52, 0x05, 0x61, 0x63, 0x13, 0x13, 0x13, 0x13, 0x13,
    0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13,
    0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13,
    0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13,
    0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13,
    0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13,
    0x63, 0x79, 0x18, 0x78, 0x78, 0x68, 0x33, 0x3a, 0x34, 0x36, 0x64, 0x38,
    0x38, 0x37, 0x38, 0x31, 0x38, 0x23, 0x61, 0x63, 0x35, 0x32, 0x35, 0x32,
    0x37, 0x38, 0x36, 0x65, 0x39, 0x33, 0x64, 0x38, 0x61, 0x00, 0x01, 0x0b,
    0x03, 0x01, 0x01, 0x03, 0x03, 0x03, 0x1b, 0x0d, 0x03, 0x01, 0x0d, 0x1b,
    0x0b, 0x0f, 0x0b, 0x0b, 0x07, 0x01, 0x03, 0x0f, 0x02, 0x27, 0x03, 0x05,
    0x03, 0x01, 0x07, 0x09, 0x05, 0x05, 0x11, 0x01, 0x05, 0x05, 0x07, 0x05,
    0x09, 0x1f, 0x01, 0x02, 0x04, 0x04, 0x17, 0x05, 0x01, 0x11, 0x0b, 0x01,
    0x07, 0x04, 0x07, 0x03, 0x01, 0x01, 0x06, 0x03, 0x01, 0x05, 0x01, 0x00,
    0x6b, 0x0b, 0x13, 0x17, 0x19, 0x0f, 0x11, 0x62, 0x75, 0x69, 0x6c, 0x74,
    0x69, 0x6e, 0x00, 0x6d, 0x6f, 0x64, 0x75, 0x6c, 0x65, 0x00, 0x61, 0x63,
    0x63, 0x79, 0x2e, 0x73, 0x63, 0x68, 0x65, 0x6d, 0x61, 0x00, 0x61, 0x63,
    0x63, 0x79, 0x2e, 0x73, 0x74, 0x61, 0x67, 0x65, 0x00, 0x64, 0x69, 0x73,
    0x70, 0x61, 0x74, 0x63, 0x68, 0x00,
  };
  // Bytecode without accyc's checksum never reaches MLIR's reader.
  CHECK(refusal(dir.file("self.dispatch.mlirbc"), bytesOf(selfReferring)) ==
        "accyc did not write");

  // Text nesting 100,000 brackets deep: MLIR text is not a stage file.
  std::string text = "module attributes {accy.a = " + std::string(100000, '[') +
                     std::string(100000, ']') + "} {}\n";
  CHECK(refusal(dir.file("deep.mlir"), text) == "not a stage file");

  // Bytecode whose string section counts billions of strings in a few
  // bytes: MLIR's reader would allocate (and zero) 32 GB for the table.
  static const unsigned char hugeCount[] = {
      0x4d, 0x4c, 0xef, 0x52, 0x05, 0x61, 0x63, 0x63, 0x49, 0x49, 0x49, 0x49,
      0x49, 0x49, 0x49, 0x49, 0x49, 0x49, 0x49, 0x49, 0x49, 0x49, 0x49, 0x49,
      0x49, 0x49, 0x49, 0x49, 0x49, 0x49, 0x49, 0x49, 0x49, 0x49, 0x49, 0x49,
      0x49, 0x49, 0x49, 0x49, 0x49, 0x49, 0x49, 0x49, 0x49, 0x49, 0x49, 0x49,
      0x49, 0x49, 0x79, 0x20, 0x78, 0x78, 0x68, 0x33, 0x3a, 0x64, 0x63, 0x61,
      0x63, 0x30, 0x66, 0x66, 0x62, 0x35, 0x66, 0x62, 0x36, 0x33, 0x36, 0x66,
      0x36, 0x36, 0x64, 0x64, 0x33, 0x35, 0x30, 0x32, 0x34, 0x63, 0x34, 0x35,
      0x38, 0x39, 0x35, 0x63, 0x34, 0x00, 0x01, 0x0b, 0x03, 0x01, 0x01, 0x03,
      0x03, 0x03, 0x1b, 0x0d, 0x03, 0x01, 0x0d, 0x1b, 0x0b, 0x0f, 0x0b, 0x0b,
      0x07, 0x01, 0x03, 0x0f, 0x02, 0x27, 0x03, 0x05, 0x03, 0x05, 0x07, 0x09,
      0x05, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x96, 0x01, 0x02,
      0x04, 0x04, 0x17, 0x05, 0x01, 0x11, 0x0b, 0x01, 0x07, 0x04, 0x07, 0x03,
      0x01, 0x01, 0x06, 0x03, 0x01, 0x05, 0x01, 0x00, 0x67, 0x10, 0x0f, 0x17,
      0x19, 0x0f, 0x11, 0x62, 0x75, 0x69, 0x6c, 0x74, 0x69, 0x6e, 0x00, 0x6d,
      0x6f, 0x64, 0x75, 0x6c, 0x65, 0x00, 0x61, 0x63, 0x63, 0x79, 0x2e, 0x73,
      0x63, 0x68, 0x65, 0x6d, 0x61, 0x00, 0x61, 0x63, 0x63, 0x79, 0x2e, 0x73,
      0x74, 0x11, 0x0b, 0x01, 0x07, 0x6d, 0x65, 0x6d, 0x6f, 0x72, 0x79, 0x00,
  };
  CHECK(refusal(dir.file("count.memory.mlirbc"), bytesOf(hugeCount)) ==
        "accyc did not write");

}

TEST_CASE("a stage file carries a checksum that catches any changed byte",
          "[stagefile]") {
  TempDir dir;
  auto context = makeContext();
  Compiler compiler(*context, defaultOptions(StageId::Contract));
  Compilation c = compileOneKernel(compiler);
  mlir::ModuleOp product = c.product(StageId::Contract);
  std::string bytes = stageFileBytes(product);
  CHECK(bytes == stageFileBytes(product));
  CHECK(llvm::StringRef(bytes).contains("accy xxh3:"));

  std::string path = dir.file("k.contract.mlirbc");
  REQUIRE(written(writeFileIfChanged(path, bytes)));
  auto read = readProductFile(*context, path);
  REQUIRE(static_cast<bool>(read));
  // What was read is what was written.
  CHECK(productBytes(**read) == productBytes(product));

  // One flipped bit anywhere after the magic number: a CorruptStageFileError
  // naming the file (a flip in the magic number makes it no bytecode at
  // all, which the parser rejects).
  for (size_t i = 4; i < bytes.size(); ++i) {
    CAPTURE(i);
    std::string flipped = bytes;
    flipped[i] ^= 0x10;
    REQUIRE(written(writeFileIfChanged(path, flipped)));
    auto bad = readProductFile(*context, path);
    REQUIRE_FALSE(static_cast<bool>(bad));
    bool corrupt = false;
    llvm::handleAllErrors(
        bad.takeError(),
        [&](const CorruptStageFileError &error) {
          corrupt = true;
          CHECK(error.path == path);
        },
        [](const llvm::ErrorInfoBase &) {});
    CHECK(corrupt);
  }

  // An empty file is corrupt too. Bytecode without a checksum (older accyc,
  // other MLIR tools) and MLIR text are refused, but not as corrupt stage
  // files (which accyc would delete).
  REQUIRE(written(writeFileIfChanged(path, "")));
  auto empty = readProductFile(*context, path);
  REQUIRE_FALSE(static_cast<bool>(empty));
  CHECK_FALSE(llvm::errorToBool(llvm::handleErrors(
      empty.takeError(), [](const CorruptStageFileError &) {})));
  REQUIRE(written(writeFileIfChanged(path, productBytes(product))));
  auto legacy = readProductFile(*context, path);
  REQUIRE_FALSE(static_cast<bool>(legacy));
  std::string message;
  llvm::handleAllErrors(
      legacy.takeError(),
      [&](const CorruptStageFileError &) { message = "corrupt"; },
      [&](const llvm::ErrorInfoBase &error) { message = error.message(); });
  CHECK_THAT(message, Catch::Contains("MLIR bytecode that accyc did not write"));
  std::string text;
  llvm::raw_string_ostream os(text);
  product->print(os);
  REQUIRE(written(writeFileIfChanged(path, text)));
  auto asText = readProductFile(*context, path);
  REQUIRE_FALSE(static_cast<bool>(asText));
  llvm::handleAllErrors(
      asText.takeError(),
      [&](const CorruptStageFileError &) { message = "corrupt"; },
      [&](const llvm::ErrorInfoBase &error) { message = error.message(); });
  CHECK_THAT(message, Catch::Contains("not a stage file"));
}

TEST_CASE("writers of one file at once never see each other's temporary",
          "[stagefile]") {
  TempDir dir;
  std::string path = dir.file("k.host.o");
  std::vector<std::string> contents;
  for (int t = 0; t < 8; ++t)
    contents.push_back(std::string(64 * 1024, static_cast<char>('a' + t)));
  std::vector<std::thread> writers;
  std::atomic<int> failures{0};
  for (int t = 0; t < 8; ++t)
    writers.emplace_back([&, t] {
      for (int round = 0; round < 20; ++round)
        if (!written(writeFileIfChanged(path, contents[(t + round) % 8])))
          ++failures;
    });
  for (std::thread &writer : writers)
    writer.join();
  CHECK(failures == 0);
  // The file is one writer's whole content, and no temporary is left.
  std::string final = (*llvm::MemoryBuffer::getFile(path))->getBuffer().str();
  CHECK(std::count(contents.begin(), contents.end(), final) == 1);
  std::error_code ec;
  int entries = 0;
  for (llvm::sys::fs::directory_iterator it(dir.path, ec), end; it != end && !ec;
       it.increment(ec))
    ++entries;
  CHECK(entries == 1);
}

TEST_CASE("a stage file read unverified: its kernel is verified before a "
          "pass runs on it",
          "[stagefile]") {
  TempDir dir;
  auto context = makeContext();
  Compiler compiler(*context, defaultOptions(StageId::Contract));
  Compilation c = compileOneKernel(compiler);
  // IR its verifier rejects, in a file with a valid checksum: as a
  // compiler bug or another accyc build could leave it.
  mlir::ModuleOp product = c.product(StageId::Contract);
  auto kernels = kernelModules(product);
  REQUIRE(kernels.size() == 1);
  auto builder = mlir::OpBuilder::atBlockBegin(kernels.front().getBody());
  builder.create<mlir::UnrealizedConversionCastOp>(
      kernels.front().getLoc(), mlir::TypeRange(), mlir::ValueRange());
  std::string path = dir.file("k.contract.mlirbc");
  REQUIRE(written(writeFileIfChanged(path, stageFileBytes(product))));

  auto read = readProductFile(*context, path);
  REQUIRE(static_cast<bool>(read));
  Compiler next(*context, defaultOptions(StageId::Tensor));
  Compilation resumed =
      next.compileFrom(std::move(*read), StageId::Contract, SourceMap());
  CHECK_FALSE(resumed.succeeded());
  std::vector<FailureRecord> failures = resumed.failures();
  REQUIRE(failures.size() == 1);
  CHECK(failures.front().kind == FailureKind::Verifier);
  CHECK(failures.front().pass.empty()); // before the stage's first pass
  CHECK(failures.front().op == "builtin.unrealized_conversion_cast");
}

TEST_CASE("choir attributes survive bytecode into another context",
          "[stagefile]") {
  // The kernel stage's product carries the memory plan, the dispatch plans
  // and the kernel summary, choir attributes the dialect writes as their
  // text (ChoirBytecode.cpp) and reads back by parsing it.
  TempDir dir;
  auto context = makeContext();
  Compiler compiler(*context, defaultOptions(StageId::Kernel));
  Compilation c = compiler.compileBuffer(
      "/virtual/k.accy",
      "kernel k(x: f32[N, D]) -> f32[N, D] { return softmax(x, axis=1); }");
  REQUIRE(c.succeeded());
  mlir::ModuleOp product = c.product(StageId::Kernel);
  mlir::ModuleOp kernel = kernelModules(product).front();
  REQUIRE(kernel->hasAttr(choir::kMemoryPlanAttrName));
  REQUIRE(kernel->hasAttr(choir::kKernelSummaryAttrName));
  std::string bytes = stageFileBytes(product);
  std::string path = dir.file("k.kernel.mlirbc");
  REQUIRE(written(writeFileIfChanged(path, bytes)));

  // A fresh context has printed none of them: it parses every one.
  auto other = makeContext();
  auto read = readProductFile(*other, path);
  REQUIRE(static_cast<bool>(read));
  mlir::ModuleOp readKernel = kernelModules(**read).front();
  for (llvm::StringRef name :
       {choir::kMemoryPlanAttrName, choir::kKernelSummaryAttrName}) {
    CAPTURE(name);
    std::string written, parsed;
    llvm::raw_string_ostream(written) << kernel->getAttr(name);
    llvm::raw_string_ostream(parsed) << readKernel->getAttr(name);
    CHECK(parsed == written);
  }
  CHECK(stageFileBytes(**read) == bytes);
}
