//===- BackendRegistryTests.cpp - First code generation on many threads ---===//
//
// LLVM registers a backend by prepending it to a global list, so two threads
// registering two backends at once used to lose one ("No available targets
// are compatible with triple"). The target stage generates code for its
// targets in parallel, so the first compile of a process does exactly that.
// The case is hidden: ctest runs it in a process of its own, whose forked
// children start with no backend registered (tests/unit/Pipeline/CMakeLists.txt).
//
//===----------------------------------------------------------------------===//

#include <catch2/catch.hpp>

#include "accy/CodeGen/CodeGen.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

using namespace accy;

/// Optimizes and emits a module with one empty function for `targetName`;
/// the error's message when that fails.
static std::string emitEmptyModule(llvm::StringRef targetName) {
  auto profile = lookupTargetProfile(targetName);
  if (!profile)
    return llvm::toString(profile.takeError());
  llvm::LLVMContext context;
  llvm::Module module("empty", context);
  auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(context), false);
  auto *function = llvm::Function::Create(
      type, llvm::Function::ExternalLinkage, "empty", module);
  llvm::IRBuilder<>(llvm::BasicBlock::Create(context, "entry", function))
      .CreateRetVoid();
  if (llvm::Error error = codegen::optimizeModule(module, *profile))
    return llvm::toString(std::move(error));
  auto artifact = codegen::emitArtifact(module, *profile);
  if (!artifact)
    return llvm::toString(artifact.takeError());
  return "";
}

/// In this process, the first code generation: one thread per target,
/// started together so that the backends' registrations overlap as far as
/// they can. The targets whose code generation failed, with the messages.
static std::string generateOnThreadsStartedTogether() {
  const char *targets[] = {"host", "sm_90", "gfx90a", "host", "sm_80",
                           "gfx942"};
  std::vector<std::string> errors(std::size(targets));
  std::atomic<unsigned> waiting{static_cast<unsigned>(std::size(targets))};
  std::vector<std::thread> threads;
  for (size_t i = 0; i < std::size(targets); ++i)
    threads.emplace_back([&, i] {
      --waiting;
      while (waiting.load() != 0)
        std::this_thread::yield();
      errors[i] = emitEmptyModule(targets[i]);
    });
  for (std::thread &thread : threads)
    thread.join();
  std::string failures;
  for (size_t i = 0; i < std::size(targets); ++i)
    if (!errors[i].empty())
      failures += std::string(targets[i]) + ": " + errors[i] + "\n";
  return failures;
}

TEST_CASE("the first code generation of a process, for three backends on "
          "threads started together, finds every backend",
          "[.][backend-registry]") {
  // A lost registration needs two registrations at the same instant, which
  // one process shows about once in a hundred runs; each forked child is a
  // process where nothing is registered yet, because the parent never
  // generates code.
  constexpr int kRounds = 100;
  int failedRounds = 0;
  std::string firstFailure;
  for (int round = 0; round < kRounds; ++round) {
    int pipe[2];
    REQUIRE(::pipe(pipe) == 0);
    pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      ::close(pipe[0]);
      std::string failures = generateOnThreadsStartedTogether();
      (void)!::write(pipe[1], failures.data(), failures.size());
      ::_exit(failures.empty() ? 0 : 1);
    }
    ::close(pipe[1]);
    std::string failures;
    char buffer[512];
    for (ssize_t n; (n = ::read(pipe[0], buffer, sizeof buffer)) > 0;)
      failures.append(buffer, n);
    ::close(pipe[0]);
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      ++failedRounds;
      if (firstFailure.empty())
        firstFailure = failures.empty() ? "the child crashed" : failures;
    }
  }
  INFO(firstFailure);
  CHECK(failedRounds == 0);
}
