//===- SemaEinsum.cpp - Einsum specifications -----------------------------===//
//
// Specs use lower-case letters, require '->', and allow '...' at most once
// per operand (and in the output exactly when some operand has one). Each
// letter has one size across all operands; ellipsis axes broadcast NumPy
// style. The checked spec is stored expanded (see EinsumTerm::expanded).
//
//===----------------------------------------------------------------------===//

#include "SemaImpl.h"

#include <algorithm>

using namespace accy;
using namespace accy::sema;

namespace {
struct ParsedTerm {
  EinsumTerm term;
  uint32_t offset = 0; ///< Offset of the term within the spec text.
};
} // namespace

/// Parses one term; reports errors at the offending character.
static bool parseTerm(Sema &sema, llvm::StringRef spec, llvm::StringRef text,
                      uint32_t offset, SourceRange specRange,
                      llvm::StringRef where, EinsumTerm &out) {
  auto charRange = [&](size_t i, size_t len) {
    uint32_t begin = specRange.begin + 1 + offset + i;
    return SourceRange(specRange.file, begin, begin + len);
  };
  std::string prefix = "einsum \"" + spec.str() + "\": ";
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    if (c >= 'a' && c <= 'z') {
      out.letters.push_back(c);
      ++i;
      continue;
    }
    if (text.substr(i).starts_with("...")) {
      if (out.ellipsisPos >= 0) {
        sema.error(DiagCode::EinsumSyntax, charRange(i, 3),
                   prefix + "'...' appears twice in " + where.str());
        return false;
      }
      out.ellipsisPos = out.letters.size();
      i += 3;
      continue;
    }
    std::string shown = c == '.' ? std::string("'.'")
                                 : (static_cast<unsigned char>(c) < 0x20 ||
                                    static_cast<unsigned char>(c) >= 0x7F)
                                       ? std::string("a non-ASCII character")
                                       : "'" + std::string(1, c) + "'";
    sema.error(DiagCode::EinsumSyntax, charRange(i, 1),
               prefix + shown + " in " + where.str() +
                   " is not a lower-case letter" +
                   (c == '.' ? " (an ellipsis is written '...')" : ""));
    return false;
  }
  return true;
}

std::optional<Shape> Sema::checkEinsum(const std::string &text,
                                       SourceRange specRange,
                                       llvm::ArrayRef<const Expr *> operands,
                                       EinsumSpec &spec) {
  spec.text = text;
  std::string prefix = "einsum \"" + text + "\"";
  llvm::StringRef s(text);
  size_t arrow = s.find("->");
  if (arrow == llvm::StringRef::npos) {
    error(DiagCode::EinsumSyntax, specRange,
          prefix + ": '->' is required, as in \"bi,ij->bj\"");
    return std::nullopt;
  }
  if (s.find("->", arrow + 2) != llvm::StringRef::npos) {
    uint32_t at = specRange.begin + 1 + s.find("->", arrow + 2);
    error(DiagCode::EinsumSyntax, SourceRange(specRange.file, at, at + 2),
          prefix + ": '->' appears twice");
    return std::nullopt;
  }
  llvm::StringRef lhs = s.substr(0, arrow), rhs = s.substr(arrow + 2);
  llvm::SmallVector<llvm::StringRef, 4> terms;
  lhs.split(terms, ',');
  uint32_t offset = 0;
  for (size_t i = 0; i < terms.size(); ++i) {
    EinsumTerm term;
    if (!parseTerm(*this, s, terms[i], offset, specRange,
                   "operand " + std::to_string(i), term))
      return std::nullopt;
    spec.inputs.push_back(std::move(term));
    offset += terms[i].size() + 1;
  }
  if (!parseTerm(*this, s, rhs, arrow + 2, specRange, "the output",
                 spec.output))
    return std::nullopt;

  if (spec.inputs.size() != operands.size()) {
    error(DiagCode::EinsumOperandCount, specRange,
          prefix + " names " + std::to_string(spec.inputs.size()) +
              (spec.inputs.size() == 1 ? " operand" : " operands") + " but " +
              std::to_string(operands.size()) +
              (operands.size() == 1 ? " was" : " were") + " given");
    return std::nullopt;
  }
  bool anyEllipsis = false;
  for (size_t i = 0; i < operands.size(); ++i) {
    EinsumTerm &term = spec.inputs[i];
    unsigned rank = operands[i]->type.rank();
    unsigned named = term.letters.size();
    bool hasEllipsis = term.ellipsisPos >= 0;
    anyEllipsis |= hasEllipsis;
    if (hasEllipsis ? rank < named : rank != named) {
      error(DiagCode::EinsumRank, operands[i]->range,
            prefix + ": operand " + std::to_string(i) + " is " +
                operands[i]->type.str() + " (rank " + std::to_string(rank) +
                ") but its subscripts '" + terms[i].str() + "' name " +
                (hasEllipsis ? "at least " : "") + std::to_string(named) +
                (named == 1 ? " axis" : " axes"));
      return std::nullopt;
    }
    term.ellipsisRank = hasEllipsis ? rank - named : 0;
  }
  for (size_t i = 0; i < spec.output.letters.size(); ++i) {
    char c = spec.output.letters[i];
    if (spec.output.letters.find(c) != i) {
      error(DiagCode::EinsumOutput, specRange,
            prefix + ": '" + std::string(1, c) +
                "' appears twice in the output");
      return std::nullopt;
    }
    bool found = false;
    for (const EinsumTerm &t : spec.inputs)
      found |= t.letters.find(c) != std::string::npos;
    if (!found) {
      error(DiagCode::EinsumOutput, specRange,
            prefix + ": output letter '" + std::string(1, c) +
                "' does not appear in any operand");
      return std::nullopt;
    }
  }
  if (anyEllipsis != (spec.output.ellipsisPos >= 0)) {
    error(DiagCode::EinsumOutput, specRange,
          prefix + (anyEllipsis
                        ? ": the output must contain '...' because an "
                          "operand does"
                        : ": the output contains '...' but no operand does"));
    return std::nullopt;
  }
  unsigned batchRank = 0;
  for (const EinsumTerm &t : spec.inputs)
    batchRank = std::max(batchRank, t.ellipsisRank);
  spec.output.ellipsisRank = anyEllipsis ? batchRank : 0;
  return finishEinsum(spec, operands, specRange, prefix, [&] {
    return einsumSpecFix(spec, operands, specRange);
  });
}

