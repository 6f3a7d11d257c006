//===- AST.h - The typed AST produced by sema -------------------*- C++ -*-===//
//
// This is the contract between the frontend and the emission to MLIR. After
// sema, a kernel's body is self-contained:
//  - every expression has its resolved TensorType (element type + shape of
//    Dims, see Types.h) and its source range;
//  - names are resolved to their binding (ParamRefExpr -> ParamBinding,
//    LetRefExpr -> LetBinding, ConstRefExpr -> ConstDecl with its value);
//  - scalar literals and consts carry the element type they take from the
//    other operand (`x * 2` with x: f16 has a literal of type f16);
//  - built-in calls and `@` are BuiltinCallExprs with normalized attributes
//    (BuiltinAttrs); indexing is an IndexExpr with one IndexAxis per axis;
//  - calls of `fn` helpers are InlinedCallExprs holding a typed copy of the
//    fn's body with the fn's dimensions replaced by the caller's sizes.
//    Copied nodes keep their original ranges (possibly in an imported file).
//
// A body that had errors may contain ErrorExprs; emit only kernels whose
// `valid` flag is set (no error was reported for them).
//
// Walking: see ASTWalk.h (deterministic pre-order, iterative).
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_FRONTEND_AST_H
#define ACCY_FRONTEND_AST_H

#include "accy/Frontend/Builtins.h"
#include "accy/Frontend/Source.h"
#include "accy/Frontend/Types.h"

#include "llvm/Support/Casting.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace accy {

class Expr;
class InlinedCallExpr;
using ExprPtr = std::unique_ptr<Expr>;

/// A scalar compile-time value: a literal or a const's value.
struct ScalarValue {
  enum class Kind : uint8_t { Int, Float, Bool };
  Kind kind = Kind::Int;
  int64_t intValue = 0;
  double floatValue = 0;
  bool boolValue = false;

  static ScalarValue ofInt(int64_t v) { return {Kind::Int, v, 0, false}; }
  static ScalarValue ofFloat(double v) { return {Kind::Float, 0, v, false}; }
  static ScalarValue ofBool(bool v) { return {Kind::Bool, 0, 0, v}; }
  /// The value as a double / integer, whatever its kind.
  double asDouble() const;
  int64_t asInt() const;
  /// "42", "1e-05", "true".
  std::string str() const;
};

/// A `const NAME = literal;` item.
struct ConstDecl {
  std::string name;
  ScalarValue value;
  /// The type the const has where nothing gives it one (f32 for a float,
  /// i32 for an integer that fits, else i64, bool).
  ElemType defaultType = ElemType::F32;
  FileID file;
  SourceRange range, nameRange;
};

/// A parameter of a kernel, of a fn, or of one inlined fn call.
struct ParamBinding {
  std::string name;
  unsigned index = 0; ///< Position in the parameter list.
  TensorType type;    ///< For an inlined call: with the caller's sizes.
  SourceRange range, nameRange;
  /// The inlined call whose parameter this is (its argument `index` gives
  /// the value); null for a kernel's or a fn definition's own parameters.
  const InlinedCallExpr *owner = nullptr;
};

/// `let name = value;`
struct LetBinding {
  std::string name;
  ExprPtr value;
  SourceRange range, nameRange;
  const TensorType &type() const;
};

/// The statements of a body: lets in order, then the returned values (one,
/// or several for `return (a, b);`).
struct Body {
  std::vector<std::unique_ptr<LetBinding>> lets;
  std::vector<ExprPtr> results;
  SourceRange returnRange;
};

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

enum class ExprKind : uint8_t {
  Literal,     ///< LiteralExpr
  ConstRef,    ///< ConstRefExpr
  ParamRef,    ///< ParamRefExpr
  LetRef,      ///< LetRefExpr
  Neg,         ///< NegExpr: unary minus
  Binary,      ///< BinaryExpr: + - * / and comparisons, with broadcasting
  BuiltinCall, ///< BuiltinCallExpr: built-in functions and `@`
  Index,       ///< IndexExpr: x[...]
  InlinedCall, ///< InlinedCallExpr: a call of a fn helper
  Error,       ///< ErrorExpr: only in bodies with errors
};
llvm::StringRef exprKindName(ExprKind kind);

class Expr {
public:
  virtual ~Expr();
  ExprKind getKind() const { return kind; }

  TensorType type;
  SourceRange range;
  /// True for a scalar literal or const (and negations and arithmetic of
  /// those) whose element type is still open: sema gives it the type of the
  /// other operand. Informational after sema.
  bool weak = false;

protected:
  Expr(ExprKind kind, TensorType type, SourceRange range)
      : type(std::move(type)), range(range), kind(kind) {}

private:
  ExprKind kind;
};

#define ACCY_AST_CLASSOF(K)                                                    \
  static bool classof(const Expr *e) { return e->getKind() == ExprKind::K; }

