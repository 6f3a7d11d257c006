//===- Types.cpp - Element types, dimensions and tensor types -------------===//

#include "accy/Frontend/Types.h"

#include <algorithm>

using namespace accy;

llvm::StringRef accy::elemTypeName(ElemType type) {
  switch (type) {
  case ElemType::F16: return "f16";
  case ElemType::BF16: return "bf16";
  case ElemType::F32: return "f32";
  case ElemType::F64: return "f64";
  case ElemType::I32: return "i32";
  case ElemType::I64: return "i64";
  case ElemType::Bool: return "bool";
  }
  return "?";
}

bool accy::isFloat(ElemType type) {
  return type == ElemType::F16 || type == ElemType::BF16 ||
         type == ElemType::F32 || type == ElemType::F64;
}

bool accy::isInteger(ElemType type) {
  return type == ElemType::I32 || type == ElemType::I64;
}

unsigned accy::elemTypeBytes(ElemType type) {
  switch (type) {
  case ElemType::F16: case ElemType::BF16: return 2;
  case ElemType::F32: case ElemType::I32: return 4;
  case ElemType::F64: case ElemType::I64: return 8;
  case ElemType::Bool: return 1;
  }
  return 1;
}

Dim Dim::constant(int64_t value) {
  Dim d;
  if (value != 0)
    d.termList.push_back({value, {}});
  return d;
}

Dim Dim::symbol(llvm::StringRef name) {
  Dim d;
  d.termList.push_back({1, {name.str()}});
  return d;
}

bool Dim::isStatic() const {
  return termList.empty() ||
         (termList.size() == 1 && termList[0].symbols.empty());
}

bool Dim::isSymbol() const {
  return termList.size() == 1 && termList[0].coeff == 1 &&
         termList[0].symbols.size() == 1;
}

std::optional<int64_t> Dim::getStatic() const {
  if (termList.empty())
    return 0;
  if (isStatic())
    return termList[0].coeff;
  return std::nullopt;
}

llvm::StringRef Dim::getSymbol() const {
  return isSymbol() ? llvm::StringRef(termList[0].symbols[0])
                    : llvm::StringRef();
}

