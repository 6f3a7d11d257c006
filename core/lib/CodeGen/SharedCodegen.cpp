//===- SharedCodegen.cpp - Equal code generated once ----------------------===//

#include "accy/CodeGen/SharedCodegen.h"

#include "accy/CodeGen/CodeGen.h"
#include "accy/Support/SharedWork.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/StructuralHash.h"

#include <condition_variable>
#include <mutex>

using namespace accy::codegen;
using namespace accy;

namespace {

/// The open code generations by their hash keys, and the state of every
/// one: one lock, taken a few times a piece.
struct Registry {
  std::mutex mutex;
  std::condition_variable done;
  llvm::StringMap<llvm::SmallVector<std::shared_ptr<SharedCodegen>, 1>> open;
};

Registry &getRegistry() {
  // Never destroyed: a code generation may end as the process does.
  static Registry *registry = new Registry();
  return *registry;
}

} // namespace

SharedCodegen::SharedCodegen(std::string hashKey, const llvm::Module &module,
                             Recipient opener, Generate generate)
    : hashKey(std::move(hashKey)), module(&module), recipients{opener},
      generate(std::move(generate)) {}

std::shared_ptr<SharedCodegen>
SharedCodegen::join(llvm::StringRef profile, const llvm::Module &module,
                    Recipient recipient, Generate generate, bool &opened) {
  std::string hashKey =
      (profile + " " + llvm::Twine(llvm::StructuralHash(module, true)) + " " +
       llvm::Twine(module.getInstructionCount()))
          .str();
  std::string bitcode;
  Registry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  auto &candidates = registry.open[hashKey];
  for (const std::shared_ptr<SharedCodegen> &candidate : candidates) {
    if (candidate->bitcode.empty()) {
      if (candidate->state != State::Queued)
        continue;
      candidate->bitcode = codegen::writeBitcode(*candidate->module);
    }
    if (bitcode.empty())
      bitcode = codegen::writeBitcode(module);
    if (bitcode == candidate->bitcode) {
      candidate->recipients.push_back(recipient);
      opened = false;
      return candidate;
    }
  }
  auto shared = std::make_shared<SharedCodegen>(hashKey, module, recipient,
                                                std::move(generate));
  shared->bitcode = std::move(bitcode);
  candidates.push_back(shared);
  opened = true;
  return shared;
}

llvm::SmallVector<SharedCodegen::Recipient> SharedCodegen::close() {
  Registry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  if (!closed) {
    closed = true;
    auto it = registry.open.find(hashKey);
    llvm::erase_if(it->second, [&](const std::shared_ptr<SharedCodegen> &open) {
      return open.get() == this;
    });
    if (it->second.empty())
      registry.open.erase(it);
    bitcode = std::string();
  }
  return recipients;
}

void SharedCodegen::run() {
  Registry &registry = getRegistry();
  {
    std::lock_guard<std::mutex> lock(registry.mutex);
    if (state != State::Queued)
      return;
    state = State::Running;
    module = nullptr;
  }
  generate(*this);
  close();
  {
    std::lock_guard<std::mutex> lock(registry.mutex);
    state = State::Done;
    // What it captured may refer to a piece that goes once it is done.
    generate = nullptr;
  }
  registry.done.notify_all();
}

void SharedCodegen::runOrWait() {
  run();
  Registry &registry = getRegistry();
  std::unique_lock<std::mutex> lock(registry.mutex);
  if (state == State::Done)
    return;
  lock.unlock();
  SharedWork::Idle idle;
  lock.lock();
  registry.done.wait(lock, [&] { return state == State::Done; });
}
