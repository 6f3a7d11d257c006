//===- ProductCache.h - Reuse of kernel products by key ---------*- C++ -*-===//
#ifndef ACCY_PIPELINE_PRODUCTCACHE_H
#define ACCY_PIPELINE_PRODUCTCACHE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace accy {

/// A kernel product: a standalone kernel module (keys set) and the content
/// hash of its bytes (what the next stage's key hashes). Shared by the
/// product cache and by every compile that made or reused it, so a reuse
/// copies nothing; never changed once made, as its readers may be on other
/// threads.
struct KernelProduct {
  explicit KernelProduct(mlir::OwningOpRef<mlir::ModuleOp> module);
  /// A product whose content hash is known (read back with its hash, or
  /// made and `verified` by a stage run of this process).
  KernelProduct(mlir::OwningOpRef<mlir::ModuleOp> module,
                std::string contentHash, bool verified = false);
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::string contentHash;
  /// A stage run of this process verified the module after making it, so
  /// the next stage need not verify it again. Products read from stage
  /// files and store entries are not verified when read.
  bool verified = false;
};
using SharedKernel = std::shared_ptr<const KernelProduct>;

inline SharedKernel shareKernel(mlir::OwningOpRef<mlir::ModuleOp> module) {
  return std::make_shared<const KernelProduct>(std::move(module));
}

/// Kernel products by product key, for in-process reuse (accyc build, the
/// language server). A key names everything a product depends on, so a hit
/// is always valid; nothing else is consulted.
///
/// With each product it keeps what its key determines and a reuse would
/// otherwise recompute by serializing the product: its content hash and its
/// fingerprint. A file of 50 kernels edited in one then serializes one
/// kernel per stage, not 50.
///
/// Threads may use it at once: pipelined kernels (CompileOptions::
/// pipelineKernels) look up and store their products on their own threads.
class ProductCache {
public:
  /// The kernel product stored under `key`, or null.
  SharedKernel lookup(llvm::StringRef key) const;
  /// Stores `kernel`; `fingerprint` when the stage that made it has one.
  void store(llvm::StringRef key, SharedKernel kernel,
             std::optional<uint64_t> fingerprint = std::nullopt);
  /// The content hash of the kernel stored under `key`, or empty. A copy:
  /// another thread may store over the entry once the lock is released.
  std::string contentHash(llvm::StringRef key) const;
  /// The fingerprint recorded with the kernel stored under `key`.
  std::optional<uint64_t> fingerprint(llvm::StringRef key) const;
  size_t size() const;
  void clear();
  /// Forgets every product whose key is not in `keys`.
  void retainOnly(const llvm::StringSet<> &keys);

private:
  struct Entry {
    SharedKernel kernel;
    std::optional<uint64_t> fingerprint;
  };
  mutable std::mutex mutex;
  llvm::StringMap<Entry> entries;
};

} // namespace accy

#endif // ACCY_PIPELINE_PRODUCTCACHE_H