std::vector<std::string> Dim::symbols() const {
  std::vector<std::string> out;
  for (const Term &t : termList)
    for (const std::string &s : t.symbols)
      out.push_back(s);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

static bool termOrder(const Dim::Term &a, const Dim::Term &b) {
  if (a.symbols.size() != b.symbols.size())
    return a.symbols.size() > b.symbols.size();
  return a.symbols < b.symbols;
}

/// Sorts and merges terms; returns false on coefficient overflow.
static bool canonicalTerms(std::vector<Dim::Term> &terms) {
  for (Dim::Term &t : terms)
    std::sort(t.symbols.begin(), t.symbols.end());
  std::stable_sort(terms.begin(), terms.end(), termOrder);
  std::vector<Dim::Term> merged;
  for (Dim::Term &t : terms) {
    if (!merged.empty() && merged.back().symbols == t.symbols) {
      int64_t sum;
      if (__builtin_add_overflow(merged.back().coeff, t.coeff, &sum))
        return false;
      merged.back().coeff = sum;
    } else {
      merged.push_back(std::move(t));
    }
  }
  merged.erase(std::remove_if(merged.begin(), merged.end(),
                              [](const Dim::Term &t) { return t.coeff == 0; }),
               merged.end());
  terms = std::move(merged);
  return true;
}

void Dim::canonicalize() { canonicalTerms(termList); }

std::optional<Dim> Dim::add(const Dim &a, const Dim &b) {
  Dim r;
  r.termList = a.termList;
  r.termList.insert(r.termList.end(), b.termList.begin(), b.termList.end());
  if (!canonicalTerms(r.termList))
    return std::nullopt;
  return r;
}

std::optional<Dim> Dim::sub(const Dim &a, const Dim &b) {
  Dim r;
  r.termList = a.termList;
  for (const Term &t : b.termList) {
    if (t.coeff == INT64_MIN)
      return std::nullopt;
    r.termList.push_back({-t.coeff, t.symbols});
  }
  if (!canonicalTerms(r.termList))
    return std::nullopt;
  return r;
}

std::optional<Dim> Dim::mul(const Dim &a, const Dim &b) {
  Dim r;
  for (const Term &x : a.termList)
    for (const Term &y : b.termList) {
      Term t;
      if (__builtin_mul_overflow(x.coeff, y.coeff, &t.coeff))
        return std::nullopt;
      t.symbols = x.symbols;
      t.symbols.insert(t.symbols.end(), y.symbols.begin(), y.symbols.end());
      r.termList.push_back(std::move(t));
    }
  if (!canonicalTerms(r.termList))
    return std::nullopt;
  return r;
}

std::optional<Dim> Dim::divExact(const Dim &a, const Dim &b) {
  if (b.termList.size() != 1 || b.termList[0].coeff == 0)
    return std::nullopt;
  const Term &div = b.termList[0];
  Dim r;
  for (const Term &t : a.termList) {
    if (t.coeff % div.coeff != 0)
      return std::nullopt;
    Term q;
    q.coeff = t.coeff / div.coeff;
    q.symbols = t.symbols;
    for (const std::string &s : div.symbols) {
      auto it = std::find(q.symbols.begin(), q.symbols.end(), s);
      if (it == q.symbols.end())
        return std::nullopt;
      q.symbols.erase(it);
    }
    r.termList.push_back(std::move(q));
  }
  if (!canonicalTerms(r.termList))
    return std::nullopt;
  return r;
}

std::optional<Dim>
Dim::substitute(const std::map<std::string, Dim> &map) const {
  Dim result;
  for (const Term &t : termList) {
    Dim term = Dim::constant(t.coeff);
    for (const std::string &s : t.symbols) {
      auto it = map.find(s);
      std::optional<Dim> next =
          Dim::mul(term, it == map.end() ? Dim::symbol(s) : it->second);
      if (!next)
        return std::nullopt;
      term = std::move(*next);
    }
    std::optional<Dim> sum = Dim::add(result, term);
    if (!sum)
      return std::nullopt;
    result = std::move(*sum);
  }
  return result;
}

std::optional<int64_t> Dim::evaluate(
    const std::function<std::optional<int64_t>(llvm::StringRef)> &valueOf)
    const {
  int64_t total = 0;
  for (const Term &t : termList) {
    int64_t value = t.coeff;
    for (const std::string &s : t.symbols) {
      std::optional<int64_t> v = valueOf(s);
      if (!v || __builtin_mul_overflow(value, *v, &value))
        return std::nullopt;
    }
    if (__builtin_add_overflow(total, value, &total))
      return std::nullopt;
  }
  return total;
}

std::string Dim::str() const {
  if (termList.empty())
    return "0";
  std::string out;
  for (size_t i = 0; i < termList.size(); ++i) {
    const Term &t = termList[i];
    bool negative = t.coeff < 0;
    uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(t.coeff)
                                  : static_cast<uint64_t>(t.coeff);
    if (i == 0)
      out += negative ? "-" : "";
    else
      out += negative ? " - " : " + ";
    std::string symbols;
    for (size_t k = 0; k < t.symbols.size(); ++k)
      symbols += (k ? "*" : "") + t.symbols[k];
    if (symbols.empty())
      out += std::to_string(magnitude);
    else if (magnitude == 1)
      out += symbols;
    else
      out += std::to_string(magnitude) + "*" + symbols;
  }
  return out;
}

std::string accy::shapeStr(llvm::ArrayRef<Dim> shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    out += (i ? ", " : "") + shape[i].str();
  return out + "]";
}

std::string TensorType::str() const {
  std::string out = elemTypeName(elem).str();
  if (!shape.empty())
    out += shapeStr(shape);
  return out;
}
