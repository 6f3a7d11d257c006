//===- SemaImpl.h - The semantic checker (internal) -------------*- C++ -*-===//
#ifndef ACCY_LIB_FRONTEND_SEMAIMPL_H
#define ACCY_LIB_FRONTEND_SEMAIMPL_H

#include "accy/Frontend/Builtins.h"
#include "accy/Frontend/Sema.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace accy::sema {

struct ModuleState;
struct FnState;

/// A module-level name: a const, fn or kernel of some module.
struct NamedItem {
  enum class Kind { Const, Fn, Kernel };
  Kind kind = Kind::Const;
  std::string name;
  SourceRange nameRange;
  ModuleState *home = nullptr;
  const syntax::ConstDecl *constSyntax = nullptr;
  ConstDecl *constDecl = nullptr; ///< Null while unchecked or invalid.
  bool constChecked = false;
  FnState *fn = nullptr;
  const syntax::FunctionDecl *kernelSyntax = nullptr;
};

struct ModuleState {
  SourceModule *module = nullptr;
  std::vector<std::unique_ptr<NamedItem>> own;
  /// Everything visible by name: own items plus imported consts and fns.
  std::map<std::string, NamedItem *> names;
};

struct FnState {
  const syntax::FunctionDecl *decl = nullptr;
  ModuleState *home = nullptr;
  Function *fn = nullptr;
  enum class Status { Unchecked, Checking, Checked };
  Status status = Status::Unchecked;
  bool headerOk = false;
  bool ok = false; ///< Header and generic body free of errors.
  std::vector<TensorType> paramTypes;  ///< With the fn's own symbols.
  std::vector<TensorType> resultTypes; ///< With the fn's own symbols.
};

/// Names visible inside one body (a kernel, a fn, or one inlined call).
struct Scope {
  ModuleState *module = nullptr;
  /// Dimension names and what they stand for here (symbols in a kernel or
  /// a fn definition; the caller's sizes in an inlined call).
  std::map<std::string, Dim> dims;
  std::map<std::string, SourceRange> dimRanges;
  std::vector<ParamBinding *> params;
  std::map<std::string, const LetBinding *> lets;
};

/// A compile-time value of a constant argument, slice bound or dimension.
struct CValue {
  enum class Kind { Int, Float, Bool, String, List, Dim, NotConst, Error };
  Kind kind = Kind::NotConst;
  int64_t intValue = 0;
  double floatValue = 0;
  bool boolValue = false;
  std::string stringValue;
  std::vector<CValue> list;
  Dim dim;
  SourceRange range;

  bool isIntLike() const { return kind == Kind::Int || kind == Kind::Dim; }
  /// Int or Dim as a Dim.
  Dim asDim() const {
    return kind == Kind::Int ? Dim::constant(intValue) : dim;
  }
  std::string describe() const;
};

/// The size two broadcast axes have together, or nothing when they do not
/// broadcast (NumPy rules; a symbolic size only against itself or 1).
std::optional<Dim> broadcastDim(const Dim &a, const Dim &b);
/// NumPy broadcasting of two shapes, without diagnostics.
std::optional<Shape> tryBroadcast(const Shape &a, const Shape &b);

class Sema {
public:
  Sema(CompilationUnit &unit, DiagnosticEngine &diags,
       const SemaLimits &limits);
  void run();

  //===--- Reporting (Sema.cpp) --------------------------------------------===//
  /// Reports an error, with a note for each fn instantiation in progress.
  DiagnosticEngine::Builder error(DiagCode code, SourceRange range,
                                  std::string message);
  /// A placeholder for a failed expression; marks the current item invalid.
  ExprPtr makeError(SourceRange range);
  template <typename T, typename... Args>
  std::unique_ptr<T> make(Args &&...args) {
    ++nodeCount;
    return std::make_unique<T>(std::forward<Args>(args)...);
  }

  //===--- Items (Sema.cpp) ------------------------------------------------===//
  void declareModule(ModuleState &ms);
  void importNames(ModuleState &ms);
  ConstDecl *ensureConst(NamedItem &item);
  void ensureFnChecked(FnState &fs);
  void checkKernel(const syntax::FunctionDecl &decl, ModuleState &ms);
  /// Resolves params and results of a kernel or fn into `item` and `scope`.
  bool checkSignature(const syntax::FunctionDecl &decl, ModuleState &ms,
                      FunctionBase &item, Scope &scope,
                      std::vector<TensorType> &paramTypes);
  bool resolveType(const syntax::TypeSyntax &type, ModuleState &ms,
                   TensorType &out);
  /// Checks statements into `out`; `results` are the declared result types.
  void checkBody(const std::vector<syntax::Stmt> &stmts, Scope &scope,
                 Body &out, llvm::ArrayRef<TensorType> results,
                 llvm::StringRef itemName, bool isKernel,
                 bool hadParseError, SourceRange bodyRange);
  void checkShadowing(llvm::StringRef name, SourceRange range, Scope &scope,
                      bool isParam);

