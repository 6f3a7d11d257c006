//===- ProductCache.cpp - Reuse of kernel products by key -----------------===//

#include "accy/Pipeline/ProductCache.h"

#include "accy/Pipeline/Hashing.h"

using namespace accy;

KernelProduct::KernelProduct(mlir::OwningOpRef<mlir::ModuleOp> made)
    : module(std::move(made)),
      contentHash(accy::contentHash(productBytes(module.get()))) {}

KernelProduct::KernelProduct(mlir::OwningOpRef<mlir::ModuleOp> made,
                             std::string contentHash, bool verified)
    : module(std::move(made)), contentHash(std::move(contentHash)),
      verified(verified) {}

SharedKernel ProductCache::lookup(llvm::StringRef key) const {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = entries.find(key);
  return it == entries.end() ? nullptr : it->second.kernel;
}

void ProductCache::store(llvm::StringRef key, SharedKernel kernel,
                         std::optional<uint64_t> fingerprint) {
  std::lock_guard<std::mutex> lock(mutex);
  Entry &entry = entries[key];
  entry.kernel = std::move(kernel);
  entry.fingerprint = fingerprint;
}

size_t ProductCache::size() const {
  std::lock_guard<std::mutex> lock(mutex);
  return entries.size();
}

void ProductCache::clear() {
  std::lock_guard<std::mutex> lock(mutex);
  entries.clear();
}

void ProductCache::retainOnly(const llvm::StringSet<> &keys) {
  std::lock_guard<std::mutex> lock(mutex);
  for (auto it = entries.begin(); it != entries.end();) {
    auto current = it++;
    if (!keys.contains(current->first()))
      entries.erase(current);
  }
}

std::string ProductCache::contentHash(llvm::StringRef key) const {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = entries.find(key);
  return it == entries.end() ? std::string() : it->second.kernel->contentHash;
}

std::optional<uint64_t> ProductCache::fingerprint(llvm::StringRef key) const {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = entries.find(key);
  return it == entries.end() ? std::nullopt : it->second.fingerprint;
}
