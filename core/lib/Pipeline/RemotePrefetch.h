//===- RemotePrefetch.h - A kernel's next stages from a remote -*- C++ -*-===//
#ifndef ACCY_LIB_PIPELINE_REMOTEPREFETCH_H
#define ACCY_LIB_PIPELINE_REMOTEPREFETCH_H

#include "accy/Pipeline/ProductCache.h"
#include "accy/Pipeline/Stage.h"

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace accy {

class KernelStore;
struct StageOptions;

/// After a remote cache served `kernel`'s product of the stored stage
/// `stage`, fetches the product of each later stored stage of the same
/// kernel from the remote caches into the local store, while they hit.
///
/// A warm build under Ninja runs one process per stage: each of the
/// memory, kernel and target steps would load libcurl and ask the server
/// (about 20 ms a step, docs/cache.md); this way only the memory step
/// does, and the next two find their entries locally. The keys are the
/// ones those steps compute: the product's content hash, the build id and
/// the stage's options, whose targets (a set) are the ones the dispatch
/// stage planned for the kernel. A key the later step computes differently
/// (other targets on its command line) is only an entry fetched in vain.
void prefetchFollowing(KernelStore &store, StageId stage,
                       const KernelProduct &kernel,
                       const StageOptions &options,
                       mlir::MLIRContext &context);

} // namespace accy

#endif // ACCY_LIB_PIPELINE_REMOTEPREFETCH_H
