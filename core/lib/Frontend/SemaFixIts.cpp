//===- SemaFixIts.cpp - Fix-its the checker attaches to its errors --------===//
//
// Computed where the error is found, from the names, types and shapes the
// checker knows, so a client never has to read a message to repair it. A
// fix-it is offered only when it removes the error it belongs to: the
// shapes are checked again with the change applied. Wrapping an operand in
// a call (cast<T>(...), transpose(...)) needs no parentheses whatever the
// operand is, since the call's own parentheses enclose it.
//
//===----------------------------------------------------------------------===//

#include "SemaImpl.h"

#include <algorithm>

using namespace accy;
using namespace accy::sema;

static SourceRange emptyAt(SourceRange range, uint32_t offset) {
  return SourceRange(range.file, offset, offset);
}

/// `prefix` before `e` and `suffix` after it.
static std::vector<FixItEdit> wrap(const Expr &e, std::string prefix,
                                   std::string suffix) {
  return {{emptyAt(e.range, e.range.begin), std::move(prefix)},
          {emptyAt(e.range, e.range.end), std::move(suffix)}};
}

void Sema::reportUnknown(DiagCode code, SourceRange range,
                         llvm::StringRef name, std::string message,
                         llvm::ArrayRef<std::string> candidates,
                         llvm::StringRef otherwise) {
  std::string suggestion = closestName(name, candidates);
  if (suggestion.empty()) {
    error(code, range, message + otherwise.str());
    return;
  }
  error(code, range, message + "; did you mean " + quote(suggestion) + "?")
      .fixIt("replace with " + quote(suggestion), {{range, suggestion}});
}

static bool isReduction(Builtin b) {
  return b == Builtin::Sum || b == Builtin::Mean || b == Builtin::Max ||
         b == Builtin::Min;
}

std::optional<FixIt> Sema::keepdimsFix(const Expr &side, const Shape &other) {
  const Expr *e = &side;
  if (const auto *ref = llvm::dyn_cast<LetRefExpr>(e))
    e = ref->let->value.get();
  const auto *call = llvm::dyn_cast<BuiltinCallExpr>(e);
  if (!call || !isReduction(call->builtin) || call->attrs.keepdims ||
      call->operands.empty())
    return std::nullopt;
  Shape kept = call->operands[0]->type.shape;
  for (int64_t axis : call->attrs.axes)
    kept[axis] = Dim::constant(1);
  if (!tryBroadcast(kept, other))
    return std::nullopt;
  std::string title = "add keepdims=true to " +
                      quote(getBuiltinInfo(call->builtin).name);
  if (auto it = keepdimsArgs.find(call); it != keepdimsArgs.end())
    return FixIt{std::move(title), {{it->second, "true"}}};
  // The call's range ends after its ')'.
  llvm::StringRef text = diags.getSourceManager().getText(call->range.file);
  uint32_t close = call->range.end - 1;
  if (call->range.end == 0 || close >= text.size() || text[close] != ')')
    return std::nullopt;
  return FixIt{std::move(title),
               {{emptyAt(call->range, close), ", keepdims=true"}}};
}

/// "convert WHAT with cast<T>": cast<T>(...) around `e`.
static FixIt castTo(const Expr &e, ElemType to, llvm::StringRef what) {
  std::string type = elemTypeName(to).str();
  return {"convert " + what.str() + " with cast<" + type + ">",
          wrap(e, "cast<" + type + ">(", ")")};
}

std::optional<FixIt> Sema::castFix(const Expr &a, const Expr &b) {
  // Cast the integer (or bool) operand to the float type, else the right one
  // to the left one's type.
  bool castA = isFloat(b.type.elem) && !isFloat(a.type.elem);
  const Expr &operand = castA ? a : b;
  ElemType to = castA ? b.type.elem : a.type.elem;
  if (!operand.range.isValid())
    return std::nullopt;
  return castTo(operand, to,
                std::string(castA ? "the left" : "the right") + " operand");
}

std::optional<FixIt> Sema::resultCastFix(const Expr &value,
                                         const TensorType &declared) {
  if (value.type.shape != declared.shape ||
      value.type.elem == declared.elem || !value.range.isValid())
    return std::nullopt;
  return castTo(value, declared.elem, "the returned value");
}

