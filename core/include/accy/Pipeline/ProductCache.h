//===- ProductCache.h - Reuse of kernel products by key ---------*- C++ -*-===//
#ifndef ACCY_PIPELINE_PRODUCTCACHE_H
#define ACCY_PIPELINE_PRODUCTCACHE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"

#include <cstdint>
#include <optional>
#include <string>

namespace accy {

/// Kernel products by product key, for in-process reuse (accyc build, the
/// language server). A key names everything a product depends on, so a hit
/// is always valid; nothing else is consulted.
///
/// With each product it keeps what its key determines and a reuse would
/// otherwise recompute by serializing the product: its content hash (what
/// the next stage's key hashes) and its fingerprint. A file of 50 kernels
/// edited in one then serializes one kernel per stage, not 50.
class ProductCache {
public:
  /// A copy of the kernel module stored under `key`, or null.
  mlir::OwningOpRef<mlir::ModuleOp> lookup(llvm::StringRef key) const;
  /// Stores a copy of `kernelModule` (a kernel of a product, keys set) and
  /// its content hash; `fingerprint` when the stage that made it has one.
  void store(llvm::StringRef key, mlir::ModuleOp kernelModule,
             std::optional<uint64_t> fingerprint = std::nullopt);
  /// The content hash of the kernel stored under `key`, or empty.
  llvm::StringRef contentHash(llvm::StringRef key) const;
  /// The fingerprint recorded with the kernel stored under `key`.
  std::optional<uint64_t> fingerprint(llvm::StringRef key) const;
  size_t size() const { return entries.size(); }
  void clear() { entries.clear(); }

private:
  struct Entry {
    mlir::OwningOpRef<mlir::ModuleOp> kernel;
    std::string contentHash;
    std::optional<uint64_t> fingerprint;
  };
  llvm::StringMap<Entry> entries;
};

} // namespace accy

#endif // ACCY_PIPELINE_PRODUCTCACHE_H
