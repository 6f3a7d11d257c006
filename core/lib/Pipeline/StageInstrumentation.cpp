//===- StageInstrumentation.cpp - Pass statistics of a stage run ----------===//

#include "StageInstrumentation.h"

#include "mlir/IR/Operation.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/Hashing.h"

#include <malloc.h>

using namespace accy;

/// Pass adaptors (nested pass managers) have no argument; only the passes
/// they run are counted.
static bool isCounted(mlir::Pass *pass) { return !pass->getArgument().empty(); }

/// A cheap signature of everything a pass can change: each op's identity,
/// attributes, properties, operands, result types and successors, in walk
/// order (what mlir::OperationFingerPrint covers, hashed without SHA-1).
static uint64_t irSignature(mlir::Operation *root) {
  llvm::hash_code hash = llvm::hash_value(root);
  root->walk([&](mlir::Operation *op) {
    hash = llvm::hash_combine(hash, op, op->getName().getAsOpaquePointer(),
                              op->getRawDictionaryAttrs().getAsOpaquePointer(),
                              op->hashProperties(), op->getLoc().getAsOpaquePointer());
    for (mlir::Value operand : op->getOperands())
      hash = llvm::hash_combine(hash, operand.getAsOpaquePointer());
    for (mlir::Type type : op->getResultTypes())
      hash = llvm::hash_combine(hash, type.getAsOpaquePointer());
    for (mlir::Block *successor : op->getSuccessors())
      hash = llvm::hash_combine(hash, successor);
  });
  return static_cast<uint64_t>(hash);
}

/// Bytes of heap in use (glibc's allocator statistics).
static size_t heapInUse() { return mallinfo2().uordblks; }

static uint64_t countOps(mlir::Operation *op) {
  uint64_t n = 0;
  op->walk([&](mlir::Operation *) { ++n; });
  return n;
}

void StageInstrumentation::runBeforePass(mlir::Pass *pass,
                                         mlir::Operation *op) {
  if (!isCounted(pass))
    return;
  stack.push_back({pass, countModified ? irSignature(op) : 0, Clock::now(),
                   timePasses ? countOps(op) : 0,
                   timePasses ? heapInUse() : 0});
}

void StageInstrumentation::runAfterPass(mlir::Pass *pass,
                                        mlir::Operation *op) {
  if (!isCounted(pass) || stack.empty())
    return;
  Frame frame = stack.back();
  stack.pop_back();
  ++stats.passRuns;
  if (countModified && irSignature(op) != frame.before)
    ++stats.passesModified;
  if (!timePasses)
    return;
  PassTiming &t = timingFor(pass);
  t.seconds +=
      std::chrono::duration<double>(Clock::now() - frame.start).count();
  ++t.runs;
  t.opsBefore += frame.opsBefore;
  t.opsAfter += countOps(op);
  t.heapGrowthBytes += static_cast<int64_t>(heapInUse()) -
                       static_cast<int64_t>(frame.heapBefore);
}

void StageInstrumentation::runAfterPassFailed(mlir::Pass *pass,
                                              mlir::Operation *) {
  if (!isCounted(pass))
    return;
  if (!stack.empty())
    stack.pop_back();
  ++stats.passRuns;
  ++stats.passFailures;
  lastFailedPass = pass->getArgument().str();
}

void StageInstrumentation::runBeforeAnalysis(llvm::StringRef, mlir::TypeID id,
                                             mlir::Operation *op) {
  ++stats.analysisMisses;
  // An analysis computed twice for one op was invalidated in between.
  if (!computed.insert({op, id}).second)
    ++stats.analysisInvalidations;
  analysisStarts.push_back(Clock::now());
}

void StageInstrumentation::runAfterAnalysis(llvm::StringRef, mlir::TypeID,
                                            mlir::Operation *) {
  if (analysisStarts.empty())
    return;
  double seconds =
      std::chrono::duration<double>(Clock::now() - analysisStarts.back())
          .count();
  analysisStarts.pop_back();
  if (!timePasses || stack.empty())
    return;
  PassTiming &t = timingFor(stack.back().pass);
  t.analysisSeconds += seconds;
  ++t.analysisCount;
}

PassTiming &StageInstrumentation::timingFor(mlir::Pass *pass) {
  auto [it, inserted] = perPass.try_emplace(pass->getArgument());
  if (inserted) {
    passOrder.push_back(pass->getArgument().str());
    it->second.pass = pass->getArgument().str();
  }
  return it->second;
}

std::vector<PassTiming> StageInstrumentation::timings() const {
  std::vector<PassTiming> out;
  for (const std::string &name : passOrder)
    out.push_back(perPass.find(name)->second);
  return out;
}
