//===- SourceMap.h - From kernel-relative locations to source ---*- C++ -*-===//
//
// Products after `semantic` carry only kernel-relative locations
// (`loc("kernel#N")`, N a node ordinal), so editing a comment leaves them
// byte-identical. The map from ordinals to source ranges lives beside the
// semantic product (NAME.srcmap.json), never inside a product.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_PIPELINE_SOURCEMAP_H
#define ACCY_PIPELINE_SOURCEMAP_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
class Location;
} // namespace mlir

namespace accy {

/// A source range, 1-based lines and columns (columns count UTF-8 bytes, the
/// end is one past the last character), plus byte offsets.
struct SourceSpan {
  std::string file;
  unsigned line = 0, column = 0, endLine = 0, endColumn = 0;
  unsigned offset = 0, endOffset = 0;
};

class SourceMap {
public:
  /// Records the span of node `ordinal` of `kernel`; returns the location
  /// the emitter attaches to the node's ops.
  std::string addNode(llvm::StringRef kernel, SourceSpan span);
  void setKernelSpan(llvm::StringRef kernel, SourceSpan span);

  std::optional<SourceSpan> lookup(llvm::StringRef kernel,
                                   unsigned ordinal) const;
  std::optional<SourceSpan> kernelSpan(llvm::StringRef kernel) const;
  /// The innermost source span a location names (the call site of an
  /// inlined fn body maps to the call when the callee has no span).
  std::optional<SourceSpan> resolve(mlir::Location loc) const;

  std::string toJson() const;
  static llvm::Expected<SourceMap> fromJson(llvm::StringRef text);

  /// Splits "kernel#12" into its parts.
  static std::optional<std::pair<llvm::StringRef, unsigned>>
  parseNodeName(llvm::StringRef name);

private:
  struct Kernel {
    SourceSpan span;
    std::vector<SourceSpan> nodes;
  };
  llvm::StringMap<Kernel> kernels;
};

} // namespace accy

#endif // ACCY_PIPELINE_SOURCEMAP_H
