//===- ProductCache.cpp - Reuse of kernel products by key -----------------===//

#include "accy/Pipeline/ProductCache.h"

#include "accy/Pipeline/Hashing.h"

using namespace accy;

mlir::OwningOpRef<mlir::ModuleOp>
ProductCache::lookup(llvm::StringRef key) const {
  auto it = entries.find(key);
  if (it == entries.end())
    return nullptr;
  // OwningOpRef gives out its op only through non-const access.
  return const_cast<Entry &>(it->second).kernel->clone();
}

void ProductCache::store(llvm::StringRef key, mlir::ModuleOp kernelModule,
                         std::optional<uint64_t> fingerprint) {
  Entry &entry = entries[key];
  entry.kernel = kernelModule.clone();
  entry.contentHash = accy::contentHash(productBytes(kernelModule));
  entry.fingerprint = fingerprint;
}

llvm::StringRef ProductCache::contentHash(llvm::StringRef key) const {
  auto it = entries.find(key);
  return it == entries.end() ? llvm::StringRef() : it->second.contentHash;
}

std::optional<uint64_t> ProductCache::fingerprint(llvm::StringRef key) const {
  auto it = entries.find(key);
  return it == entries.end() ? std::nullopt : it->second.fingerprint;
}
