//===- KernelStoreCounters.h - The counters file's text ---------*- C++ -*-===//
//
// Private to the Pipeline library: how DIR/v1/stats spells the counters.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LIB_PIPELINE_KERNELSTORECOUNTERS_H
#define ACCY_LIB_PIPELINE_KERNELSTORECOUNTERS_H

#include "accy/Pipeline/KernelStore.h"

namespace accy {

/// The counters in `text`; unknown or malformed lines are skipped.
KernelStoreCounters parseStoreCounters(llvm::StringRef text);
/// `counters` as parseStoreCounters reads them.
std::string printStoreCounters(const KernelStoreCounters &counters);

} // namespace accy

#endif // ACCY_LIB_PIPELINE_KERNELSTORECOUNTERS_H