static std::string expandTerm(const EinsumTerm &term, unsigned batchRank) {
  std::string out;
  for (size_t i = 0; i <= term.letters.size(); ++i) {
    if (static_cast<int>(i) == term.ellipsisPos)
      for (unsigned k = 0; k < term.ellipsisRank; ++k)
        out.push_back(static_cast<char>('A' + (batchRank - term.ellipsisRank) +
                                        k));
    if (i < term.letters.size())
      out.push_back(term.letters[i]);
  }
  return out;
}

std::optional<Shape>
Sema::finishEinsum(EinsumSpec &spec, llvm::ArrayRef<const Expr *> operands,
                   SourceRange range, llvm::StringRef prefix,
                   llvm::function_ref<std::optional<FixIt>()> fixIt) {
  unsigned batchRank = spec.output.ellipsisRank;
  if (batchRank > 26) {
    error(DiagCode::EinsumRank, range,
          prefix.str() + ": '...' stands for more than 26 axes");
    return std::nullopt;
  }
  for (EinsumTerm &t : spec.inputs)
    t.expanded = expandTerm(t, batchRank);
  spec.output.expanded = expandTerm(spec.output, batchRank);

  struct LabelInfo {
    Dim size;
    size_t operand;
    bool set = false;
  };
  LabelInfo labels[128];
  Dim one = Dim::constant(1);
  for (size_t i = 0; i < operands.size(); ++i) {
    const std::string &ex = spec.inputs[i].expanded;
    for (size_t axis = 0; axis < ex.size(); ++axis) {
      char label = ex[axis];
      const Dim &size = operands[i]->type.shape[axis];
      LabelInfo &info = labels[static_cast<unsigned char>(label)];
      if (!info.set) {
        info = {size, i, true};
        continue;
      }
      if (info.size == size)
        continue;
      bool batch = label >= 'A' && label <= 'Z';
      if (batch && (info.size == one || size == one)) {
        if (info.size == one)
          info = {size, i, true};
        continue;
      }
      if (batch) {
        error(DiagCode::BroadcastMismatch, operands[i]->range,
              prefix.str() + ": the '...' axes do not broadcast: size " +
                  info.size.str() + " in operand " +
                  std::to_string(info.operand) + " but " + size.str() +
                  " in operand " + std::to_string(i));
      } else {
        auto diag = error(DiagCode::EinsumSizeMismatch, operands[i]->range,
                          prefix.str() + ": '" + std::string(1, label) +
                              "' is " + info.size.str() + " in operand " +
                              std::to_string(info.operand) + " but " +
                              size.str() + " in operand " + std::to_string(i));
        if (std::optional<FixIt> fix = fixIt ? fixIt() : std::nullopt)
          diag.fixIt(std::move(fix->title), std::move(fix->edits));
      }
      return std::nullopt;
    }
  }
  spec.labelSizes.clear();
  for (unsigned c = 0; c < 128; ++c)
    if (labels[c].set)
      spec.labelSizes.push_back({static_cast<char>(c), labels[c].size});
  spec.contracted.clear();
  for (const auto &entry : spec.labelSizes)
    if (spec.output.expanded.find(entry.first) == std::string::npos)
      spec.contracted.push_back(entry.first);
  Shape shape;
  for (char label : spec.output.expanded)
    shape.push_back(labels[static_cast<unsigned char>(label)].size);
  return shape;
}
