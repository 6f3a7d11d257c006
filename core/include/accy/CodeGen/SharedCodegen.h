//===- SharedCodegen.h - Equal code generated once -------------*- C++ -*-===//
#ifndef ACCY_CODEGEN_SHAREDCODEGEN_H
#define ACCY_CODEGEN_SHAREDCODEGEN_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <functional>
#include <memory>
#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace accy::codegen {

class CanonicalNames;

/// What code generation gives a piece of a kernel's code.
struct PieceCode {
  /// NVPTX and host: the optimized bitcode; AMDGPU: the relocatable object.
  std::string linkable;
  std::string code;  // emitObjectCode; empty for AMDGPU (the linkable)
  std::string error; // what LLVM reported, empty on success
};

/// The code generation of one piece of LLVM IR, which the pieces of equal
/// IR (under canonical names, CanonicalNames.h) that are translated before
/// it closes share: a file's kernels that lower to the same code, but for
/// their names, have it generated once. The process keeps those in flight
/// only: which pieces share one depends on the threads, the bytes each gets
/// never do (docs/internals.md, "Equal code generated once").
///
/// IR is equal when its bitcode is: written only for pieces whose
/// structural hashes are equal, and for a piece that opened a code
/// generation only while it has not started (its IR is optimized in place
/// then).
class SharedCodegen {
public:
  /// A piece that gets the code: the names it gets it under, where it goes.
  struct Recipient {
    const CanonicalNames *names;
    PieceCode *code;
  };
  /// Generates the code, given the code generation, whose recipients it
  /// takes (close).
  using Generate = std::function<void(SharedCodegen &)>;

  /// Joins `recipient` to an open code generation of IR equal to `module`
  /// for target `profile`, or, where there is none, opens one that
  /// `generate` runs on `module` (`opened` says which).
  static std::shared_ptr<SharedCodegen> join(llvm::StringRef profile,
                                             const llvm::Module &module,
                                             Recipient recipient,
                                             Generate generate, bool &opened);

  /// Runs the code generation unless a thread has started it.
  void run();
  /// Runs it unless a thread has started it, then waits, idle
  /// (SharedWork::Idle), until it is done. A code generation never waits,
  /// so neither does this for good.
  void runOrWait();

  /// Closes it to pieces that are still to join; returns the recipients,
  /// the one that opened it first. `generate` calls it once the code is
  /// optimized, before it writes anything that carries names.
  llvm::SmallVector<Recipient> close();

  SharedCodegen(std::string hashKey, const llvm::Module &module,
                Recipient opener, Generate generate);

private:
  enum class State { Queued, Running, Done };
  /// The target, the IR's structural hash and size.
  std::string hashKey;
  /// The IR until it starts, and its bitcode, once a piece compared it.
  const llvm::Module *module;
  std::string bitcode;
  llvm::SmallVector<Recipient> recipients;
  Generate generate;
  State state = State::Queued;
  bool closed = false;
};

} // namespace accy::codegen

#endif // ACCY_CODEGEN_SHAREDCODEGEN_H
