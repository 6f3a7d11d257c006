//===- KernelStoreTests.cpp - Kernel products on disk ---------------------===//

#include <catch2/catch.hpp>

#include "PipelineTestUtil.h"

#include "accy/Pipeline/Hashing.h"
#include "accy/Pipeline/KernelStore.h"
#include "accy/Pipeline/Product.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace accy;
using namespace accy::test;
namespace fs = llvm::sys::fs;

namespace {
/// A fresh store directory, removed afterwards.
struct TemporaryStore {
  TemporaryStore() {
    llvm::SmallString<128> dir;
    REQUIRE(!fs::createUniqueDirectory("accy-store-test", dir));
    config.directory = std::string(dir);
  }
  ~TemporaryStore() { fs::remove_directories(config.directory); }
  KernelStoreConfig config;
};

const char *kSource = R"(
kernel scale(x: f32[N, D], s: f32[D]) -> f32[N, D] {
  return x * s + 1.0;
}
kernel rowmax(x: f32[N, D]) -> f32[N] {
  return max(x, axis=1);
}
)";

/// The kernel-stage products of kSource, by kernel.
struct Compiled {
  Compiled() : context(makeContext()) {
    llvm::SmallString<128> file;
    REQUIRE(!fs::createTemporaryFile("accy-store-test", "accy", file));
    {
      std::error_code ec;
      llvm::raw_fd_ostream os(file, ec);
      os << kSource;
    }
    Compiler compiler(*context, defaultOptions(StageId::Kernel));
    compilation = compiler.compileFile(std::string(file));
    fs::remove(file);
    REQUIRE(compilation.succeeded());
    for (mlir::ModuleOp kernel :
         kernelModules(compilation.product(StageId::Kernel)))
      kernels.push_back(
          std::make_shared<const KernelProduct>(kernel.clone()));
  }
  std::unique_ptr<mlir::MLIRContext> context;
  Compilation compilation;
  std::vector<SharedKernel> kernels;
};

std::string keyOf(const SharedKernel &kernel) { return kernelKey(kernel->module.get()).str(); }

std::vector<std::string> entryFiles(const KernelStoreConfig &config) {
  std::vector<std::string> files;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(config.directory, ec), end;
       it != end && !ec; it.increment(ec))
    if (fs::is_regular_file(it->path()) &&
        llvm::StringRef(it->path()).contains("/kernel/"))
      files.push_back(it->path());
  return files;
}
} // namespace

TEST_CASE("a stored kernel comes back as it was, under its own key only",
          "[kernel-store]") {
  TemporaryStore dir;
  Compiled compiled;
  const SharedKernel &kernel = compiled.kernels.front();
  std::string key = keyOf(kernel);
  {
    KernelStore store(dir.config);
    CHECK(!store.load(StageId::Kernel, key, *compiled.context));
    store.save(StageId::Kernel, key, *kernel, 0x1234);
    CHECK(!store.takeWarning());
  }
  KernelStore store(dir.config);
  auto loaded = store.load(StageId::Kernel, key, *compiled.context);
  REQUIRE(loaded);
  CHECK(loaded->fingerprint == 0x1234);
  CHECK(loaded->kernel->contentHash == kernel->contentHash);
  CHECK(productBytes(loaded->kernel->module.get()) ==
        productBytes(kernel->module.get()));
  // Another stage, or another key, is a miss.
  CHECK(!store.load(StageId::Target, key, *compiled.context));
  CHECK(!store.load(StageId::Kernel, keyOf(compiled.kernels.back()),
                    *compiled.context));
  KernelStoreCounters::PerStage counts =
      store.counters().stages[stageIndex(StageId::Kernel)];
  CHECK(counts.hits == 1);
  CHECK(counts.misses == 1);
}

