//===- TargetMachines.cpp - LLVM backends and their target machines -------===//
//
// The LLVM backends, registered on first use, and the process's target
// machines, lent to one module at a time (docs/internals.md, "Target
// machines").
//
//===----------------------------------------------------------------------===//

#include "TargetMachines.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Target/TargetOptions.h"

#include <mutex>
#include <vector>

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
void LLVMInitializeAMDGPUTargetInfo();
void LLVMInitializeAMDGPUTarget();
void LLVMInitializeAMDGPUTargetMC();
void LLVMInitializeAMDGPUAsmPrinter();
void LLVMInitializeX86TargetInfo();
void LLVMInitializeX86Target();
void LLVMInitializeX86TargetMC();
void LLVMInitializeX86AsmPrinter();
}

using namespace accy::codegen;
using namespace accy;

/// Lets speculative execution (in the NVPTX pipeline) hoist the cheap
/// instructions of blocks with up to 20 that it cannot hoist; LLVM's default
/// of 5 leaves every guarded store of a contraction's epilogue (a load, a
/// call and the store's own instructions) as it was. The pass has no
/// parameter for it, only this process-wide option; no other pipeline here
/// runs the pass (the host's O3 adds it for divergent targets only). Set
/// before the first NVPTX pipeline exists.
static void raiseSpeculationLimit() {
  llvm::cl::Option *option =
      llvm::cl::getRegisteredOptions().lookup("spec-exec-max-not-hoisted");
  if (option)
    (void)option->addOccurrence(0, option->ArgStr, "20");
}

/// Registers the one LLVM backend `kind` needs: a build for sm_90 alone never
/// pays for the AMDGPU and x86 backends' set-up. The caller holds
/// registryMutex.
static void registerBackend(TargetKind kind) {
  switch (kind) {
  case TargetKind::NVPTX:
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    raiseSpeculationLimit();
    return;
  case TargetKind::AMDGPU:
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    return;
  case TargetKind::Host:
    LLVMInitializeX86TargetInfo();
    LLVMInitializeX86Target();
    LLVMInitializeX86TargetMC();
    LLVMInitializeX86AsmPrinter();
    return;
  }
}

/// The LLVM backend for `profile`, registered on first use. LLVM's target
/// registry is a global list that registration prepends to without any
/// synchronization, so registering two backends on two threads at once loses
/// one of them (a server compiling two documents for different targets saw
/// "No available targets"); one mutex orders every registration and lookup.
static const llvm::Target *lookupBackend(const TargetProfile &profile,
                                         std::string &error) {
  static std::mutex registryMutex;
  static bool registered[3] = {false, false, false};
  std::lock_guard<std::mutex> lock(registryMutex);
  bool &done = registered[static_cast<int>(profile.kind)];
  if (!done) {
    registerBackend(profile.kind);
    done = true;
  }
  return llvm::TargetRegistry::lookupTarget(profile.triple.str(), error);
}

llvm::Expected<const llvm::Target &>
accy::codegen::getBackend(const TargetProfile &profile) {
  std::string error;
  const llvm::Target *target = lookupBackend(profile, error);
  if (!target)
    return llvm::createStringError("no LLVM backend for " + profile.triple +
                                   ": " + error);
  return *target;
}

/// One fixed configuration per profile: the same options on every machine.
static llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(const TargetProfile &profile) {
  llvm::Expected<const llvm::Target &> target = getBackend(profile);
  if (!target)
    return target.takeError();
  llvm::TargetOptions options;
  // IEEE semantics: no contraction of separate multiplies and adds.
  options.AllowFPOpFusion = llvm::FPOpFusion::Standard;
  std::optional<llvm::Reloc::Model> reloc;
  if (profile.kind != TargetKind::NVPTX)
    reloc = llvm::Reloc::PIC_;
  // The GPU targets at Default. NVPTX: Aggressive only swaps two of its IR
  // passes' EarlyCSE for GVN, which costs 8% of code generation and left the
  // PTX of the 9 example kernels byte-identical. AMDGPU: Aggressive placed
  // each guarded store of an epilogue out of line, reached by a branch and
  // a branch back, 2% more instructions with the same registers and main
  // loops (docs/internals.md, "The LLVM pipeline").
  llvm::CodeGenOptLevel level = profile.kind == TargetKind::Host
                                    ? llvm::CodeGenOptLevel::Aggressive
                                    : llvm::CodeGenOptLevel::Default;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      profile.triple, profile.chip, profile.features, options, reloc,
      std::nullopt, level));
  if (!machine)
    return llvm::createStringError("cannot create a target machine for " +
                                   profile.name);
  return machine;
}

namespace {
/// The process's target machines that no module uses, per profile. A
/// target machine serves one module at a time (code generation resets its
/// options per function) but any number in turn, and making one costs more
/// than optimizing a small kernel's module, so machines are kept for the
/// life of the process and lent to one module at a time.
class MachinePool {
public:
  static MachinePool &get() {
    // Never destroyed: a thread may still hold a machine at exit.
    static MachinePool *pool = new MachinePool();
    return *pool;
  }

  llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
  take(const TargetProfile &profile) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      std::vector<std::unique_ptr<llvm::TargetMachine>> &free =
          idle[profile.name];
      if (!free.empty()) {
        std::unique_ptr<llvm::TargetMachine> machine = std::move(free.back());
        free.pop_back();
        return machine;
      }
    }
    return createTargetMachine(profile);
  }

  void giveBack(const TargetProfile &profile,
                std::unique_ptr<llvm::TargetMachine> machine) {
    std::lock_guard<std::mutex> lock(mutex);
    idle[profile.name].push_back(std::move(machine));
  }

  size_t idleCount(const TargetProfile &profile) {
    std::lock_guard<std::mutex> lock(mutex);
    return idle[profile.name].size();
  }

private:
  std::mutex mutex;
  llvm::StringMap<std::vector<std::unique_ptr<llvm::TargetMachine>>> idle;
};

} // namespace

LentMachine::LentMachine(const TargetProfile &profile) : profile(profile) {
  auto taken = MachinePool::get().take(profile);
  if (taken)
    machine = std::move(*taken);
  else
    error = taken.takeError();
}

LentMachine::~LentMachine() {
  if (machine)
    MachinePool::get().giveBack(profile, std::move(machine));
}

size_t accy::codegen::countIdleTargetMachines(const TargetProfile &profile) {
  return MachinePool::get().idleCount(profile);
}

void accy::codegen::prepareTargetMachines(
    llvm::ArrayRef<const TargetProfile *> profiles, unsigned count) {
  MachinePool &pool = MachinePool::get();
  for (const TargetProfile *profile : profiles)
    for (size_t made = pool.idleCount(*profile); made < count; ++made) {
      auto machine = createTargetMachine(*profile);
      if (!machine) {
        llvm::consumeError(machine.takeError()); // reported where used
        break;
      }
      pool.giveBack(*profile, std::move(*machine));
    }
}
