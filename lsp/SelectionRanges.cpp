//===- SelectionRanges.cpp - Growing a selection by syntax ----------------===//

#include "SelectionRanges.h"

using namespace accy;
using namespace accy::lsp;

namespace {
/// The ranges containing one offset, outermost first.
class Chain {
public:
  explicit Chain(uint32_t offset) : offset(offset) {}

  bool enter(SourceRange range) {
    if (!range.isValid() || range.begin > offset || offset > range.end)
      return false;
    if (ranges.empty() || !(ranges.back() == range))
      ranges.push_back(range);
    return true;
  }

  void type(const syntax::TypeSyntax &t) {
    if (!enter(t.range))
      return;
    if (enter(t.elemRange))
      return;
    for (const auto &dim : t.dims)
      if (enter(dim.range))
        return;
  }

  void expr(const syntax::Expr &e) {
    if (!enter(e.range))
      return;
    switch (e.getKind()) {
    case syntax::ExprKind::Unary:
      return expr(*llvm::cast<syntax::UnaryExpr>(e).operand);
    case syntax::ExprKind::Binary: {
      const auto &b = llvm::cast<syntax::BinaryExpr>(e);
      return firstOf({b.lhs.get(), b.rhs.get()});
    }
    case syntax::ExprKind::Call: {
      const auto &call = llvm::cast<syntax::CallExpr>(e);
      if (enter(call.calleeRange))
        return;
      if (call.hasTypeArg && call.typeArg.range.isValid() &&
          contains(call.typeArg.range))
        return type(call.typeArg);
      for (const syntax::CallArg &arg : call.args) {
        if (!arg.value)
          continue;
        SourceRange whole = arg.name.empty()
                                ? arg.value->range
                                : SourceRange::cover(arg.nameRange,
                                                     arg.value->range);
        if (!contains(whole))
          continue;
        enter(whole);
        if (!arg.name.empty() && enter(arg.nameRange))
          return;
        return expr(*arg.value);
      }
      return;
    }
    case syntax::ExprKind::Index: {
      const auto &index = llvm::cast<syntax::IndexExpr>(e);
      if (contains(index.base->range))
        return expr(*index.base);
      for (const syntax::IndexItem &item : index.items) {
        if (!enter(item.range))
          continue;
        return firstOf({item.index.get(), item.start.get(), item.stop.get()});
      }
      return;
    }
    case syntax::ExprKind::List: {
      std::vector<const syntax::Expr *> elements;
      for (const auto &element : llvm::cast<syntax::ListExpr>(e).elements)
        elements.push_back(element.get());
      return firstOf(elements);
    }
    case syntax::ExprKind::Tuple: {
      std::vector<const syntax::Expr *> elements;
      for (const auto &element : llvm::cast<syntax::TupleExpr>(e).elements)
        elements.push_back(element.get());
      return firstOf(elements);
    }
    default:
      return;
    }
  }

  void item(const syntax::FunctionDecl &decl) {
    if (!enter(decl.range))
      return;
    if (enter(decl.nameRange))
      return;
    for (const syntax::Param &p : decl.params) {
      if (!enter(p.range))
        continue;
      if (!enter(p.nameRange))
        type(p.type);
      return;
    }
    for (const syntax::TypeSyntax &r : decl.results)
      if (contains(r.range))
        return type(r);
    if (!enter(decl.bodyRange))
      return;
    for (const syntax::Stmt &stmt : decl.body) {
      if (!enter(stmt.range))
        continue;
      if (stmt.kind == syntax::Stmt::Kind::Let && enter(stmt.nameRange))
        return;
      if (stmt.value)
        expr(*stmt.value);
      return;
    }
  }

  std::vector<SourceRange> ranges;

private:
  bool contains(SourceRange range) const {
    return range.isValid() && range.begin <= offset && offset <= range.end;
  }
  void firstOf(std::initializer_list<const syntax::Expr *> exprs) {
    firstOf(std::vector<const syntax::Expr *>(exprs));
  }
  void firstOf(const std::vector<const syntax::Expr *> &exprs) {
    for (const syntax::Expr *e : exprs)
      if (e && contains(e->range))
        return expr(*e);
  }
  uint32_t offset;
};
} // namespace

std::vector<SelectionRange>
accy::lsp::findSelectionRanges(const Analysis &analysis,
                               const std::vector<Position> &positions) {
  std::vector<SelectionRange> result;
  const SourceModule *module = analysis.mainModule();
  for (Position position : positions) {
    uint32_t offset = analysis.offsetOf(position);
    Chain chain(offset);
    if (module && module->syntax) {
      const syntax::Module &syn = *module->syntax;
      for (const syntax::ImportDecl &imp : syn.imports)
        if (chain.enter(imp.range))
          chain.enter(imp.pathRange);
      for (const syntax::ConstDecl &c : syn.consts)
        if (chain.enter(c.range) && !chain.enter(c.nameRange) && c.value)
          chain.expr(*c.value);
      for (const syntax::FunctionDecl &decl : syn.functions)
        if (chain.ranges.empty())
          chain.item(decl);
    }
    SelectionRange selection;
    for (auto it = chain.ranges.rbegin(); it != chain.ranges.rend(); ++it)
      selection.chain.push_back(analysis.rangeOf(*it));
    // Where nothing encloses the position, the position itself.
    if (selection.chain.empty())
      selection.chain.push_back({position, position});
    // Then the whole document.
    selection.chain.push_back(
        {Position{}, analysis.index().positionOf(
                         static_cast<uint32_t>(analysis.document().text.size()))});
    result.push_back(std::move(selection));
  }
  return result;
}