TEST_CASE("an entry that does not check is removed, never served",
          "[kernel-store]") {
  TemporaryStore dir;
  Compiled compiled;
  const SharedKernel &kernel = compiled.kernels.front();
  std::string key = keyOf(kernel);

  auto damageAndLoad = [&](llvm::function_ref<std::string(std::string)> damage) {
    {
      KernelStore store(dir.config);
      store.save(StageId::Kernel, key, *kernel, 1);
    }
    std::vector<std::string> files = entryFiles(dir.config);
    REQUIRE(files.size() == 1);
    auto bytes = llvm::MemoryBuffer::getFile(files[0]);
    REQUIRE(bytes);
    std::string damaged = damage((*bytes)->getBuffer().str());
    {
      std::error_code ec;
      llvm::raw_fd_ostream os(files[0], ec);
      os << damaged;
    }
    KernelStore store(dir.config);
    bool served = store.load(StageId::Kernel, key, *compiled.context).has_value();
    CHECK(store.counters().stages[stageIndex(StageId::Kernel)].corrupt == 1);
    CHECK(!fs::exists(files[0]));
    return served;
  };
  SECTION("truncated") {
    CHECK(!damageAndLoad([](std::string b) { return b.substr(0, b.size() / 2); }));
  }
  SECTION("a byte of the product flipped") {
    CHECK(!damageAndLoad([](std::string b) {
      b.back() ^= 1;
      return b;
    }));
  }
  SECTION("another kernel's entry under this key") {
    std::string other = keyOf(compiled.kernels.back());
    CHECK(!damageAndLoad([&](std::string b) {
      size_t at = b.find(key);
      return b.replace(at, key.size(), other);
    }));
  }
  SECTION("another schema") {
    CHECK(!damageAndLoad([](std::string b) {
      return b.replace(b.find(" 1 "), 3, " 2 ");
    }));
  }
  SECTION("empty") {
    CHECK(!damageAndLoad([](std::string) { return std::string(); }));
  }
}

TEST_CASE("a store that cannot be written warns once and keeps compiling",
          "[kernel-store]") {
  TemporaryStore dir;
  Compiled compiled;
  // A regular file where the store's directory would be.
  llvm::SmallString<128> blocked(dir.config.directory);
  llvm::sys::path::append(blocked, "file");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(blocked, ec);
  }
  KernelStoreConfig config = dir.config;
  llvm::sys::path::append(blocked, "store");
  config.directory = std::string(blocked);
  KernelStore store(config);
  for (const SharedKernel &kernel : compiled.kernels)
    store.save(StageId::Kernel, keyOf(kernel), *kernel, 0);
  std::optional<std::string> warning = store.takeWarning();
  REQUIRE(warning);
  CHECK(llvm::StringRef(*warning).contains("is not written to"));
  CHECK(!store.takeWarning());
  CHECK(store.counters().stages[stageIndex(StageId::Kernel)].writes == 0);
}

TEST_CASE("trimming removes the least recently used entries first",
          "[kernel-store]") {
  TemporaryStore dir;
  Compiled compiled;
  REQUIRE(compiled.kernels.size() == 2);
  {
    KernelStore store(dir.config);
    for (const SharedKernel &kernel : compiled.kernels)
      store.save(StageId::Kernel, keyOf(kernel), *kernel, 0);
  }
  std::vector<std::string> files = entryFiles(dir.config);
  REQUIRE(files.size() == 2);
  // The first kernel's entry is older than the second's.
  std::string older =
      llvm::StringRef(files[0]).ends_with(keyOf(compiled.kernels[0]))
          ? files[0]
          : files[1];
  int fd;
  REQUIRE(!fs::openFileForWrite(older, fd, fs::CD_OpenExisting, fs::OF_Append));
  REQUIRE(!fs::setLastAccessAndModificationTime(
      fd, std::chrono::system_clock::now() - std::chrono::hours(2)));
  llvm::sys::Process::SafelyCloseFileDescriptor(fd);

  uint64_t sizes = 0;
  for (const std::string &file : files) {
    uint64_t size;
    REQUIRE(!fs::file_size(file, size));
    sizes += size;
  }
  KernelStoreConfig config = dir.config;
  config.limitBytes = sizes - 1;
  auto removed = KernelStore::trim(config);
  REQUIRE(static_cast<bool>(removed));
  CHECK(*removed > 0);
  CHECK(!fs::exists(older));
  CHECK(entryFiles(dir.config).size() == 1);
}

