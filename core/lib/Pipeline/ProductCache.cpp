//===- ProductCache.cpp - Reuse of kernel products by key -----------------===//

#include "accy/Pipeline/ProductCache.h"

using namespace accy;

mlir::OwningOpRef<mlir::ModuleOp>
ProductCache::lookup(llvm::StringRef key) const {
  auto it = entries.find(key);
  if (it == entries.end())
    return nullptr;
  // OwningOpRef gives out its op only through non-const access.
  return const_cast<mlir::OwningOpRef<mlir::ModuleOp> &>(it->second)->clone();
}

void ProductCache::store(llvm::StringRef key, mlir::ModuleOp kernelModule) {
  entries[key] = kernelModule.clone();
}
