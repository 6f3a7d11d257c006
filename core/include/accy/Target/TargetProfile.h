//===- TargetProfile.h - What Accy knows about each code target -*- C++ -*-===//
//
// A target profile is the fixed description of one code target (an NVIDIA
// compute capability, an AMD GPU chip, or the x86-64 host): the numbers the
// schedule planner sizes tiles and launches from, and the triple/chip/features
// the backend compiles for. Profiles are constants: products depend on the
// profile name only, never on the machine the compiler runs on.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_TARGET_TARGETPROFILE_H
#define ACCY_TARGET_TARGETPROFILE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace accy {

/// The backend family a profile compiles through.
enum class TargetKind { NVPTX, AMDGPU, Host };

/// The matrix instructions a target's contractions of f16 and bf16 inputs
/// (with f32 accumulation) may use: none, NVIDIA's warp-level `mma.sync`
/// (sm_80 and later), or AMD's `v_mfma` (CDNA 2 and 3).
enum class TensorCores { None, MmaSync, Mfma };

/// The kind of artifact a target produces.
enum class ArtifactKind { PTX, HSACO, HostObject };

struct TargetProfile {
  /// Name used on command lines and in products: "sm_90", "gfx942", "host".
  llvm::StringRef name;
  TargetKind kind;
  /// LLVM target triple, CPU/chip name and feature string.
  llvm::StringRef triple;
  llvm::StringRef chip;
  llvm::StringRef features;
  /// Threads that execute in lock step (warp or wavefront); 1 on the host.
  unsigned subgroupSize;
  /// Hardware limit on threads per block (workgroup).
  unsigned maxThreadsPerBlock;
  /// Statically allocatable shared (LDS) memory per block, in bytes.
  unsigned maxSharedMemoryPerBlock;
  /// Threads per block the planner uses for elementwise and reduction
  /// schedules; a multiple of subgroupSize.
  unsigned defaultBlockSize;
  /// Streaming multiprocessors / compute units (0 on the host); informs how
  /// many blocks keep the device busy.
  unsigned numComputeUnits;
  /// Side of the square output tile a block computes in the tiled
  /// contraction schedule, and the reduction-dimension tile staged through
  /// shared memory.
  unsigned contractionTile;
  unsigned contractionTileK;
  TensorCores tensorCores;

  bool isGPU() const { return kind != TargetKind::Host; }
  ArtifactKind artifactKind() const;
  /// "ptx", "hsaco" or "host-object".
  llvm::StringRef artifactKindName() const;
  /// File suffix of the artifact: ".ptx", ".hsaco", ".o".
  llvm::StringRef artifactExtension() const;
};

/// Every profile Accy knows, in canonical order (sm_80, sm_90, gfx90a,
/// gfx942, host).
llvm::ArrayRef<TargetProfile> getTargetProfiles();

/// The profile named `name`, or an error naming the known profiles.
llvm::Expected<const TargetProfile &> lookupTargetProfile(llvm::StringRef name);

/// Parses a comma-separated list such as "sm_90,gfx942,host". Whitespace
/// around names is ignored, duplicates are dropped, and the result is in
/// canonical order so that "host,sm_90" and "sm_90,host" plan identically.
/// An empty list or an unknown name is an error.
llvm::Expected<llvm::SmallVector<const TargetProfile *>>
parseTargetList(llvm::StringRef list);

/// The names of `profiles` joined by ','.
std::string joinTargetNames(llvm::ArrayRef<const TargetProfile *> profiles);

/// Default target list of the stage pipelines.
inline constexpr llvm::StringLiteral kDefaultTargets = "sm_90,gfx942,host";

} // namespace accy

#endif // ACCY_TARGET_TARGETPROFILE_H