TEST_CASE("a process whose writes take the store past its limit trims it",
          "[kernel-store]") {
  TemporaryStore dir;
  Compiled compiled;
  REQUIRE(compiled.kernels.size() == 2);
  uint64_t entrySize;
  {
    KernelStore store(dir.config);
    store.save(StageId::Kernel, keyOf(compiled.kernels[0]),
               *compiled.kernels[0], 0);
  }
  REQUIRE(!fs::file_size(entryFiles(dir.config).front(), entrySize));
  std::string first = entryFiles(dir.config).front();
  // Room for less than both entries: the second write passes the limit, and
  // the first (least recently used) entry goes.
  KernelStoreConfig config = dir.config;
  {
    KernelStore store(dir.config);
    store.save(StageId::Kernel, keyOf(compiled.kernels[1]),
               *compiled.kernels[1], 0);
    uint64_t secondSize;
    std::vector<std::string> files = entryFiles(dir.config);
    REQUIRE(files.size() == 2);
    std::string second = files[0] == first ? files[1] : files[0];
    REQUIRE(!fs::file_size(second, secondSize));
    config.limitBytes = entrySize + secondSize - 1;
    fs::remove(second);
  }
  {
    KernelStore store(config);
    store.save(StageId::Kernel, keyOf(compiled.kernels[1]),
               *compiled.kernels[1], 0);
    CHECK(entryFiles(dir.config).size() == 2);
  }
  std::vector<std::string> left = entryFiles(dir.config);
  REQUIRE(left.size() == 1);
  CHECK(left.front() != first);
  // Under the limit, a process that writes walks nothing and removes
  // nothing.
  config.limitBytes = entrySize * 10;
  {
    KernelStore store(config);
    store.save(StageId::Kernel, keyOf(compiled.kernels[0]),
               *compiled.kernels[0], 0);
    store.save(StageId::Kernel, keyOf(compiled.kernels[1]),
               *compiled.kernels[1], 0);
  }
  CHECK(entryFiles(dir.config).size() == 2);
}

TEST_CASE("store sizes and the environment", "[kernel-store]") {
  auto size = [](llvm::StringRef text) -> int64_t {
    auto parsed = parseStoreSize(text);
    if (!parsed) {
      llvm::consumeError(parsed.takeError());
      return -1;
    }
    return *parsed;
  };
  CHECK(size("2G") == (int64_t(2) << 30));
  CHECK(size("500M") == 500 * (int64_t(1) << 20));
  CHECK(size("64k") == 64 * 1024);
  CHECK(size("65536") == 65536);
  CHECK(size("") == -1);
  CHECK(size("0") == -1);
  CHECK(size("lots") == -1);
  CHECK(size("-1G") == -1);

  ::setenv("ACCY_CACHE_DIR", "/tmp/accy-store-env", 1);
  ::setenv("ACCY_CACHE_SIZE", "1M", 1);
  ::unsetenv("ACCY_CACHE_DISABLE");
  auto config = KernelStoreConfig::fromEnvironment();
  REQUIRE(static_cast<bool>(config));
  REQUIRE(*config);
  CHECK((*config)->directory == "/tmp/accy-store-env");
  CHECK((*config)->limitBytes == (1u << 20));
  ::unsetenv("ACCY_CACHE_DIR");
  ::unsetenv("ACCY_CACHE_SIZE");
  ::setenv("XDG_CACHE_HOME", "/tmp/xdg", 1);
  config = KernelStoreConfig::fromEnvironment();
  REQUIRE(static_cast<bool>(config));
  REQUIRE(*config);
  CHECK((*config)->directory == "/tmp/xdg/accy");
  CHECK((*config)->limitBytes == KernelStoreConfig::kDefaultLimitBytes);
  ::setenv("ACCY_CACHE_DISABLE", "1", 1);
  config = KernelStoreConfig::fromEnvironment();
  REQUIRE(static_cast<bool>(config));
  CHECK(!*config);
  ::unsetenv("ACCY_CACHE_DISABLE");
  ::unsetenv("XDG_CACHE_HOME");
}
