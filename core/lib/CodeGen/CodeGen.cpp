//===- CodeGen.cpp - LLVM IR to PTX, AMDGPU code objects, host objects ----===//

#include "accy/CodeGen/CodeGen.h"
#include "accy/CodeGen/CanonicalNames.h"

#include "Linker.h"
#include "TargetMachines.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/LazyCallGraph.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/PassInfo.h"
#include "llvm/PassRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TimeProfiler.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

using namespace accy::codegen;
using namespace accy;

#ifndef ACCY_LLVM_TOOLS_DIR
#define ACCY_LLVM_TOOLS_DIR ""
#endif

llvm::ArrayRef<llvm::StringRef> accy::codegen::getAllowedHostExternals() {
  // The C allocator and the memory intrinsics' library forms; for f16
  // arithmetic only, which x86 promotes to f32, the conversions (libgcc >= 12
  // and compiler-rt define them) and fmaxf/fminf, which LLVM's x86 backend
  // calls for a compare-and-select of halves.
  static const llvm::StringRef allowed[] = {
      "malloc",        "free",         "memcpy", "memmove", "memset",
      "__extendhfsf2", "__truncsfhf2", "fmaxf",  "fminf"};
  return allowed;
}

/// The GPU kernels' pipeline: what of O3 changes a kernel that MLIR has
/// already canonicalized, unrolled and CSE'd. O3 ran InstCombine eight times
/// over code that two or three runs settle; this pipeline takes about a
/// third of O3's time, and most of the example and bench kernels kept their
/// PTX instruction counts within 1% and their registers within 3; the
/// exceptions (up to 11% more instructions, 9 more registers) are in
/// docs/internals.md, "The LLVM pipeline". What each step is for:
///  - loop rotation between two LICMs: the contraction's K loop keeps its
///    register count (149 registers without it, 123 with);
///  - full unrolling of the loops indvars leaves with constant trip counts,
///    and O3's partial unrolling of the long ones (a scan's walk along a
///    static line issues its loads ahead);
///  - the loads and arithmetic the unrolling made redundant: GVN on
///    AMDGPU; EarlyCSE over MemorySSA on NVPTX, which leaves every example
///    and bench kernel with the registers GVN gave and no more SASS, where
///    GVN was a third of this pipeline's time on a contraction
///    (docs/internals.md, "The LLVM pipeline");
///  - infer-alignment: the alignment vector loads (ld.v4) need;
///  - AMDGPU: kernel arguments, and the pointers derived from them, in the
///    global address space (flat loads otherwise), and SLP vectorization,
///    which makes gfx90a's and gfx942's packed f32 arithmetic;
///  - NVPTX: the range of thread and block indices (nvvm-intr-range), and
///    speculative execution then EarlyCSE: the address arithmetic of a
///    contraction's guarded stores moves out of the guards, where it is
///    computed once (28% less SASS for a fused 8x8 tile epilogue, 7% less
///    CPU time for a cold build of its file).
/// Reproduce with `opt-19 -passes='...'` on a module's LLVM IR.
llvm::StringRef accy::codegen::getOptimizationPipeline(TargetKind kind) {
#define ACCY_SIMPLIFY                                                          \
  "sroa,early-cse<memssa>,instcombine<no-verify-fixpoint>,simplifycfg,"        \
  "loop-mssa(licm,loop-rotate,licm),loop(indvars,loop-unroll-full),"
  switch (kind) {
  case TargetKind::NVPTX:
    return "function(nvvm-reflect,nvvm-intr-range," ACCY_SIMPLIFY
           "early-cse<memssa>,instcombine<no-verify-fixpoint>,infer-alignment,"
           "loop-unroll<O3>,simplifycfg,speculative-execution,early-cse)";
  case TargetKind::AMDGPU:
    return "function(" ACCY_SIMPLIFY
           "gvn,amdgpu-promote-kernel-arguments,infer-address-spaces,"
           "instcombine<no-verify-fixpoint>,infer-alignment,slp-vectorizer,"
           "loop-unroll<O3>,instcombine<no-verify-fixpoint>,simplifycfg)";
  case TargetKind::Host:
    // The host target runs kernels on the CPU: its loops want O3's
    // vectorizers.
    return "default<O3>";
  }
#undef ACCY_SIMPLIFY
  llvm_unreachable("unknown target kind");
}

llvm::Expected<std::string>
accy::codegen::getDataLayout(const TargetProfile &profile) {
  LentMachine machine(profile);
  if (!machine)
    return machine.takeError();
  return machine->createDataLayout().getStringRepresentation();
}

