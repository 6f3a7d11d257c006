//===- Types.h - Element types, dimensions and tensor types -----*- C++ -*-===//
//
// Every typed expression has a TensorType: an element type and a shape. A
// scalar is a tensor of rank 0.
//
// A dimension (Dim) is a polynomial with integer coefficients over symbolic
// sizes, kept in a canonical form so that equal sizes compare equal:
//  - static:   no symbol, e.g. 784                  (isStatic())
//  - symbolic: exactly one symbol, e.g. N           (isSymbol())
//    Symbols are the dimension names bound by the kernel's parameters.
//  - dynamic:  anything else, e.g. N - 1 or N*D     (isDynamic())
//    These come from slices with symbolic bounds (x[1:N] has size N - 1),
//    concat along symbolic axes (N + M) and reshapes (N*D). The value is
//    computable at run time from the symbols' values: evaluate terms().
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_FRONTEND_TYPES_H
#define ACCY_FRONTEND_TYPES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace accy {

enum class ElemType : uint8_t { F16, BF16, F32, F64, I32, I64, Bool };

/// "f32", "bf16", ...
llvm::StringRef elemTypeName(ElemType type);
bool isFloat(ElemType type);
bool isInteger(ElemType type);
/// Size of one element in bytes (bool is 1).
unsigned elemTypeBytes(ElemType type);

class Dim {
public:
  /// One monomial: coeff * symbols[0] * symbols[1] * ... (symbols sorted,
  /// possibly repeated; empty for the constant term).
  struct Term {
    int64_t coeff = 0;
    std::vector<std::string> symbols;
    friend bool operator==(const Term &a, const Term &b) {
      return a.coeff == b.coeff && a.symbols == b.symbols;
    }
  };

  /// The static size 0.
  Dim() = default;
  static Dim constant(int64_t value);
  static Dim symbol(llvm::StringRef name);

  bool isStatic() const;
  bool isSymbol() const;
  bool isDynamic() const { return !isStatic() && !isSymbol(); }
  /// The static size, if isStatic().
  std::optional<int64_t> getStatic() const;
  /// The symbol's name, if isSymbol(); "" otherwise.
  llvm::StringRef getSymbol() const;
  /// The canonical terms: highest degree first, then by symbol names; the
  /// constant term (if non-zero) last. Empty for the static size 0.
  llvm::ArrayRef<Term> terms() const { return termList; }
  /// Every distinct symbol used, sorted.
  std::vector<std::string> symbols() const;

  /// Arithmetic; nullopt when a coefficient overflows int64.
  static std::optional<Dim> add(const Dim &a, const Dim &b);
  static std::optional<Dim> sub(const Dim &a, const Dim &b);
  static std::optional<Dim> mul(const Dim &a, const Dim &b);
  /// Exact division by a static or single-monomial divisor; nullopt if the
  /// division is not exact in the polynomial sense.
  static std::optional<Dim> divExact(const Dim &a, const Dim &b);
  /// Replaces symbols by dims (symbols without an entry stay).
  std::optional<Dim> substitute(const std::map<std::string, Dim> &map) const;
  /// Evaluates with the symbols' run-time values.
  std::optional<int64_t>
  evaluate(const std::function<std::optional<int64_t>(llvm::StringRef)>
               &valueOf) const;

  /// "784", "N", "N - 1", "2*N + 3", "N*D".
  std::string str() const;

  friend bool operator==(const Dim &a, const Dim &b) {
    return a.termList == b.termList;
  }
  friend bool operator!=(const Dim &a, const Dim &b) { return !(a == b); }

private:
  void canonicalize();
  std::vector<Term> termList;
};

using Shape = std::vector<Dim>;

struct TensorType {
  ElemType elem = ElemType::F32;
  Shape shape;

  TensorType() = default;
  TensorType(ElemType elem, Shape shape = {})
      : elem(elem), shape(std::move(shape)) {}
  unsigned rank() const { return shape.size(); }
  bool isScalar() const { return shape.empty(); }
  /// "f32[N, 784]", "f32" for a scalar.
  std::string str() const;
  friend bool operator==(const TensorType &a, const TensorType &b) {
    return a.elem == b.elem && a.shape == b.shape;
  }
  friend bool operator!=(const TensorType &a, const TensorType &b) {
    return !(a == b);
  }
};

/// "[N, 784]".
std::string shapeStr(llvm::ArrayRef<Dim> shape);

} // namespace accy

#endif // ACCY_FRONTEND_TYPES_H
