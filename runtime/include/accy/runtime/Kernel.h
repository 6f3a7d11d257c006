//===- Kernel.h - What generated code tells the runtime ---------*- C++ -*-===//
//
// The registration table that `accyc stage target` writes into NAME.accy.cpp:
// per file a Module (the device images, in NAME.images.o, and the kernels), per kernel
// its parameters (element type, static sizes and symbolic dimension names),
// the intermediate buffers of its memory plan and, per GPU target, the
// launches in order. Sizes that depend on the tensors' shapes live in
// "slots", which a generated function computes from the symbols (docs/abi.md:
// symbol i is a dimension of an entry argument).
//
// This is an interface between accyc's output and the runtime of the same
// version, not for hand-written code.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_RUNTIME_KERNEL_H
#define ACCY_RUNTIME_KERNEL_H

#include "accy/Runtime.h"

#include <cstddef>

namespace accy::detail {

/// The values are those NAME.images.o holds.
enum class ImageFormat : uint8_t { Ptx = 0, Hsaco = 1 };

/// One device image of a file: PTX text or an AMDGPU code object. A file's
/// array of them is not C++: accyc writes it into NAME.images.o with LLVM
/// (core/lib/CodeGen/ImageObject.cpp), laid out as asserted below.
struct Image {
  const char *target; // "sm_90", "gfx942"
  ImageFormat format;
  const unsigned char *bytes; // followed by a 0, which `size` leaves out
  size_t size;
};
static_assert(sizeof(void *) == 8 && sizeof(size_t) == 8 &&
                  offsetof(Image, format) == 8 &&
                  offsetof(Image, bytes) == 16 &&
                  offsetof(Image, size) == 24 && sizeof(Image) == 32,
              "NAME.images.o lays Image out as {ptr, i8, ptr, i64}");

/// A dimension of a parameter: a static size, or a named symbolic one.
struct Dim {
  int64_t size;   // >= 0: static
  int32_t symbol; // size < 0: index into Kernel::dimNames
};

struct Param {
  const char *name;
  ElementType element;
  int32_t rank;
  const Dim *dims;
  bool output;
};

/// Symbol i of the kernel summary: dimension `dim` of parameter `param`.
struct SymbolRef {
  int32_t param;
  int32_t dim;
};

/// An intermediate buffer of the memory plan, allocated around a GPU launch.
struct Buffer {
  int32_t rank;
  int32_t bytesSlot;
  int32_t shapeSlot; // `rank` consecutive slots
};

struct Argument {
  enum class Kind : uint8_t { Param, Buffer, Index, Scalar } kind;
  /// Param: parameter index; Buffer: buffer id; Index: slot.
  int32_t index;
  /// Scalar: the value's bytes (little-endian) and their count.
  uint64_t scalarBits;
  uint8_t scalarBytes;
};

struct Launch {
  const char *function; // entry point in the image
  uint32_t block[3];
  int32_t gridSlot; // three consecutive slots
  const Argument *arguments;
  int32_t numArguments;
};

struct TargetPlan {
  const char *target;
  const Launch *launches;
  int32_t numLaunches;
};

struct Module;

struct Kernel {
  const char *name;
  const Module *module;
  const Param *params;
  int32_t numParams;
  const char *const *dimNames;
  int32_t numDimNames;
  const SymbolRef *symbols;
  int32_t numSymbols;
  const Buffer *buffers;
  int32_t numBuffers;
  const TargetPlan *targets;
  int32_t numTargets;
  /// Computes `numSlots` values from the symbols.
  void (*evaluate)(const int64_t *symbols, int64_t *slots);
  int32_t numSlots;
  /// The host object's entry (descriptors of the params in order); null
  /// when the file was not compiled for the host.
  void (*host)(void *const *descriptors);
};

/// One compiled .accy file: its images and kernels. The runtime loads a
/// module's image at most once per process.
struct Module {
  const char *name;
  const Image *images;
  int32_t numImages;
  const Kernel *const *kernels;
  int32_t numKernels;
};

/// A parameter as the caller passed it.
struct TensorArg {
  void *data;
  const int64_t *sizes;
  const int64_t *strides;
};

template <typename T, size_t Rank>
TensorArg tensorArg(const TensorView<T, Rank> &view) {
  return {const_cast<void *>(static_cast<const void *>(view.data)),
          view.sizes.data(), view.strides.data()};
}

/// Checks `args` (one per parameter) against the kernel and runs it on the
/// runtime's device.
Status launch(const Kernel &kernel, const TensorArg *args, Stream stream);

} // namespace accy::detail

#endif // ACCY_RUNTIME_KERNEL_H
