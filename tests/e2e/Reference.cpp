//===- Reference.cpp - Straightforward reference implementations ----------===//

#include "Reference.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

using namespace accy::e2e;
using namespace accy::e2e::ref;

std::vector<int64_t> ref::broadcastShape(const std::vector<int64_t> &a,
                                         const std::vector<int64_t> &b) {
  size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t x = i < a.size() ? a[a.size() - 1 - i] : 1;
    int64_t y = i < b.size() ? b[b.size() - 1 - i] : 1;
    out[rank - 1 - i] = x == 1 ? y : x;
  }
  return out;
}

/// Calls f on every index of `shape`, in row-major order.
static void forEachIndex(const std::vector<int64_t> &shape,
                         const std::function<void(const std::vector<int64_t> &)> &f) {
  for (int64_t d : shape)
    if (d == 0)
      return;
  std::vector<int64_t> idx(shape.size(), 0);
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

/// The element of `t` that broadcasts to index `idx` of a larger shape.
static float broadcastAt(const Tensor &t, const std::vector<int64_t> &idx) {
  std::vector<int64_t> own(t.shape.size());
  size_t offset = idx.size() - t.shape.size();
  for (size_t i = 0; i < t.shape.size(); ++i)
    own[i] = t.shape[i] == 1 ? 0 : idx[i + offset];
  return t.at(own);
}

Tensor ref::map(const Tensor &x, const Unary &f) {
  Tensor out = Tensor::zeros(x.shape);
  for (int64_t i = 0; i < x.numel(); ++i)
    out.data[i] = static_cast<float>(f(x.data[i]));
  return out;
}

Tensor ref::map(const Tensor &a, const Tensor &b, const Binary &f) {
  Tensor out = Tensor::zeros(broadcastShape(a.shape, b.shape));
  forEachIndex(out.shape, [&](const std::vector<int64_t> &idx) {
    out.at(idx) = static_cast<float>(f(broadcastAt(a, idx), broadcastAt(b, idx)));
  });
  return out;
}

Tensor ref::compare(const Tensor &a, const Tensor &b,
                    const std::function<bool(float, float)> &f) {
  Tensor out = Tensor::zeros(broadcastShape(a.shape, b.shape), /*isBool=*/true);
  int64_t flat = 0;
  forEachIndex(out.shape, [&](const std::vector<int64_t> &idx) {
    out.bools[flat++] = f(broadcastAt(a, idx), broadcastAt(b, idx));
  });
  return out;
}

Tensor ref::reduce(const Tensor &x, std::vector<int64_t> axes, bool keepdims,
                   Reduce kind) {
  std::vector<int64_t> kept = x.shape;
  for (int64_t a : axes)
    kept[a] = 1;
  std::vector<double> acc(Tensor::zeros(kept).numel(),
                          kind == Reduce::Max   ? -INFINITY
                          : kind == Reduce::Min ? INFINITY
                                                : 0.0);
  Tensor keptT = Tensor::zeros(kept);
  std::vector<int64_t> ks = keptT.strides();
  int64_t count = 1;
  for (int64_t a : axes)
    count *= x.shape[a];
  forEachIndex(x.shape, [&](const std::vector<int64_t> &idx) {
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
    out.data[i] = static_cast<float>(kind == Reduce::Mean ? acc[i] / count
                                                          : acc[i]);
  if (!keepdims) {
    std::vector<int64_t> shape;
    for (size_t i = 0; i < x.shape.size(); ++i)
      if (std::find(axes.begin(), axes.end(), (int64_t)i) == axes.end())
        shape.push_back(x.shape[i]);
    out.shape = shape;
  }
  return out;
}

Tensor ref::softmax(const Tensor &x, int64_t axis) {
  Tensor m = reduce(x, {axis}, true, Reduce::Max);
  Tensor e = map(x, m, [](double a, double b) { return std::exp(a - b); });
  Tensor s = reduce(e, {axis}, true, Reduce::Sum);
  return map(e, s, [](double a, double b) { return a / b; });
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
  std::vector<int64_t> extents;
  for (auto &[label, size] : sizes) {
    labels.push_back(label);
    extents.push_back(size);
  }
  std::vector<int64_t> outShape;
  for (char c : out)
    outShape.push_back(sizes[c]);
  Tensor result = Tensor::zeros(outShape);
  std::vector<double> acc(result.numel(), 0.0);
  std::vector<int64_t> os = result.strides();
  forEachIndex(extents, [&](const std::vector<int64_t> &idx) {
    auto value = [&](char c) { return idx[labels.find(c)]; };
    double prod = 1.0;
    for (size_t i = 0; i < terms.size(); ++i) {
      std::vector<int64_t> at;
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
    result.data[i] = static_cast<float>(acc[i]);
  return result;
}

Tensor ref::matmul(const Tensor &a, const Tensor &b) {
  std::vector<int64_t> batchA(a.shape.begin(), a.shape.end() - 2);
  std::vector<int64_t> batchB(b.shape.begin(), b.shape.end() - 2);
  std::vector<int64_t> batch = broadcastShape(batchA, batchB);
  int64_t m = a.shape[a.shape.size() - 2], k = a.shape.back(),
          n = b.shape.back();
  std::vector<int64_t> shape = batch;
  shape.push_back(m);
  shape.push_back(n);
  Tensor out = Tensor::zeros(shape);
  forEachIndex(shape, [&](const std::vector<int64_t> &idx) {
    std::vector<int64_t> ai(idx.end() - 2 - batchA.size(), idx.end());
    std::vector<int64_t> bi(idx.end() - 2 - batchB.size(), idx.end());
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
      acc += double(a.at(ai)) * b.at(bi);
    }
    out.at(idx) = static_cast<float>(acc);
  });
  return out;
}

double ref::gelu(double x) {
  return 0.5 * x *
         (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
}