class LiteralExpr : public Expr {
public:
  LiteralExpr(ScalarValue value, ElemType elem, SourceRange range)
      : Expr(ExprKind::Literal, TensorType(elem), range), value(value) {}
  /// As written; convert to `type.elem` when emitting (an Int literal may
  /// have type f32).
  ScalarValue value;
  ACCY_AST_CLASSOF(Literal)
};

class ConstRefExpr : public Expr {
public:
  ConstRefExpr(const ConstDecl *decl, ElemType elem, SourceRange range)
      : Expr(ExprKind::ConstRef, TensorType(elem), range), decl(decl) {}
  const ConstDecl *decl; ///< decl->value is the value to emit.
  ACCY_AST_CLASSOF(ConstRef)
};

class ParamRefExpr : public Expr {
public:
  ParamRefExpr(const ParamBinding *param, SourceRange range)
      : Expr(ExprKind::ParamRef, param->type, range), param(param) {}
  const ParamBinding *param;
  ACCY_AST_CLASSOF(ParamRef)
};

class LetRefExpr : public Expr {
public:
  LetRefExpr(const LetBinding *let, SourceRange range)
      : Expr(ExprKind::LetRef, let->type(), range), let(let) {}
  const LetBinding *let;
  ACCY_AST_CLASSOF(LetRef)
};

class NegExpr : public Expr {
public:
  NegExpr(ExprPtr operand, SourceRange range);
  ExprPtr operand;
  ACCY_AST_CLASSOF(Neg)
};

enum class BinaryOpKind : uint8_t {
  Add, Sub, Mul, Div,
  Less, LessEqual, Greater, GreaterEqual, Equal, NotEqual,
};
llvm::StringRef binaryOpKindSpelling(BinaryOpKind op);
bool isComparison(BinaryOpKind op);

/// Elementwise with NumPy broadcasting: `type.shape` is the broadcast shape
/// of both operands (aligned from the right, size-1 axes stretched). Both
/// operands have the same element type; comparisons yield bool.
/// Integer `/` is rejected by sema.
class BinaryExpr : public Expr {
public:
  BinaryExpr(BinaryOpKind op, ExprPtr lhs, ExprPtr rhs, TensorType type,
             SourceRange range, SourceRange opRange)
      : Expr(ExprKind::Binary, std::move(type), range), op(op),
        opRange(opRange), lhs(std::move(lhs)), rhs(std::move(rhs)) {}
  BinaryOpKind op;
  SourceRange opRange;
  ExprPtr lhs, rhs;
  ACCY_AST_CLASSOF(Binary)
};

/// One operand's (or the output's) subscripts in an einsum.
struct EinsumTerm {
  std::string letters;    ///< Lower-case letters as written, without '...'.
  int ellipsisPos = -1;   ///< '...' stands before letters[ellipsisPos];
                          ///< -1 when there is no ellipsis.
  unsigned ellipsisRank = 0; ///< Axes the ellipsis covers in this operand.
  /// One label per axis: the letters, with the ellipsis expanded to
  /// upper-case batch labels aligned from the right ('A' is the outermost
  /// axis of the output's batch), as accy::choir::EinsumSpec does.
  std::string expanded;
};

/// A parsed and checked einsum specification.
struct EinsumSpec {
  std::string text; ///< As written; "...ij,...jk->...ik" for `@`.
  std::vector<EinsumTerm> inputs;
  EinsumTerm output;
  /// The size of every label of the expanded terms (lower-case letters and
  /// upper-case batch labels), sorted by label. For batch labels this is
  /// the broadcast size; an operand axis of size 1 broadcasts to it.
  std::vector<std::pair<char, Dim>> labelSizes;
  /// Labels that appear in inputs but not in the output (summed over).
  std::string contracted;
  const Dim *sizeOf(char label) const;
};

/// Normalized attributes of a built-in call. Which fields are meaningful
/// depends on the builtin:
///   softmax, log_softmax, cumsum, cummax, take, concat: `axes` = {axis}
///   sum, mean, max, min: `axes` (sorted, unique, non-negative; every axis
///     when no `axis` was given), `keepdims`
///   transpose: `perm` (the result's axis i is operand axis perm[i])
///   reshape, broadcast, full: `shape` (the result shape; -1 resolved)
///   iota: `shape` = {N}
///   cast: `castTo`
///   einsum, @: `einsum`
struct BuiltinAttrs {
  std::vector<int64_t> axes;
  bool keepdims = false;
  std::vector<int64_t> perm;
  Shape shape;
  ElemType castTo = ElemType::F32;
  EinsumSpec einsum;
  /// The single axis of one-axis builtins.
  int64_t axis() const { return axes.empty() ? 0 : axes.front(); }
};

