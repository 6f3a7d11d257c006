//===- HostKernels.cpp - Calling host objects through the C interface -----===//

#include "HostKernels.h"

#include <cstring>
#include <stdexcept>

using namespace accy::e2e;

Tensor Tensor::zeros(std::vector<int64_t> shape, bool isBool) {
  Tensor t;
  t.shape = std::move(shape);
  t.isBool = isBool;
  if (isBool)
    t.bools.assign(t.numel(), 0);
  else
    t.data.assign(t.numel(), 0.f);
  return t;
}

Tensor Tensor::random(std::vector<int64_t> shape, std::mt19937 &rng, float lo,
                      float hi) {
  Tensor t = zeros(std::move(shape));
  std::uniform_real_distribution<float> dist(lo, hi);
  for (float &v : t.data)
    v = dist(rng);
  return t;
}

int64_t Tensor::numel() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::vector<int64_t> Tensor::strides() const {
  std::vector<int64_t> s(shape.size(), 1);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i)
    s[i] = s[i + 1] * shape[i + 1];
  return s;
}

float &Tensor::at(const std::vector<int64_t> &index) {
  int64_t flat = 0;
  std::vector<int64_t> s = strides();
  for (size_t i = 0; i < index.size(); ++i)
    flat += index[i] * s[i];
  return data[flat];
}

float Tensor::at(const std::vector<int64_t> &index) const {
  return const_cast<Tensor *>(this)->at(index);
}

Descriptor::Descriptor(Tensor &t) {
  void *ptr = t.isBool ? static_cast<void *>(t.bools.data())
                       : static_cast<void *>(t.data.data());
  int64_t word;
  std::memcpy(&word, &ptr, sizeof(word));
  words = {word, word, 0};
  for (int64_t d : t.shape)
    words.push_back(d);
  for (int64_t s : t.strides())
    words.push_back(s);
}

void accy::e2e::callKernel(void *function, std::vector<Tensor *> inputs,
                           std::vector<Tensor *> outputs) {
  std::vector<Descriptor> descs;
  for (Tensor *t : inputs)
    descs.emplace_back(*t);
  for (Tensor *t : outputs)
    descs.emplace_back(*t);
  std::vector<void *> args;
  for (Descriptor &d : descs)
    args.push_back(d.get());
  using P = void *;
  switch (args.size()) {
#define ACCY_CALL(N, ...)                                                      \
  case N:                                                                      \
    reinterpret_cast<void (*)(__VA_ARGS__)>(function)
  ACCY_CALL(2, P, P)(args[0], args[1]);
    return;
  ACCY_CALL(3, P, P, P)(args[0], args[1], args[2]);
    return;
  ACCY_CALL(4, P, P, P, P)(args[0], args[1], args[2], args[3]);
    return;
  ACCY_CALL(5, P, P, P, P, P)(args[0], args[1], args[2], args[3], args[4]);
    return;
  ACCY_CALL(7, P, P, P, P, P, P, P)
  (args[0], args[1], args[2], args[3], args[4], args[5], args[6]);
    return;
  ACCY_CALL(8, P, P, P, P, P, P, P, P)
  (args[0], args[1], args[2], args[3], args[4], args[5], args[6], args[7]);
    return;
  ACCY_CALL(11, P, P, P, P, P, P, P, P, P, P, P)
  (args[0], args[1], args[2], args[3], args[4], args[5], args[6], args[7],
   args[8], args[9], args[10]);
    return;
#undef ACCY_CALL
  default:
    throw std::logic_error("callKernel: unsupported argument count");
  }
}
