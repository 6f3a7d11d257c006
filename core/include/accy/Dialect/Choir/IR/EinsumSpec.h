//===- EinsumSpec.h - Parsed einsum specifications --------------*- C++ -*-===//
//
// The one parser of einsum specifications below the frontend: the einsum
// verifier, the saturation rewrites and the lowering to linalg all read specs
// through it.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_DIALECT_CHOIR_IR_EINSUMSPEC_H
#define ACCY_DIALECT_CHOIR_IR_EINSUMSPEC_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace accy::choir {

/// An einsum specification with its ellipses expanded for given operand
/// ranks. Each operand and the result are lists of dimension labels; labels
/// produced by an ellipsis are the upper-case letters 'A', 'B', ... (source
/// specs only use lower-case letters), so every label is one char.
struct EinsumSpec {
  llvm::SmallVector<std::string> operands;
  std::string result;

  /// Every distinct label, in order of first appearance (operands, result).
  std::string labels() const;
  /// True when the label appears in the result (a parallel dimension).
  bool isParallel(char label) const;

  /// Parses `spec` for operands of the given ranks. The error message names
  /// the spec and says what is wrong with it.
  static llvm::Expected<EinsumSpec> parse(llvm::StringRef spec,
                                          llvm::ArrayRef<int64_t> ranks);
  /// Prints the expanded spec back, e.g. "bi,ij->bj".
  std::string str() const;
};

} // namespace accy::choir

#endif // ACCY_DIALECT_CHOIR_IR_EINSUMSPEC_H