/// A built-in call (or `@`). Operands, in order:
///   activations, softmax, log_softmax, reductions, scans, transpose,
///   reshape, broadcast, cast: {x}
///   einsum: the tensors;  @: {a, b};  take: {x, idx}
///   concat: the listed tensors;  mse: {pred, target}
///   cross_entropy: {logits, labels};  nll: {logp, labels}
///   select: {cond, a, b} (broadcast together; a and b share the result's
///   element type);  full: {value} (a scalar);  iota: {}
/// Losses return a scalar of the prediction's element type (the mean over
/// all elements for mse, over the batch for cross_entropy and nll).
class BuiltinCallExpr : public Expr {
public:
  BuiltinCallExpr(Builtin builtin, TensorType type, SourceRange range,
                  SourceRange calleeRange)
      : Expr(ExprKind::BuiltinCall, std::move(type), range),
        builtin(builtin), calleeRange(calleeRange) {}
  Builtin builtin;
  SourceRange calleeRange; ///< The name (or the `@` operator).
  std::vector<ExprPtr> operands;
  BuiltinAttrs attrs;
  ACCY_AST_CLASSOF(BuiltinCall)
};

/// What `x[...]` does with one axis of the base.
struct IndexAxis {
  enum class Kind : uint8_t {
    Full,   ///< `:` or not mentioned: the axis is kept.
    Slice,  ///< `a:b`: keeps [start, stop); size stop - start.
    Point,  ///< an integer: selects `start`, the axis is dropped.
    Gather, ///< an i32 tensor: replaced by the index tensor's axes (take).
  };
  Kind kind = Kind::Full;
  /// Slice: [start, stop) with omitted bounds filled in and negative
  /// constant bounds counted from the end (so start <= stop <= size).
  /// Point: `start` is the position. Both may be symbolic.
  Dim start, stop;
  /// False when a bound could not be proven in range at compile time (a
  /// symbolic bound): the host launcher checks it at run time.
  bool provenInRange = true;
  SourceRange range;
};

/// x[items]: operands are {base} or {base, gather index}; `axes` has one
/// entry per axis of the base (at most one Gather).
class IndexExpr : public Expr {
public:
  IndexExpr(TensorType type, SourceRange range)
      : Expr(ExprKind::Index, std::move(type), range) {}
  std::vector<ExprPtr> operands;
  std::vector<IndexAxis> axes;
  const Expr &base() const { return *operands[0]; }
  const Expr *gatherIndex() const {
    return operands.size() > 1 ? operands[1].get() : nullptr;
  }
  ACCY_AST_CLASSOF(Index)
};

struct Function;

/// A call of a fn helper, inlined: evaluate `args` in the caller, bind
/// `params[i]` to `args[i]`, evaluate `body.lets` in order, and the value is
/// `body.results[0]`. `dimBindings` maps each of the fn's dimension names to
/// the caller's size; the types inside the body already use the caller's
/// sizes.
class InlinedCallExpr : public Expr {
public:
  InlinedCallExpr(const Function *callee, TensorType type, SourceRange range,
                  SourceRange calleeRange)
      : Expr(ExprKind::InlinedCall, std::move(type), range), callee(callee),
        calleeRange(calleeRange) {}
  const Function *callee;
  SourceRange calleeRange;
  std::vector<ExprPtr> args;
  std::vector<std::unique_ptr<ParamBinding>> params;
  Body body;
  std::vector<std::pair<std::string, Dim>> dimBindings;
  ACCY_AST_CLASSOF(InlinedCall)
};

class ErrorExpr : public Expr {
public:
  explicit ErrorExpr(SourceRange range)
      : Expr(ExprKind::Error, TensorType(ElemType::F32), range) {}
  ACCY_AST_CLASSOF(Error)
};

#undef ACCY_AST_CLASSOF

//===----------------------------------------------------------------------===//
// Items
//===----------------------------------------------------------------------===//

/// Where a kernel's (or fn's) symbolic dimension is first bound.
struct DimSymbol {
  std::string name;
  unsigned param = 0; ///< Index of the parameter.
  unsigned axis = 0;  ///< Axis of that parameter's type.
  SourceRange range;  ///< The name in the parameter's type.
};

/// Shared by kernels and fn helpers.
struct FunctionBase {
  std::string name;
  FileID file;
  SourceRange range, nameRange;
  std::vector<std::unique_ptr<ParamBinding>> params;
  std::vector<TensorType> results;
  std::vector<SourceRange> resultRanges;
  /// The symbolic dimensions in order of first appearance in the params.
  std::vector<DimSymbol> symbols;
  Body body;
  /// True when no error was reported in the item (header or body).
  bool valid = false;
};

/// A `kernel` item: an entry point.
struct Kernel : FunctionBase {};

/// A `fn` helper. `body` is typed generically (with the fn's own symbolic
/// dimensions); kernels get InlinedCallExpr copies instead of calls.
struct Function : FunctionBase {};

} // namespace accy

#endif // ACCY_FRONTEND_AST_H
