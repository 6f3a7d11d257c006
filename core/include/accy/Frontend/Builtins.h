//===- Builtins.h - The built-in functions of Accy --------------*- C++ -*-===//
//
// The table of built-in functions: names, groups and parameters. Sema binds
// call arguments with it (positional arguments fill parameters in order,
// named ones by name, Python-style); completion in the language server
// lists it.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_FRONTEND_BUILTINS_H
#define ACCY_FRONTEND_BUILTINS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace accy {

enum class Builtin : uint8_t {
  // Elementwise activations: one operand, same type.
  Relu, Gelu, Sigmoid, Tanh, Silu, Exp, Log, Sqrt, Rsqrt, Abs,
  // Normalizations along one axis: same type.
  Softmax, LogSoftmax,
  // Reductions.
  Sum, Mean, Max, Min,
  // Contractions: `einsum(...)` and the `@` operator (not callable by name).
  Einsum, MatMul,
  // Indexing and shape manipulation.
  Take, Transpose, Reshape, Broadcast, Concat,
  // Scans along one axis.
  Cumsum, Cummax,
  // Losses: scalar results.
  Mse, CrossEntropy, Nll,
  // Miscellaneous.
  Select, Cast, Full, Iota,
};

enum class BuiltinGroup : uint8_t {
  Activation, Reduction, Contraction, Indexing, Scan, Loss, Misc,
};

/// What a parameter accepts.
enum class ParamKind : uint8_t {
  Tensor,     ///< Any value expression (scalars included).
  TensorList, ///< A list literal of value expressions: [a, b].
  Axis,       ///< A constant integer (negative counts from the end).
  AxisOrList, ///< A constant integer or a list of them.
  Bool,       ///< A constant bool.
  IntList,    ///< A constant list of integers (perm).
  Shape,      ///< A list of dimensions: integers, integer consts, dimension
              ///< names and + - * of those.
  Dim,        ///< One dimension, as in a Shape.
  Spec,       ///< A string literal (the einsum specification).
};

struct BuiltinParam {
  const char *name;
  ParamKind kind;
  bool required;
  /// Compile-time constant parameters may be passed by name.
  bool isConstant() const {
    return kind != ParamKind::Tensor && kind != ParamKind::TensorList;
  }
};

struct BuiltinInfo {
  Builtin id;
  const char *name; ///< "softmax"; "@" for MatMul.
  BuiltinGroup group;
  const char *signature; ///< For documentation and completion.
  llvm::ArrayRef<BuiltinParam> params;
  /// Extra positional tensors after the last parameter (einsum operands).
  bool variadicTensors = false;
  /// False for MatMul, which is only the `@` operator.
  bool callable = true;
};

const BuiltinInfo &getBuiltinInfo(Builtin id);
/// The callable built-in with this name, or null.
const BuiltinInfo *lookupBuiltin(llvm::StringRef name);
/// Every built-in, in enum order.
llvm::ArrayRef<BuiltinInfo> allBuiltins();
/// Names of the callable built-ins (for suggestions).
std::vector<std::string> builtinNames();

} // namespace accy

#endif // ACCY_FRONTEND_BUILTINS_H