  //===--- Expressions (SemaExpr.cpp) --------------------------------------===//
  ExprPtr checkExpr(const syntax::Expr &e, Scope &scope);
  ExprPtr checkName(const syntax::NameExpr &e, Scope &scope);
  ExprPtr checkBinary(const syntax::BinaryExpr &e, Scope &scope);
  ExprPtr checkMatMul(ExprPtr lhs, ExprPtr rhs, SourceRange range,
                      SourceRange opRange);
  ExprPtr checkCall(const syntax::CallExpr &e, Scope &scope);
  /// Gives a weak scalar expression the element type `elem`; reports
  /// literals that cannot take it. Returns false after an error.
  bool coerceWeak(Expr &e, ElemType elem);
  /// Makes the element types of `a` and `b` equal (weak scalars adapt).
  /// `what` names the operation in messages.
  bool unifyElem(Expr &a, Expr &b, llvm::StringRef what, SourceRange range);
  /// NumPy broadcasting of two shapes; reports E0040 on failure, with the
  /// fix-it `fixIt` computes when it is given and finds one.
  std::optional<Shape>
  broadcastShapes(const TensorType &a, const TensorType &b,
                  llvm::StringRef what, SourceRange range,
                  llvm::function_ref<std::optional<FixIt>()> fixIt = nullptr);
  bool requireNumeric(const Expr &e, llvm::StringRef what, bool floatOnly);

  //===--- Constants (SemaConst.cpp) ---------------------------------------===//
  /// Evaluates a compile-time constant; NotConst for value expressions
  /// (without diagnostics), Error after a reported error.
  /// In a `dimContext` (shapes, iota, slice bounds) an unknown name is
  /// reported as an unknown dimension.
  CValue evalConst(const syntax::Expr &e, Scope &scope,
                   bool dimContext = false);
  /// A dimension expression (shape entries, iota, slice bounds).
  std::optional<Dim> evalDimArg(const syntax::Expr &e, Scope &scope,
                                llvm::StringRef what, bool allowMinusOne,
                                bool &isMinusOne);
  /// Normalizes an axis against `rank`; reports E0045.
  std::optional<int64_t> normalizeAxis(int64_t axis, unsigned rank,
                                       const TensorType &type,
                                       SourceRange range,
                                       llvm::StringRef what);

  //===--- Built-ins (SemaBuiltins.cpp) ------------------------------------===//
  ExprPtr checkBuiltinCall(const BuiltinInfo &info, const syntax::CallExpr &e,
                           Scope &scope);

  //===--- Einsum (SemaEinsum.cpp) -----------------------------------------===//
  /// Checks an einsum and fills `spec`; returns the result shape.
  std::optional<Shape> checkEinsum(const std::string &text,
                                   SourceRange specRange,
                                   llvm::ArrayRef<const Expr *> operands,
                                   EinsumSpec &spec);
  /// Fills labels, expanded terms and sizes once the terms are parsed and
  /// the operand ranks match them. Reports size mismatches.
  /// `fixIt` computes the fix-it of a size mismatch, when given.
  std::optional<Shape>
  finishEinsum(EinsumSpec &spec, llvm::ArrayRef<const Expr *> operands,
               SourceRange range, llvm::StringRef prefix,
               llvm::function_ref<std::optional<FixIt>()> fixIt = nullptr);

  //===--- Indexing (SemaIndex.cpp) ----------------------------------------===//
  ExprPtr checkIndex(const syntax::IndexExpr &e, Scope &scope);

  //===--- Inlining (SemaInline.cpp) ---------------------------------------===//
  ExprPtr instantiateFn(FnState &fs, const syntax::CallExpr &call,
                        Scope &caller);

  //===--- Fix-its (SemaFixIts.cpp) ---------------------------------------===//
  // Each returns a fix-it only when applying it removes the error it is for.
  /// Reports `message` about the unknown `name` at `range`, then "; did you
  /// mean 'x'?" with the fix-it that writes x there when one of
  /// `candidates` is close, else `otherwise`.
  void reportUnknown(DiagCode code, SourceRange range, llvm::StringRef name,
                     std::string message,
                     llvm::ArrayRef<std::string> candidates,
                     llvm::StringRef otherwise = "");
  /// keepdims=true on the reduction `side` is (or a let binds), when the
  /// shape it then has broadcasts against `other`.
  std::optional<FixIt> keepdimsFix(const Expr &side, const Shape &other);
  /// cast<T>(...) around one of two operands with different element types
  /// (the integer one where one is a float).
  std::optional<FixIt> castFix(const Expr &a, const Expr &b);
  /// cast<T>(...) around a returned value whose shape is the declared one.
  std::optional<FixIt> resultCastFix(const Expr &value,
                                     const TensorType &declared);
  /// transpose(...) of the last two axes of one operand of `@`, when that
  /// makes the inner sizes agree.
  std::optional<FixIt> matmulTransposeFix(const Expr &lhs, const Expr &rhs);
  /// The einsum spec, with the subscripts of the fewest operands permuted,
  /// whose letters agree with the operands' sizes.
  std::optional<FixIt> einsumSpecFix(const EinsumSpec &spec,
                                     llvm::ArrayRef<const Expr *> operands,
                                     SourceRange specRange);
  /// The value of an explicit `keepdims=` argument of a reduction node.
  std::map<const Expr *, SourceRange> keepdimsArgs;

  /// Messages name types of operands; keep them short.
  static std::string quote(llvm::StringRef s) { return "'" + s.str() + "'"; }

  CompilationUnit &unit;
  DiagnosticEngine &diags;
  SemaLimits limits;
  std::vector<std::unique_ptr<ModuleState>> moduleStates;
  std::map<const SourceModule *, ModuleState *> stateOf;
  std::vector<std::unique_ptr<FnState>> fnStates;

  struct InstFrame {
    const FnState *fn;
    SourceRange callRange;
  };
  std::vector<InstFrame> instStack;
  /// Counters used to decide whether an item is valid.
  uint64_t errorExprCount = 0;
  uint64_t nodeCount = 0;
  uint64_t itemNodeStart = 0;
  bool nodeLimitReported = false;
  unsigned exprDepth = 0;
  bool depthLimitReported = false;
};

} // namespace accy::sema

#endif // ACCY_LIB_FRONTEND_SEMAIMPL_H