/// The IR a pass runs on, as LLVM's time profiler names it
/// (TimeProfilingPassesHandler).
static std::string getIRName(llvm::Any ir) {
  if (llvm::any_cast<const llvm::Module *>(&ir))
    return "[module]";
  if (auto *function = llvm::any_cast<const llvm::Function *>(&ir))
    return (*function)->getName().str();
  if (auto *scc = llvm::any_cast<const llvm::LazyCallGraph::SCC *>(&ir))
    return (*scc)->getName();
  if (auto *loop = llvm::any_cast<const llvm::Loop *>(&ir))
    return "loop %" + (*loop)->getName().str() + " in function " +
           (*loop)->getHeader()->getParent()->getName().str();
  return "";
}

/// Each pass a span of the time trace, where the thread traces, named after
/// the IR it runs on under the names `names` restores.
static void traceEachPass(llvm::PassInstrumentationCallbacks &callbacks,
                          const CanonicalNames *names) {
  if (!llvm::timeTraceProfilerEnabled())
    return;
  callbacks.registerBeforeNonSkippedPassCallback(
      [names](llvm::StringRef pass, llvm::Any ir) {
        std::string name = getIRName(ir);
        llvm::timeTraceProfilerBegin(pass, names ? names->restore(name) : name);
      });
  callbacks.registerAfterPassCallback(
      [](llvm::StringRef, llvm::Any, const llvm::PreservedAnalyses &) {
        llvm::timeTraceProfilerEnd();
      },
      true);
  callbacks.registerAfterPassInvalidatedCallback(
      [](llvm::StringRef, const llvm::PreservedAnalyses &) {
        llvm::timeTraceProfilerEnd();
      },
      true);
}

llvm::Error accy::codegen::optimizeModule(llvm::Module &module,
                                          const TargetProfile &profile,
                                          const CanonicalNames *names) {
  LentMachine machine(profile);
  if (!machine)
    return machine.takeError();
  module.setTargetTriple(profile.triple);
  module.setDataLayout(machine->createDataLayout());
  if (profile.kind == TargetKind::AMDGPU &&
      !module.getModuleFlag("amdhsa_code_object_version"))
    module.addModuleFlag(llvm::Module::Error, "amdhsa_code_object_version",
                         500);

  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassInstrumentationCallbacks callbacks;
  traceEachPass(callbacks, names);
  llvm::PassBuilder builder(&*machine, llvm::PipelineTuningOptions(),
                            std::nullopt, &callbacks);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager passes;
  if (llvm::Error error = builder.parsePassPipeline(
          passes, getOptimizationPipeline(profile.kind)))
    return llvm::createStringError(
        "the optimization pipeline for " + profile.name +
        " does not parse: " + llvm::toString(std::move(error)));
  passes.run(module, mam);
  return llvm::Error::success();
}

llvm::Error accy::codegen::checkSelfContained(const llvm::Module &module,
                                              const TargetProfile &profile) {
  std::string missing;
  for (const llvm::Function &function : module) {
    if (!function.isDeclaration() || function.isIntrinsic() ||
        function.use_empty())
      continue;
    if (profile.kind == TargetKind::Host &&
        llvm::is_contained(getAllowedHostExternals(), function.getName()))
      continue;
    missing += (missing.empty() ? "" : ", ") + function.getName().str();
  }
  if (missing.empty())
    return llvm::Error::success();
  return llvm::createStringError(
      "code for " + profile.name +
      " calls functions that are not part of it: " + missing);
}

std::string accy::codegen::writeBitcode(const llvm::Module &module) {
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  llvm::WriteBitcodeToFile(module, os);
  os.flush();
  return bytes;
}

llvm::Expected<std::unique_ptr<llvm::Module>>
accy::codegen::linkBitcode(llvm::LLVMContext &context,
                           llvm::ArrayRef<llvm::StringRef> bitcodes,
                           llvm::StringRef name) {
  auto linked = std::make_unique<llvm::Module>(name, context);
  llvm::Linker linker(*linked);
  for (llvm::StringRef bitcode : bitcodes) {
    auto module =
        llvm::parseBitcodeFile(llvm::MemoryBufferRef(bitcode, name), context);
    if (!module)
      return module.takeError();
    if (linked->getTargetTriple().empty()) {
      linked->setTargetTriple((*module)->getTargetTriple());
      linked->setDataLayout((*module)->getDataLayout());
    }
    if (linker.linkInModule(std::move(*module)))
      return llvm::createStringError("cannot link the bitcode of " + name +
                                     " (duplicate symbol?)");
  }
  // Code generation does not verify what it compiles (emitFile): modules
  // made of stored bytes are verified here.
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(*linked, &os))
    return llvm::createStringError("the linked bitcode of " + name +
                                   " is not valid LLVM IR: " + problems);
  return linked;
}

