//===- Syntax.h - The parse tree of an Accy file ----------------*- C++ -*-===//
//
// What the parser produces: the source as written, with ranges, no types and
// no name resolution. Sema turns it into the typed AST (AST.h); other tools
// (document symbols, semantic tokens) may read it directly.
//
// Parse errors leave ErrorExpr nodes (already diagnosed) so later phases
// stay quiet about them. Expression depth is bounded by the parser
// (kMaxExprDepth), so recursive walks over a parse tree are safe.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_FRONTEND_SYNTAX_H
#define ACCY_FRONTEND_SYNTAX_H

#include "accy/Frontend/Source.h"
#include "accy/Frontend/Types.h"

#include "llvm/Support/Casting.h"

#include <memory>
#include <string>
#include <vector>

namespace accy::syntax {

/// The deepest expression tree the parser builds (parentheses, unary and
/// binary operators, calls and indexing all count one level).
constexpr unsigned kMaxExprDepth = 256;

enum class ExprKind : uint8_t {
  IntLit,
  FloatLit,
  BoolLit,
  StringLit,
  Name,
  Unary,
  Binary,
  Call,
  Index,
  List,  ///< [a, b, ...]: axis lists, shapes, concat operands.
  Tuple, ///< (a, b, ...): only valid as a return value.
  Error, ///< Placeholder for something that failed to parse.
};

enum class BinaryOp : uint8_t {
  Add, Sub, Mul, Div, MatMul,
  Less, LessEqual, Greater, GreaterEqual, Equal, NotEqual,
};
/// "+", "@", "<=", ...
llvm::StringRef binaryOpSpelling(BinaryOp op);
bool isComparison(BinaryOp op);

class Expr {
public:
  virtual ~Expr();
  ExprKind getKind() const { return kind; }
  SourceRange range;
  /// Height of this expression tree (a leaf is 1).
  unsigned depth = 1;

protected:
  Expr(ExprKind kind, SourceRange range) : range(range), kind(kind) {}

private:
  ExprKind kind;
};
using ExprPtr = std::unique_ptr<Expr>;

#define ACCY_SYNTAX_CLASSOF(K)                                                 \
  static bool classof(const Expr *e) { return e->getKind() == ExprKind::K; }

struct IntLitExpr : Expr {
  IntLitExpr(SourceRange r, int64_t v) : Expr(ExprKind::IntLit, r), value(v) {}
  int64_t value; ///< Always >= 0; negation is a UnaryExpr.
  ACCY_SYNTAX_CLASSOF(IntLit)
};

struct FloatLitExpr : Expr {
  FloatLitExpr(SourceRange r, double v, std::string spelling)
      : Expr(ExprKind::FloatLit, r), value(v), spelling(std::move(spelling)) {}
  double value;
  std::string spelling;
  ACCY_SYNTAX_CLASSOF(FloatLit)
};

struct BoolLitExpr : Expr {
  BoolLitExpr(SourceRange r, bool v) : Expr(ExprKind::BoolLit, r), value(v) {}
  bool value;
  ACCY_SYNTAX_CLASSOF(BoolLit)
};

struct StringLitExpr : Expr {
  StringLitExpr(SourceRange r, std::string v)
      : Expr(ExprKind::StringLit, r), value(std::move(v)) {}
  /// The contents without quotes (there are no escapes); byte i of value is
  /// at offset range.begin + 1 + i in the file.
  std::string value;
  ACCY_SYNTAX_CLASSOF(StringLit)
};

struct NameExpr : Expr {
  NameExpr(SourceRange r, std::string n)
      : Expr(ExprKind::Name, r), name(std::move(n)) {}
  std::string name;
  ACCY_SYNTAX_CLASSOF(Name)
};

struct UnaryExpr : Expr {
  UnaryExpr(SourceRange r, ExprPtr operand)
      : Expr(ExprKind::Unary, r), operand(std::move(operand)) {}
  ExprPtr operand; ///< The only unary operator is negation.
  ACCY_SYNTAX_CLASSOF(Unary)
};

struct BinaryExpr : Expr {
  BinaryExpr(SourceRange r, BinaryOp op, SourceRange opRange, ExprPtr lhs,
             ExprPtr rhs)
      : Expr(ExprKind::Binary, r), op(op), opRange(opRange),
        lhs(std::move(lhs)), rhs(std::move(rhs)) {}
  BinaryOp op;
  SourceRange opRange;
  ExprPtr lhs, rhs;
  ACCY_SYNTAX_CLASSOF(Binary)
};

/// An element type with optional dimensions: f32, f32[N, 784].
struct TypeSyntax {
  struct DimSyntax {
    bool isName = false;
    int64_t value = 0; ///< When !isName.
    std::string name;  ///< When isName: a symbol or an integer const.
    SourceRange range;
  };
  ElemType elem = ElemType::F32;
  SourceRange elemRange;
  std::vector<DimSyntax> dims;
  SourceRange range;
  bool valid = false; ///< False when the type failed to parse.
};

struct CallArg {
  std::string name; ///< Empty for a positional argument.
  SourceRange nameRange;
  ExprPtr value;
};

struct CallExpr : Expr {
  CallExpr(SourceRange r) : Expr(ExprKind::Call, r) {}
  std::string callee;
  SourceRange calleeRange;
  bool hasTypeArg = false; ///< cast<T>(...)
  TypeSyntax typeArg;
  std::vector<CallArg> args;
  ACCY_SYNTAX_CLASSOF(Call)
};

/// One item of x[...]: `i`, `a:b`, `:`, `a:`, `:b`.
struct IndexItem {
  bool isSlice = false;
  ExprPtr index;       ///< When !isSlice.
  ExprPtr start, stop; ///< When isSlice; null when omitted.
  SourceRange range;
};

struct IndexExpr : Expr {
  IndexExpr(SourceRange r, ExprPtr base)
      : Expr(ExprKind::Index, r), base(std::move(base)) {}
  ExprPtr base;
  std::vector<IndexItem> items;
  ACCY_SYNTAX_CLASSOF(Index)
};

struct ListExpr : Expr {
  ListExpr(SourceRange r) : Expr(ExprKind::List, r) {}
  std::vector<ExprPtr> elements;
  ACCY_SYNTAX_CLASSOF(List)
};

struct TupleExpr : Expr {
  TupleExpr(SourceRange r) : Expr(ExprKind::Tuple, r) {}
  std::vector<ExprPtr> elements;
  ACCY_SYNTAX_CLASSOF(Tuple)
};

struct ErrorExpr : Expr {
  ErrorExpr(SourceRange r) : Expr(ExprKind::Error, r) {}
  ACCY_SYNTAX_CLASSOF(Error)
};

#undef ACCY_SYNTAX_CLASSOF

struct Param {
  std::string name;
  SourceRange nameRange;
  TypeSyntax type;
  SourceRange range;
};

struct Stmt {
  enum class Kind : uint8_t { Let, Return };
  Kind kind = Kind::Let;
  std::string name; ///< Let only.
  SourceRange nameRange;
  ExprPtr value; ///< Never null (ErrorExpr after a parse error).
  SourceRange range;
};

struct ImportDecl {
  std::string path; ///< As written, without quotes.
  SourceRange pathRange;
  SourceRange range;
};

struct ConstDecl {
  std::string name;
  SourceRange nameRange;
  ExprPtr value;
  SourceRange range;
};

/// A `kernel` or `fn` item.
struct FunctionDecl {
  bool isKernel = false;
  std::string name;
  SourceRange nameRange;
  std::vector<Param> params;
  std::vector<TypeSyntax> results;
  bool resultIsTuple = false; ///< Written as `-> (T, ...)`.
  SourceRange resultRange;
  std::vector<Stmt> body;
  SourceRange bodyRange;  ///< From '{' to '}'.
  SourceRange range;      ///< The whole item.
  bool hadParseError = false;
};

/// One parsed file. Items keep their source order within each list.
struct Module {
  FileID file;
  std::vector<ImportDecl> imports;
  std::vector<ConstDecl> consts;
  std::vector<FunctionDecl> functions; ///< Both fn and kernel items.
};

} // namespace accy::syntax

#endif // ACCY_FRONTEND_SYNTAX_H
