//===- TargetMachines.h - Target machines lent to modules -------*- C++ -*-===//
#ifndef ACCY_LIB_CODEGEN_TARGETMACHINES_H
#define ACCY_LIB_CODEGEN_TARGETMACHINES_H

#include "accy/CodeGen/CodeGen.h"

#include "llvm/Target/TargetMachine.h"

#include <memory>

namespace accy::codegen {

/// One of the process's target machines for `profile`, lent for the
/// lifetime of this object to work on one module (a machine serves one
/// module at a time); made when none waits unused.
class LentMachine {
public:
  explicit LentMachine(const TargetProfile &profile);
  ~LentMachine();
  LentMachine(const LentMachine &) = delete;
  LentMachine &operator=(const LentMachine &) = delete;

  explicit operator bool() const { return machine != nullptr; }
  /// The error that left this without a machine, once.
  llvm::Error takeError() { return std::move(error); }
  llvm::TargetMachine *operator->() const { return machine.get(); }
  llvm::TargetMachine &operator*() const { return *machine; }

private:
  const TargetProfile &profile;
  std::unique_ptr<llvm::TargetMachine> machine;
  llvm::Error error = llvm::Error::success();
};

} // namespace accy::codegen

#endif // ACCY_LIB_CODEGEN_TARGETMACHINES_H