/// NVPTX code generation starts with IR passes of its own: loop strength
/// reduction and nary reassociation cost 8% of a GPU build and made the
/// kernels worse. Without strength reduction, ptxas makes 7% less SASS of
/// the example and bench kernels (up to 23% less for a row kernel's block
/// variant), with as many registers or fewer but for one (+1), and nary
/// reassociation then changes none of it (docs/internals.md, "The LLVM
/// pipeline").
llvm::ArrayRef<llvm::StringRef>
accy::codegen::getSkippedCodegenPasses(TargetKind kind) {
  static const llvm::StringRef nvptx[] = {"loop-reduce", "nary-reassociate"};
  if (kind == TargetKind::NVPTX)
    return nvptx;
  return {};
}

namespace {
/// A legacy pass manager that leaves out the passes a backend's pipeline
/// adds whose registered argument is in `skipped`.
class SkippingPassManager : public llvm::legacy::PassManager {
public:
  explicit SkippingPassManager(llvm::ArrayRef<llvm::StringRef> skipped)
      : skipped(skipped) {}

  void add(llvm::Pass *pass) override {
    const llvm::PassInfo *info =
        llvm::PassRegistry::getPassRegistry()->getPassInfo(pass->getPassID());
    if (info && llvm::is_contained(skipped, info->getPassArgument())) {
      delete pass;
      return;
    }
    llvm::legacy::PassManager::add(pass);
  }

private:
  llvm::ArrayRef<llvm::StringRef> skipped;
};
} // namespace

static llvm::Expected<std::string> emitFile(llvm::Module &module,
                                            const TargetProfile &profile,
                                            llvm::CodeGenFileType type) {
  LentMachine machine(profile);
  if (!machine)
    return machine.takeError();
  module.setDataLayout(machine->createDataLayout());
  llvm::SmallString<0> bytes;
  llvm::raw_svector_ostream os(bytes);
  SkippingPassManager passes(getSkippedCodegenPasses(profile.kind));
  // Without the IR verifier code generation adds before and after its IR
  // passes (2% of code generation): a module is verified as it is
  // translated from MLIR or linked from bitcode (linkBitcode), and only
  // LLVM's own passes change it after that.
  if (machine->addPassesToEmitFile(passes, os, nullptr, type,
                                   /*DisableVerify=*/true))
    return llvm::createStringError("the " + profile.name +
                                   " backend cannot emit this kind of file");
  passes.run(module);
  return std::string(bytes.str());
}

llvm::Expected<std::string> accy::codegen::findLinker() {
  for (llvm::StringRef dir : {llvm::StringRef(ACCY_LLVM_TOOLS_DIR)}) {
    if (dir.empty())
      continue;
    std::string path = (dir + "/ld.lld").str();
    if (llvm::sys::fs::can_execute(path))
      return path;
  }
  for (llvm::StringRef name : {"ld.lld-19", "ld.lld"})
    if (auto path = llvm::sys::findProgramByName(name))
      return *path;
  return llvm::createStringError(
      "ld.lld not found (install lld-19); it links AMDGPU code objects");
}

llvm::Expected<std::string>
accy::codegen::runLinker(llvm::ArrayRef<llvm::StringRef> flags,
                         llvm::ArrayRef<llvm::StringRef> objects) {
  auto linker = findLinker();
  if (!linker)
    return linker.takeError();
  std::vector<llvm::SmallString<128>> inputs(objects.size());
  llvm::SmallString<128> output;
  auto cleanup = llvm::make_scope_exit([&] {
    for (const auto &input : inputs)
      if (!input.empty())
        llvm::sys::fs::remove(input);
    if (!output.empty())
      llvm::sys::fs::remove(output);
  });
  for (auto [object, input] : llvm::zip(objects, inputs)) {
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile("accy-link", "o", input))
      return llvm::createStringError("cannot create a temporary file: " +
                                     ec.message());
    std::error_code ec;
    llvm::raw_fd_ostream os(input, ec);
    if (ec)
      return llvm::createStringError("cannot write " + input + ": " +
                                     ec.message());
    os << object;
  }
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("accy-link", "out", output))
    return llvm::createStringError("cannot create a temporary file: " +
                                   ec.message());
  std::vector<llvm::StringRef> args{*linker};
  llvm::append_range(args, flags);
  args.push_back("-o");
  args.push_back(output);
  for (const auto &input : inputs)
    args.push_back(input);
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(*linker, args, std::nullopt, {}, 0, 0,
                                     &message);
  if (rc != 0)
    return llvm::createStringError("ld.lld failed" +
                                   (message.empty() ? "" : ": " + message));
  auto buffer = llvm::MemoryBuffer::getFile(output);
  if (!buffer)
    return llvm::createStringError("cannot read what ld.lld wrote: " +
                                   buffer.getError().message());
  return (*buffer)->getBuffer().str();
}

