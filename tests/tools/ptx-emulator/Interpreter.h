//===- Interpreter.h - Executes one PTX thread ----------------------------===//
//
// Runs the decoded instructions of one thread from its pc until the thread
// must wait for others (bar.sync, shfl.sync), exits, or faults. The
// scheduler (Scheduler.h) owns the threads and decides who runs next; the
// interpreter knows nothing about blocks or warps beyond the special
// registers it reads.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_PTX_EMULATOR_INTERPRETER_H
#define ACCY_PTX_EMULATOR_INTERPRETER_H

#include "Program.h"

#include <string>

namespace ptxemu {

/// What a block's threads share while they run.
struct BlockEnv {
  const Entry *entry = nullptr;
  const uint8_t *params = nullptr; // the packed parameter buffer
  uint8_t *shared = nullptr;       // this block's shared memory
  uint64_t sharedBytes = 0;        // static + dynamic
  std::string *error = nullptr;    // set when a thread faults
};

struct ThreadTrace;

struct ThreadState {
  enum Status : uint8_t { Runnable, AtBarrier, AtShuffle, Exited };
  uint64_t *regs = nullptr;
  uint32_t pc = 0;
  Status status = Runnable;
  /// At an ldmatrix: the row this lane addresses (null where the
  /// instruction reads no row of this lane's).
  const uint8_t *matrixRow = nullptr;
  /// Where the thread records what it executes when the launch is
  /// profiled (Profile.h); null otherwise.
  ThreadTrace *trace = nullptr;
};

enum class Stop { Barrier, Shuffle, Exit, Fault };

/// Runs `thread` until it stops. At a barrier the pc is past the bar.sync;
/// at a shuffle it is still on the shfl.sync (the scheduler completes it),
/// as at the other warp-collective instructions, mma.sync and ldmatrix.
Stop runThread(const BlockEnv &env, ThreadState &thread);

/// A warp's mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}.{f16,bf16}.f32
/// (`I.type` the inputs' type): every lane's four result registers from
/// every lane's source registers (`regs[lane]`), with the fragment layouts
/// of the PTX ISA. Products are exact and summed in double, then rounded
/// to f32 once (the hardware's accumulation order is unspecified).
void mmaSync(const Inst &I, uint64_t *const regs[32]);

/// A warp's ldmatrix.sync.aligned.m8n8.{x1,x2,x4}[.trans].shared.b16: lane l
/// holds, of matrix i (rows from lanes 8i to 8i+7, 16 bytes each), row l / 4
/// at columns 2 (l % 4) and 2 (l % 4) + 1 in its register i, or with
/// `.trans` those rows at column l / 4 (the PTX ISA's fragment layout).
void loadMatrices(const Inst &I, const uint8_t *const rows[32],
                  uint64_t *const regs[32]);

/// The result of one lane's shfl.sync, given every lane's source value and
/// which lanes take part: lane j's value where j is valid and taking part,
/// else the lane's own value; `inRange` is the instruction's predicate.
uint32_t shuffleResult(ShflMode mode, uint32_t lane, uint32_t b, uint32_t c,
                       const uint32_t *values, uint32_t participating,
                       bool &inRange);

} // namespace ptxemu

#endif
