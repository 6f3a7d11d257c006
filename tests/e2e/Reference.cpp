//===- Reference.cpp - Straightforward reference implementations ----------===//

#include "Reference.h"

#include <algorithm>
#include <cmath>
#include <map>

using namespace accy::e2e;
using namespace accy::e2e::ref;

void ref::forEachIndex(const Index &shape,
                       const std::function<void(const Index &)> &f) {
  for (int64_t d : shape)
    if (d == 0)
      return;
  Index idx(shape.size(), 0);
  while (true) {
    f(idx);
    int i = static_cast<int>(shape.size()) - 1;
    for (; i >= 0; --i) {
      if (++idx[i] < shape[i])
        break;
      idx[i] = 0;
    }
    if (i < 0)
      return;
  }
}

Index ref::broadcastShape(const Index &a, const Index &b) {
  size_t rank = std::max(a.size(), b.size());
  Index out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t x = i < a.size() ? a[a.size() - 1 - i] : 1;
    int64_t y = i < b.size() ? b[b.size() - 1 - i] : 1;
    out[rank - 1 - i] = x == 1 ? y : x;
  }
  return out;
}

/// The element of `t` that broadcasts to index `idx` of a larger shape.
static double broadcastAt(const Tensor &t, const Index &idx) {
  Index own(t.shape.size());
  size_t offset = idx.size() - t.shape.size();
  for (size_t i = 0; i < t.shape.size(); ++i)
    own[i] = t.shape[i] == 1 ? 0 : idx[i + offset];
  return t.at(own);
}

/// A tensor of `shape` and `elem` whose element at each index is f(index),
/// rounded to `elem`.
static Tensor generate(const Index &shape, Elem elem,
                       const std::function<double(const Index &)> &f) {
  Tensor out = Tensor::zeros(shape, elem);
  int64_t flat = 0;
  forEachIndex(shape, [&](const Index &idx) {
    out.data[flat++] = roundTo(elem, f(idx));
  });
  return out;
}

Tensor ref::map(const Tensor &x, Elem result, const Unary &f) {
  Tensor out = Tensor::zeros(x.shape, result);
  for (int64_t i = 0; i < x.numel(); ++i)
    out.data[i] = roundTo(result, f(x.data[i]));
  return out;
}

Tensor ref::map(const Tensor &x, const Unary &f) { return map(x, x.elem, f); }

Tensor ref::cast(const Tensor &x, Elem elem) {
  return map(x, elem, [](double v) { return v; });
}

/// `x` as f64, for intermediate results that must not be rounded.
static Tensor widen(const Tensor &x) { return ref::cast(x, Elem::F64); }

Tensor ref::map(const Tensor &a, const Tensor &b, const Binary &f) {
  return generate(
      broadcastShape(a.shape, b.shape), a.elem,
      [&](const Index &i) { return f(broadcastAt(a, i), broadcastAt(b, i)); });
}

Tensor ref::compare(const Tensor &a, const Tensor &b,
                    const std::function<bool(double, double)> &f) {
  return generate(broadcastShape(a.shape, b.shape), Elem::Bool,
                  [&](const Index &i) {
                    return f(broadcastAt(a, i), broadcastAt(b, i)) ? 1.0 : 0.0;
                  });
}

Tensor ref::select(const Tensor &cond, const Tensor &a, const Tensor &b) {
  Index shape = broadcastShape(cond.shape, broadcastShape(a.shape, b.shape));
  return generate(shape, a.elem, [&](const Index &i) {
    return broadcastAt(cond, i) != 0 ? broadcastAt(a, i) : broadcastAt(b, i);
  });
}

Tensor ref::reduce(const Tensor &x, Index axes, bool keepdims, Reduce kind) {
  Index kept = x.shape;
  for (int64_t a : axes)
    kept[a] = 1;
  Tensor keptT = Tensor::zeros(kept, x.elem);
  std::vector<double> acc(keptT.numel(), kind == Reduce::Max   ? -INFINITY
                                         : kind == Reduce::Min ? INFINITY
                                                               : 0.0);
  Index ks = keptT.strides();
  int64_t count = 1;
  for (int64_t a : axes)
    count *= x.shape[a];
  forEachIndex(x.shape, [&](const Index &idx) {
    int64_t flat = 0;
    for (size_t i = 0; i < idx.size(); ++i)
      flat += (kept[i] == 1 ? 0 : idx[i]) * ks[i];
    double v = x.at(idx);
    double &a = acc[flat];
    a = kind == Reduce::Max   ? std::max(a, v)
        : kind == Reduce::Min ? std::min(a, v)
                              : a + v;
  });
  Tensor out = keptT;
  for (size_t i = 0; i < acc.size(); ++i)
    out.data[i] =
        roundTo(x.elem, kind == Reduce::Mean ? acc[i] / count : acc[i]);
  if (!keepdims) {
    out.shape.clear();
    for (size_t i = 0; i < x.shape.size(); ++i)
      if (std::find(axes.begin(), axes.end(), (int64_t)i) == axes.end())
        out.shape.push_back(x.shape[i]);
  }
  return out;
}