llvm::Expected<std::string>
accy::codegen::linkHostObjects(llvm::ArrayRef<llvm::StringRef> objects) {
  return runLinker({"-r", "--build-id=none"}, objects);
}

/// Code generation may add library calls the IR did not have: the object's
/// undefined symbols are the final word on what the host object needs.
static llvm::Error checkHostObject(llvm::StringRef bytes) {
  auto object = llvm::object::ObjectFile::createObjectFile(
      llvm::MemoryBufferRef(bytes, "host object"));
  if (!object)
    return object.takeError();
  std::string missing;
  for (const llvm::object::SymbolRef &symbol : (*object)->symbols()) {
    auto flags = symbol.getFlags();
    if (!flags)
      return flags.takeError();
    if (!(*flags & llvm::object::SymbolRef::SF_Undefined))
      continue;
    auto name = symbol.getName();
    if (!name)
      return name.takeError();
    if (name->empty() || llvm::is_contained(getAllowedHostExternals(), *name))
      continue;
    missing += (missing.empty() ? "" : ", ") + name->str();
  }
  if (missing.empty())
    return llvm::Error::success();
  return llvm::createStringError(
      "the host object calls functions that are not part of it: " + missing);
}

/// The NVPTX backend numbers the call sequences it prints (`{ // callseq
/// 3, 0` ... `} // callseq 3`) with one counter for the whole process, so
/// the same module printed PTX that depended on what the process compiled
/// before it, and a kernel's product on which kernel a thread took first.
/// Numbered again from 0 in each module, in order, the PTX is what a fresh
/// process prints.
static std::string renumberCallSequences(llvm::StringRef ptx) {
  static constexpr llvm::StringLiteral kMarker = "// callseq ";
  llvm::DenseMap<unsigned, unsigned> numbers;
  std::string out;
  out.reserve(ptx.size());
  for (size_t at; (at = ptx.find(kMarker)) != llvm::StringRef::npos;) {
    out += ptx.take_front(at + kMarker.size());
    ptx = ptx.drop_front(at + kMarker.size());
    llvm::StringRef digits = ptx.take_while(llvm::isDigit);
    unsigned number;
    if (digits.getAsInteger(10, number))
      continue;
    out += std::to_string(
        numbers.try_emplace(number, numbers.size()).first->second);
    ptx = ptx.drop_front(digits.size());
  }
  out += ptx;
  return out;
}

llvm::Expected<std::string>
accy::codegen::emitObjectCode(llvm::Module &module,
                              const TargetProfile &profile) {
  switch (profile.kind) {
  case TargetKind::NVPTX: {
    auto ptx = emitFile(module, profile, llvm::CodeGenFileType::AssemblyFile);
    if (!ptx)
      return ptx.takeError();
    return renumberCallSequences(*ptx);
  }
  case TargetKind::AMDGPU:
    return emitFile(module, profile, llvm::CodeGenFileType::ObjectFile);
  case TargetKind::Host: {
    auto object = emitFile(module, profile, llvm::CodeGenFileType::ObjectFile);
    if (!object)
      return object.takeError();
    if (llvm::Error error = checkHostObject(*object))
      return std::move(error);
    return object;
  }
  }
  llvm_unreachable("unknown target kind");
}

llvm::Expected<std::string>
accy::codegen::emitArtifact(llvm::Module &module,
                            const TargetProfile &profile) {
  llvm::Expected<std::string> code = emitObjectCode(module, profile);
  if (!code || profile.kind != TargetKind::AMDGPU)
    return code;
  return linkCodeObjects(llvm::StringRef(*code));
}
