//===- Embedding.h - Device images and launchers as C++ source -*- C++ -*-===//
//
// The target step's last product for build systems: NAME.accy.h declares one
// typed C++ function per kernel (accy::TensorView per parameter, a stream,
// an accy::Status back) and NAME.accy.cpp defines them over Accy::runtime,
// with a registration table (accy/runtime/Kernel.h) describing each kernel's
// parameters, memory plan and launches. Plain C++17, any compiler.
//
// The device images are not in the C++ but in NAME.images.o, an object
// written directly by LLVM (ImageObject.h) whose table the source names by
// one extern symbol. As string literals in the source they made every edit
// inside a kernel change NAME.accy.cpp, megabytes of it, and its C++ compile
// was half of the rebuild; now the source depends only on the kernels'
// signatures and launch layouts, and stays byte-identical under an edit of
// a kernel's body. See docs/runtime.md.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_CODEGEN_EMBEDDING_H
#define ACCY_CODEGEN_EMBEDDING_H

#include "accy/CodeGen/Artifacts.h"

namespace accy::codegen {

/// One parameter of a kernel's entry, as the caller passes it.
struct ParameterInterface {
  /// The name in the source for an input; `result` (or `result0`,
  /// `result1`, ... when there are several) for a result. The generated
  /// C++ escapes it where C++ would not take it (CxxNames.h).
  std::string name;
  /// "f32", "i32", "bool", ...
  std::string element;
  /// Static size, or -1 for a symbolic dimension named in `dimNames`.
  std::vector<int64_t> sizes;
  std::vector<std::string> dimNames;
  bool output = false;
};

/// An intermediate buffer of the memory plan (`choir.memory`).
struct BufferInterface {
  mlir::AffineExpr bytes;
  std::vector<mlir::AffineExpr> shape;
};

/// What a launcher needs to know about one kernel.
struct KernelInterface {
  std::string name;
  /// In entry argument order: inputs, then results in result order.
  std::vector<ParameterInterface> parameters;
  /// Symbol i is dimension `symbols[i].second` of parameter
  /// `symbols[i].first`; buffer sizes and launches are expressions of them.
  std::vector<std::pair<int64_t, int64_t>> symbols;
  /// Indexed by buffer id.
  std::vector<BufferInterface> buffers;
  /// The GPU launches; empty for a kernel compiled only for the host.
  KernelSummary summary;
};

/// Reads a kernel module of the kernel or target product: the entry's
/// signature (with `choir.dims`), `choir.memory` and `choir.kernels`.
llvm::Expected<KernelInterface> readKernelInterface(mlir::ModuleOp kernel);

struct EmbeddingOptions {
  /// The file's stem: NAME of NAME.accy.h.
  std::string name;
  /// C++ namespace of the launch functions ("" = global), e.g. "app::nn".
  std::string cppNamespace;
};

struct EmbeddingSources {
  std::string header;
  std::string source;
  /// NAME.images.o (ImageObject.h); empty when the file has no GPU target.
  std::string imageObject;
};

/// NAME.accy.h, NAME.accy.cpp and NAME.images.o for `kernels` and the
/// file's `artifacts` (linkFileArtifacts). Deterministic.
llvm::Expected<EmbeddingSources>
generateEmbedding(llvm::ArrayRef<KernelInterface> kernels,
                  llvm::ArrayRef<Artifact> artifacts,
                  const EmbeddingOptions &options);

} // namespace accy::codegen

#endif // ACCY_CODEGEN_EMBEDDING_H
