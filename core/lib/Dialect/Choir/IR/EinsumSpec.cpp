//===- EinsumSpec.cpp - Parsed einsum specifications ----------------------===//

#include "accy/Dialect/Choir/IR/EinsumSpec.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace accy::choir;

static llvm::Error specError(llvm::StringRef spec, const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "einsum \"" + spec + "\": " + what);
}

std::string EinsumSpec::labels() const {
  std::string all;
  auto add = [&](const std::string &term) {
    for (char c : term)
      if (all.find(c) == std::string::npos)
        all.push_back(c);
  };
  for (const std::string &op : operands)
    add(op);
  add(result);
  return all;
}

bool EinsumSpec::isParallel(char label) const {
  return result.find(label) != std::string::npos;
}

std::string EinsumSpec::str() const {
  std::string out;
  for (auto [i, op] : llvm::enumerate(operands)) {
    if (i)
      out += ",";
    out += op;
  }
  return out + "->" + result;
}

/// Expands one term ("...ij" or "bij"), its ellipsis standing for `own`
/// batch labels. Batch labels align from the right ('A' is the outermost of
/// `ellipsisRank`), so a shorter ellipsis broadcasts NumPy-style.
static llvm::Expected<std::string> expandTerm(llvm::StringRef spec,
                                              llvm::StringRef term,
                                              int64_t own,
                                              int64_t ellipsisRank) {
  std::string out;
  size_t dots = term.find("...");
  if (dots != llvm::StringRef::npos &&
      term.find("...", dots + 3) != llvm::StringRef::npos)
    return specError(spec, "'...' appears twice in '" + term + "'");
  for (size_t i = 0; i < term.size(); ++i) {
    if (i == dots) {
      for (int64_t k = 0; k < own; ++k)
        out.push_back(static_cast<char>('A' + (ellipsisRank - own) + k));
      i += 2;
      continue;
    }
    char c = term[i];
    if (c < 'a' || c > 'z')
      return specError(spec, llvm::formatv("'{0}' is not a lower-case letter", c).str());
    out.push_back(c);
  }
  return out;
}

llvm::Expected<EinsumSpec> EinsumSpec::parse(llvm::StringRef spec,
                                             llvm::ArrayRef<int64_t> ranks) {
  auto [lhs, rhs] = spec.split("->");
  if (lhs.size() == spec.size())
    return specError(spec, "'->' is required");
  llvm::SmallVector<llvm::StringRef> terms;
  lhs.split(terms, ',');
  if (terms.size() != ranks.size())
    return specError(spec, llvm::formatv("names {0} operands but {1} given",
                                         terms.size(), ranks.size())
                               .str());
  // The ellipsis stands for the same number of leading batch dimensions in
  // every operand that has one (the largest, NumPy-style).
  int64_t ellipsisRank = 0;
  for (auto [term, rank] : llvm::zip(terms, ranks)) {
    if (!term.contains("..."))
      continue;
    int64_t named = static_cast<int64_t>(term.size()) - 3;
    if (rank < named)
      return specError(spec, llvm::formatv("'{0}' needs rank >= {1} but the "
                                           "operand has rank {2}",
                                           term, named, rank)
                                 .str());
    ellipsisRank = std::max(ellipsisRank, rank - named);
  }
  EinsumSpec result;
  for (auto [i, term] : llvm::enumerate(terms)) {
    int64_t rank = ranks[i];
    int64_t own = term.contains("...")
                      ? rank - (static_cast<int64_t>(term.size()) - 3)
                      : 0;
    auto expanded = expandTerm(spec, term, own, ellipsisRank);
    if (!expanded)
      return expanded.takeError();
    std::string t = std::move(*expanded);
    if (static_cast<int64_t>(t.size()) != rank)
      return specError(spec, llvm::formatv("operand {0} has rank {1} but "
                                           "'{2}' names {3} dimensions",
                                           i, rank, term, t.size())
                                 .str());
    result.operands.push_back(std::move(t));
  }
  auto out = expandTerm(spec, rhs, ellipsisRank, ellipsisRank);
  if (!out)
    return out.takeError();
  result.result = *out;
  for (char c : result.result) {
    if (llvm::count(result.result, c) > 1)
      return specError(spec, llvm::formatv("'{0}' appears twice in the output",
                                           c)
                                 .str());
    bool known = llvm::any_of(result.operands, [&](const std::string &op) {
      return op.find(c) != std::string::npos;
    });
    if (!known)
      return specError(spec, llvm::formatv("output label '{0}' appears in no "
                                           "operand",
                                           c)
                                 .str());
  }
  return result;
}