/// Per position: x - max along `axis` and log(sum(exp(x - max))) along it,
/// both unrounded (as doubles in f64 tensors).
static std::pair<Tensor, Tensor> shiftedLogSumExp(const Tensor &x,
                                                  int64_t axis) {
  Tensor wide = widen(x);
  Tensor m = reduce(wide, {axis}, true, Reduce::Max);
  Tensor shifted = map(wide, m, [](double a, double b) { return a - b; });
  Tensor e = map(shifted, [](double v) { return std::exp(v); });
  Tensor lse = map(reduce(e, {axis}, true, Reduce::Sum),
                   [](double s) { return std::log(s); });
  return {shifted, lse};
}

Tensor ref::softmax(const Tensor &x, int64_t axis) {
  auto [shifted, lse] = shiftedLogSumExp(x, axis);
  return ref::cast(
      map(shifted, lse, [](double a, double l) { return std::exp(a - l); }),
      x.elem);
}

Tensor ref::logSoftmax(const Tensor &x, int64_t axis) {
  auto [shifted, lse] = shiftedLogSumExp(x, axis);
  return ref::cast(map(shifted, lse, [](double a, double l) { return a - l; }),
                   x.elem);
}

Tensor ref::layerNorm(const Tensor &x, const Tensor &g, const Tensor &b,
                      double eps) {
  int64_t last = static_cast<int64_t>(x.shape.size()) - 1;
  Tensor wide = widen(x);
  Tensor centered = map(wide, reduce(wide, {last}, true, Reduce::Mean),
                        [](double v, double mu) { return v - mu; });
  Tensor var = reduce(map(centered, [](double v) { return v * v; }), {last},
                      true, Reduce::Mean);
  Tensor normed = map(centered, var, [eps](double c, double v) {
    return c / std::sqrt(v + eps);
  });
  Tensor scaled = map(normed, g, [](double n, double s) { return n * s; });
  return ref::cast(map(scaled, b, [](double n, double s) { return n + s; }),
                   x.elem);
}

Tensor ref::einsum(const std::string &spec,
                   const std::vector<const Tensor *> &ops) {
  std::string lhs = spec.substr(0, spec.find("->"));
  std::string out = spec.substr(spec.find("->") + 2);
  std::vector<std::string> terms;
  size_t start = 0;
  for (size_t comma; (comma = lhs.find(',', start)) != std::string::npos;
       start = comma + 1)
    terms.push_back(lhs.substr(start, comma - start));
  terms.push_back(lhs.substr(start));
  std::map<char, int64_t> sizes;
  for (size_t i = 0; i < terms.size(); ++i)
    for (size_t j = 0; j < terms[i].size(); ++j)
      sizes[terms[i][j]] = ops[i]->shape[j];
  std::string labels;
  Index extents;
  for (auto &[label, size] : sizes) {
    labels.push_back(label);
    extents.push_back(size);
  }
  Index outShape;
  for (char c : out)
    outShape.push_back(sizes[c]);
  Tensor result = Tensor::zeros(outShape, ops[0]->elem);
  std::vector<double> acc(result.numel(), 0.0);
  Index os = result.strides();
  forEachIndex(extents, [&](const Index &idx) {
    auto value = [&](char c) { return idx[labels.find(c)]; };
    double prod = 1.0;
    for (size_t i = 0; i < terms.size(); ++i) {
      Index at;
      for (char c : terms[i])
        at.push_back(value(c));
      prod *= ops[i]->at(at);
    }
    int64_t flat = 0;
    for (size_t i = 0; i < out.size(); ++i)
      flat += value(out[i]) * os[i];
    acc[flat] += prod;
  });
  for (size_t i = 0; i < acc.size(); ++i)
    result.data[i] = roundTo(result.elem, acc[i]);
  return result;
}

Tensor ref::matmul(const Tensor &a, const Tensor &b) {
  Index batchA(a.shape.begin(), a.shape.end() - 2);
  Index batchB(b.shape.begin(), b.shape.end() - 2);
  Index shape = broadcastShape(batchA, batchB);
  int64_t m = a.shape[a.shape.size() - 2], k = a.shape.back(),
          n = b.shape.back();
  shape.push_back(m);
  shape.push_back(n);
  return generate(shape, a.elem, [&](const Index &idx) {
    Index ai(idx.end() - 2 - batchA.size(), idx.end());
    Index bi(idx.end() - 2 - batchB.size(), idx.end());
    for (size_t i = 0; i + 2 < ai.size(); ++i)
      if (a.shape[i] == 1)
        ai[i] = 0;
    for (size_t i = 0; i + 2 < bi.size(); ++i)
      if (b.shape[i] == 1)
        bi[i] = 0;
    double acc = 0;
    for (int64_t j = 0; j < k; ++j) {
      ai[ai.size() - 1] = j;
      bi[bi.size() - 2] = j;
      bi[bi.size() - 1] = idx.back();
      acc += a.at(ai) * b.at(bi);
    }
    return acc;
  });
}

