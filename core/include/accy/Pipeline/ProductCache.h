//===- ProductCache.h - Reuse of kernel products by key ---------*- C++ -*-===//
#ifndef ACCY_PIPELINE_PRODUCTCACHE_H
#define ACCY_PIPELINE_PRODUCTCACHE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"

#include <cstdint>

namespace accy {

/// Kernel products by product key, for in-process reuse (accyc build, the
/// language server). A key names everything a product depends on, so a hit
/// is always valid; nothing else is consulted.
class ProductCache {
public:
  /// A copy of the kernel module stored under `key`, or null.
  mlir::OwningOpRef<mlir::ModuleOp> lookup(llvm::StringRef key) const;
  void store(llvm::StringRef key, mlir::ModuleOp kernelModule);
  size_t size() const { return entries.size(); }
  void clear() { entries.clear(); }

private:
  llvm::StringMap<mlir::OwningOpRef<mlir::ModuleOp>> entries;
};

} // namespace accy

#endif // ACCY_PIPELINE_PRODUCTCACHE_H
