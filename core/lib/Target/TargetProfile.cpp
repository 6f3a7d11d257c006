//===- TargetProfile.cpp - The table of code targets ----------------------===//

#include "accy/Target/TargetProfile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace accy;

// Shared memory: 48 KiB is the static per-block limit on NVIDIA parts (more
// needs the dynamic opt-in, which our static workgroup buffers do not use);
// 64 KiB of LDS per workgroup on CDNA. PTX 8.0 covers sm_80 and sm_90 and is
// accepted by the ptxas of CUDA 12 and 13.
static const TargetProfile kProfiles[] = {
    {"sm_80", TargetKind::NVPTX, "nvptx64-nvidia-cuda", "sm_80", "+ptx80",
     /*subgroupSize=*/32, /*maxThreadsPerBlock=*/1024,
     /*maxSharedMemoryPerBlock=*/48 * 1024, /*defaultBlockSize=*/256,
     /*numComputeUnits=*/108, /*contractionTile=*/128, /*contractionTileK=*/8,
     TensorCores::MmaSync},
    {"sm_90", TargetKind::NVPTX, "nvptx64-nvidia-cuda", "sm_90", "+ptx80", 32,
     1024, 48 * 1024, 256, 132, 128, 8, TensorCores::MmaSync},
    {"gfx90a", TargetKind::AMDGPU, "amdgcn-amd-amdhsa", "gfx90a", "", 64, 1024,
     64 * 1024, 256, 104, 128, 8, TensorCores::Mfma},
    {"gfx942", TargetKind::AMDGPU, "amdgcn-amd-amdhsa", "gfx942", "", 64, 1024,
     64 * 1024, 256, 304, 128, 8, TensorCores::Mfma},
    // The host object targets x86-64-v2 (SSE4.2, every x86-64 CPU since
    // 2009): floor/ceil/trunc/roundeven are instructions there, not libm
    // calls. The bytes never depend on the CPU of the compiling machine.
    {"host", TargetKind::Host, "x86_64-unknown-linux-gnu", "x86-64-v2", "", 1,
     1, 0, 1, 0, 16, 16, TensorCores::None},
};

ArtifactKind TargetProfile::artifactKind() const {
  switch (kind) {
  case TargetKind::NVPTX:
    return ArtifactKind::PTX;
  case TargetKind::AMDGPU:
    return ArtifactKind::HSACO;
  case TargetKind::Host:
    return ArtifactKind::HostObject;
  }
  llvm_unreachable("unknown target kind");
}

llvm::StringRef TargetProfile::artifactKindName() const {
  switch (artifactKind()) {
  case ArtifactKind::PTX:
    return "ptx";
  case ArtifactKind::HSACO:
    return "hsaco";
  case ArtifactKind::HostObject:
    return "host-object";
  }
  llvm_unreachable("unknown artifact kind");
}

llvm::StringRef TargetProfile::artifactExtension() const {
  switch (artifactKind()) {
  case ArtifactKind::PTX:
    return ".ptx";
  case ArtifactKind::HSACO:
    return ".hsaco";
  case ArtifactKind::HostObject:
    return ".o";
  }
  llvm_unreachable("unknown artifact kind");
}

llvm::ArrayRef<TargetProfile> accy::getTargetProfiles() { return kProfiles; }

llvm::Expected<const TargetProfile &>
accy::lookupTargetProfile(llvm::StringRef name) {
  for (const TargetProfile &profile : kProfiles)
    if (profile.name == name)
      return profile;
  std::string known;
  for (const TargetProfile &profile : kProfiles)
    known += (known.empty() ? "" : ", ") + profile.name.str();
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "unknown target '%s' (known targets: %s)",
                                 name.str().c_str(), known.c_str());
}

llvm::Expected<llvm::SmallVector<const TargetProfile *>>
accy::parseTargetList(llvm::StringRef list) {
  llvm::SmallVector<llvm::StringRef> names;
  list.split(names, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  llvm::SmallVector<const TargetProfile *> result;
  for (llvm::StringRef name : names) {
    name = name.trim();
    if (name.empty())
      continue;
    llvm::Expected<const TargetProfile &> profile = lookupTargetProfile(name);
    if (!profile)
      return profile.takeError();
    if (!llvm::is_contained(result, &*profile))
      result.push_back(&*profile);
  }
  if (result.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "empty target list '%s'",
                                   list.str().c_str());
  llvm::sort(result, [](const TargetProfile *a, const TargetProfile *b) {
    return a < b; // Table order is canonical order.
  });
  return result;
}

std::string
accy::joinTargetNames(llvm::ArrayRef<const TargetProfile *> profiles) {
  std::string result;
  for (const TargetProfile *profile : profiles) {
    if (!result.empty())
      result += ',';
    result += profile->name.str();
  }
  return result;
}