Tensor ref::slice(const Tensor &x, const Index &starts, const Index &stops) {
  Index shape;
  for (size_t i = 0; i < x.shape.size(); ++i)
    shape.push_back(stops[i] - starts[i]);
  return generate(shape, x.elem, [&](const Index &idx) {
    Index at = idx;
    for (size_t i = 0; i < at.size(); ++i)
      at[i] += starts[i];
    return x.at(at);
  });
}

Tensor ref::take(const Tensor &x, const Tensor &idx, int64_t axis) {
  // Result shape: x's axes before `axis`, idx's shape, x's axes after it.
  Index shape(x.shape.begin(), x.shape.begin() + axis);
  shape.insert(shape.end(), idx.shape.begin(), idx.shape.end());
  shape.insert(shape.end(), x.shape.begin() + axis + 1, x.shape.end());
  size_t rankIdx = idx.shape.size();
  return generate(shape, x.elem, [&](const Index &i) {
    Index at(i.begin(), i.begin() + axis);
    Index which(i.begin() + axis, i.begin() + axis + rankIdx);
    int64_t pos = static_cast<int64_t>(idx.at(which));
    at.push_back(std::clamp<int64_t>(pos, 0, x.shape[axis] - 1));
    at.insert(at.end(), i.begin() + axis + rankIdx, i.end());
    return x.at(at);
  });
}

Tensor ref::transpose(const Tensor &x, const Index &perm) {
  Index shape;
  for (int64_t p : perm)
    shape.push_back(x.shape[p]);
  return generate(shape, x.elem, [&](const Index &i) {
    Index at(x.shape.size());
    for (size_t k = 0; k < perm.size(); ++k)
      at[perm[k]] = i[k];
    return x.at(at);
  });
}

Tensor ref::concat(const std::vector<const Tensor *> &parts, int64_t axis) {
  Index shape = parts[0]->shape;
  shape[axis] = 0;
  for (const Tensor *p : parts)
    shape[axis] += p->shape[axis];
  return generate(shape, parts[0]->elem, [&](const Index &i) {
    Index at = i;
    for (const Tensor *p : parts) {
      if (at[axis] < p->shape[axis])
        return p->at(at);
      at[axis] -= p->shape[axis];
    }
    return 0.0;
  });
}

Tensor ref::scan(const Tensor &x, int64_t axis, Scan kind) {
  return generate(x.shape, x.elem, [&](const Index &i) {
    Index at = i;
    double acc = kind == Scan::Sum ? 0.0 : -INFINITY;
    for (at[axis] = 0; at[axis] <= i[axis]; ++at[axis])
      acc = kind == Scan::Sum ? acc + x.at(at) : std::max(acc, x.at(at));
    return acc;
  });
}

Tensor ref::mse(const Tensor &pred, const Tensor &target) {
  Tensor sq = map(widen(pred), target,
                  [](double p, double t) { return (p - t) * (p - t); });
  Index all(pred.shape.size());
  for (size_t i = 0; i < all.size(); ++i)
    all[i] = static_cast<int64_t>(i);
  return ref::cast(reduce(sq, all, false, Reduce::Mean), pred.elem);
}

/// -mean_b of f(b, label_b), labels clamped to [0, C-1].
static Tensor meanOverBatch(const Tensor &x, const Tensor &labels,
                            const std::function<double(int64_t, int64_t)> &f) {
  int64_t batch = x.shape[0], classes = x.shape[1];
  double total = 0;
  for (int64_t b = 0; b < batch; ++b)
    total += f(b, std::clamp<int64_t>(static_cast<int64_t>(labels.data[b]), 0,
                                      classes - 1));
  Tensor out = Tensor::zeros({}, x.elem);
  out.data[0] = roundTo(x.elem, total / batch);
  return out;
}

Tensor ref::crossEntropy(const Tensor &logits, const Tensor &labels) {
  Tensor lsm = logSoftmax(widen(logits), 1);
  return meanOverBatch(logits, labels, [&](int64_t b, int64_t c) {
    return -lsm.at({b, c});
  });
}

Tensor ref::nll(const Tensor &logp, const Tensor &labels) {
  return meanOverBatch(logp, labels, [&](int64_t b, int64_t c) {
    return -logp.at({b, c});
  });
}

double ref::gelu(double x) {
  return 0.5 * x *
         (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
}
