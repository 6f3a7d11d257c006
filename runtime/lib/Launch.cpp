//===- Launch.cpp - Checking a call against the kernel's signature --------===//
//
// The kernels trust their arguments (docs/abi.md): static sizes must match,
// dimensions with the same name must agree, views must be row-major and
// contiguous, 16-byte aligned, and outputs must not overlap anything else.
// Every rule is checked here, before any device sees the call.
//
//===----------------------------------------------------------------------===//

#include "Device.h"

#include <map>
#include <vector>

using namespace accy;
using namespace accy::detail;

namespace {

std::string paramText(const Kernel &kernel, int32_t param) {
  return std::string(kernel.params[param].output ? "result '"
                                                 : "parameter '") +
         kernel.params[param].name + "'";
}

std::string describe(const Kernel &kernel, int32_t param) {
  return std::string("kernel '") + kernel.name + "', " +
         paramText(kernel, param);
}

std::string dimName(const Kernel &kernel, const Dim &dim) {
  return dim.size >= 0 ? std::to_string(dim.size)
                       : kernel.dimNames[dim.symbol];
}

std::string shapeText(const Kernel &kernel, const Param &param) {
  std::string text = elementTypeName(param.element) + std::string("[");
  for (int32_t d = 0; d < param.rank; ++d)
    text += (d ? ", " : "") + dimName(kernel, param.dims[d]);
  return text + "]";
}

Status checkShapes(const Kernel &kernel, const TensorArg *args) {
  struct Binding {
    int64_t value;
    int32_t param;
    int32_t dim;
  };
  std::map<int32_t, Binding> bound; // symbol name -> first value seen
  for (int32_t p = 0; p < kernel.numParams; ++p) {
    const Param &param = kernel.params[p];
    for (int32_t d = 0; d < param.rank; ++d) {
      int64_t size = args[p].sizes[d];
      const Dim &dim = param.dims[d];
      std::string where = describe(kernel, p) + " (" +
                          shapeText(kernel, param) + "): dimension " +
                          std::to_string(d);
      if (size < 0)
        return {ErrorCode::InvalidArgument,
                where + " has negative size " + std::to_string(size)};
      if (dim.size >= 0) {
        if (size != dim.size)
          return {ErrorCode::ShapeMismatch, where + " is " +
                                                std::to_string(size) +
                                                ", expected " +
                                                std::to_string(dim.size)};
        continue;
      }
      auto [it, first] = bound.try_emplace(dim.symbol, Binding{size, p, d});
      if (!first && it->second.value != size)
        return {ErrorCode::ShapeMismatch,
                where + " is " + dimName(kernel, dim) + " = " +
                    std::to_string(size) + ", but " +
                    paramText(kernel, it->second.param) + " has " +
                    dimName(kernel, dim) + " = " +
                    std::to_string(it->second.value) + " (dimension " +
                    std::to_string(it->second.dim) + ")"};
    }
  }
  return {};
}

Status checkLayouts(const Kernel &kernel, const TensorArg *args) {
  for (int32_t p = 0; p < kernel.numParams; ++p) {
    const Param &param = kernel.params[p];
    int64_t expected = 1;
    int64_t numel = 1;
    for (int32_t d = param.rank; d-- > 0;) {
      // A stride does not matter along a dimension of size 1.
      if (args[p].sizes[d] > 1 && args[p].strides[d] != expected)
        return {ErrorCode::InvalidArgument,
                describe(kernel, p) + ": stride " +
                    std::to_string(args[p].strides[d]) + " of dimension " +
                    std::to_string(d) + " is not row-major contiguous (" +
                    std::to_string(expected) +
                    "); Accy kernels take dense row-major tensors"};
      expected *= args[p].sizes[d];
      numel *= args[p].sizes[d];
    }
    if (numel > 0 && !args[p].data)
      return {ErrorCode::InvalidArgument,
              describe(kernel, p) + ": data is null"};
    if (reinterpret_cast<uintptr_t>(args[p].data) % 16 != 0)
      return {ErrorCode::InvalidArgument,
              describe(kernel, p) + ": data is not 16-byte aligned"};
  }
  return {};
}

Status checkAliasing(const Kernel &kernel, const TensorArg *args) {
  std::vector<std::pair<uintptr_t, uintptr_t>> ranges(kernel.numParams);
  for (int32_t p = 0; p < kernel.numParams; ++p) {
    size_t bytes = elementSize(kernel.params[p].element);
    for (int32_t d = 0; d < kernel.params[p].rank; ++d)
      bytes *= static_cast<size_t>(args[p].sizes[d]);
    uintptr_t begin = reinterpret_cast<uintptr_t>(args[p].data);
    ranges[p] = {begin, begin + bytes};
  }
  for (int32_t p = 0; p < kernel.numParams; ++p) {
    if (!kernel.params[p].output)
      continue;
    for (int32_t q = 0; q < kernel.numParams; ++q) {
      bool empty = ranges[p].first == ranges[p].second ||
                   ranges[q].first == ranges[q].second;
      if (q == p || empty)
        continue;
      if (ranges[p].first < ranges[q].second &&
          ranges[q].first < ranges[p].second)
        return {ErrorCode::InvalidArgument,
                describe(kernel, p) + " overlaps " +
                    paramText(kernel, q)};
    }
  }
  return {};
}

} // namespace

Status accy::detail::launch(const Kernel &kernel, const TensorArg *args,
                            Stream stream) {
  Runtime &runtime = Runtime::instance();
  if (!runtime.backend())
    return runtime.status();
  for (auto check : {checkShapes, checkLayouts, checkAliasing})
    if (Status status = check(kernel, args); !status.ok())
      return status;
  std::vector<int64_t> symbols(kernel.numSymbols);
  for (int32_t i = 0; i < kernel.numSymbols; ++i)
    symbols[i] = args[kernel.symbols[i].param].sizes[kernel.symbols[i].dim];
  return runtime.backend()->launch(kernel, args, symbols.data(), stream);
}