/// ", perm=[0, 1, ..., r-1, r-2])": swaps the last two of `rank` axes.
static std::string swapLastTwoPerm(size_t rank) {
  std::string perm = ", perm=[";
  for (size_t i = 0; i < rank; ++i) {
    size_t axis = i + 2 < rank ? i : (i + 2 == rank ? rank - 1 : rank - 2);
    perm += (i ? ", " : "") + std::to_string(axis);
  }
  return perm + "])";
}

std::optional<FixIt> Sema::matmulTransposeFix(const Expr &lhs,
                                              const Expr &rhs) {
  const Shape &a = lhs.type.shape, &b = rhs.type.shape;
  size_t ra = a.size(), rb = b.size();
  if (ra < 2 || rb < 2 || !tryBroadcast(Shape(a.begin(), a.end() - 2),
                                        Shape(b.begin(), b.end() - 2)))
    return std::nullopt;
  // A right operand stored as [out, in] is the common case: try it first.
  const Expr *operand = nullptr;
  if (b[rb - 1] == a[ra - 1])
    operand = &rhs;
  else if (a[ra - 2] == b[rb - 2])
    operand = &lhs;
  if (!operand || !operand->range.isValid())
    return std::nullopt;
  return FixIt{"transpose the " +
                   std::string(operand == &rhs ? "right" : "left") +
                   " operand (swap its last two axes)",
               wrap(*operand, "transpose(",
                    swapLastTwoPerm(operand->type.rank()))};
}

/// Whether every letter has one size across the operands under `terms`.
static bool lettersAgree(llvm::ArrayRef<std::string> terms,
                         llvm::ArrayRef<const Expr *> operands) {
  const Dim *sizes[128] = {};
  for (size_t i = 0; i < terms.size(); ++i)
    for (size_t axis = 0; axis < terms[i].size(); ++axis) {
      const Dim *&seen = sizes[static_cast<unsigned char>(terms[i][axis])];
      const Dim &size = operands[i]->type.shape[axis];
      if (seen && *seen != size)
        return false;
      seen = &size;
    }
  return true;
}

std::optional<FixIt>
Sema::einsumSpecFix(const EinsumSpec &spec,
                    llvm::ArrayRef<const Expr *> operands,
                    SourceRange specRange) {
  // Permutations of one operand's subscripts, identity first; operands
  // with an ellipsis or many axes keep theirs (the search stays small).
  const size_t maxLetters = 5, maxTries = 20000;
  std::vector<std::vector<std::string>> choices;
  size_t tries = 1;
  for (size_t i = 0; i < spec.inputs.size(); ++i) {
    const EinsumTerm &term = spec.inputs[i];
    if (term.ellipsisPos >= 0 ||
        operands[i]->type.rank() != term.letters.size())
      return std::nullopt;
    std::vector<std::string> options{term.letters};
    if (term.letters.size() <= maxLetters) {
      std::string perm = term.letters;
      std::sort(perm.begin(), perm.end());
      do {
        if (perm != term.letters)
          options.push_back(perm);
      } while (std::next_permutation(perm.begin(), perm.end()));
    }
    tries *= options.size();
    if (tries > maxTries)
      return std::nullopt;
    choices.push_back(std::move(options));
  }
  // Every combination, keeping the one that changes the fewest operands
  // (the first such in operand order).
  std::vector<size_t> pick(choices.size(), 0);
  std::vector<std::string> terms(choices.size()), best;
  size_t bestChanged = choices.size() + 1;
  for (size_t t = 0; t < tries; ++t) {
    size_t rest = t, changed = 0;
    for (size_t i = 0; i < choices.size(); ++i) {
      pick[i] = rest % choices[i].size();
      rest /= choices[i].size();
      terms[i] = choices[i][pick[i]];
      changed += pick[i] != 0;
    }
    if (changed != 0 && changed < bestChanged &&
        lettersAgree(terms, operands)) {
      best = terms;
      bestChanged = changed;
    }
  }
  if (best.empty())
    return std::nullopt;
  std::string text;
  for (size_t i = 0; i < best.size(); ++i)
    text += (i ? "," : "") + best[i];
  text += "->" + spec.output.letters;
  return FixIt{"use the einsum spec \"" + text + "\"",
               {{specRange, "\"" + text + "\""}}};
}
