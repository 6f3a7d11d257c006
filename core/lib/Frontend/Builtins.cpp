//===- Builtins.cpp - The built-in functions of Accy ----------------------===//

#include "accy/Frontend/Builtins.h"

using namespace accy;

namespace {
using P = BuiltinParam;
using K = ParamKind;
const P unaryParams[] = {{"x", K::Tensor, true}};
const P softmaxParams[] = {{"x", K::Tensor, true}, {"axis", K::Axis, false}};
const P reduceParams[] = {{"x", K::Tensor, true},
                          {"axis", K::AxisOrList, false},
                          {"keepdims", K::Bool, false}};
const P einsumParams[] = {{"spec", K::Spec, true}};
const P matmulParams[] = {{"a", K::Tensor, true}, {"b", K::Tensor, true}};
const P takeParams[] = {{"x", K::Tensor, true},
                        {"idx", K::Tensor, true},
                        {"axis", K::Axis, false}};
const P transposeParams[] = {{"x", K::Tensor, true}, {"perm", K::IntList, false}};
const P shapeParams[] = {{"x", K::Tensor, true}, {"shape", K::Shape, true}};
const P concatParams[] = {{"tensors", K::TensorList, true},
                          {"axis", K::Axis, false}};
const P scanParams[] = {{"x", K::Tensor, true}, {"axis", K::Axis, true}};
const P mseParams[] = {{"pred", K::Tensor, true}, {"target", K::Tensor, true}};
const P xentParams[] = {{"logits", K::Tensor, true},
                        {"labels", K::Tensor, true}};
const P nllParams[] = {{"logp", K::Tensor, true}, {"labels", K::Tensor, true}};
const P selectParams[] = {{"cond", K::Tensor, true},
                          {"a", K::Tensor, true},
                          {"b", K::Tensor, true}};
const P fullParams[] = {{"shape", K::Shape, true}, {"value", K::Tensor, true}};
const P iotaParams[] = {{"n", K::Dim, true}};

using G = BuiltinGroup;
const BuiltinInfo table[] = {
    {Builtin::Relu, "relu", G::Activation, "relu(x)", unaryParams},
    {Builtin::Gelu, "gelu", G::Activation, "gelu(x)", unaryParams},
    {Builtin::Sigmoid, "sigmoid", G::Activation, "sigmoid(x)", unaryParams},
    {Builtin::Tanh, "tanh", G::Activation, "tanh(x)", unaryParams},
    {Builtin::Silu, "silu", G::Activation, "silu(x)", unaryParams},
    {Builtin::Exp, "exp", G::Activation, "exp(x)", unaryParams},
    {Builtin::Log, "log", G::Activation, "log(x)", unaryParams},
    {Builtin::Sqrt, "sqrt", G::Activation, "sqrt(x)", unaryParams},
    {Builtin::Rsqrt, "rsqrt", G::Activation, "rsqrt(x)", unaryParams},
    {Builtin::Abs, "abs", G::Activation, "abs(x)", unaryParams},
    {Builtin::Softmax, "softmax", G::Activation, "softmax(x, axis=-1)",
     softmaxParams},
    {Builtin::LogSoftmax, "log_softmax", G::Activation,
     "log_softmax(x, axis=-1)", softmaxParams},
    {Builtin::Sum, "sum", G::Reduction, "sum(x, axis=K|[K, ...], keepdims=false)",
     reduceParams},
    {Builtin::Mean, "mean", G::Reduction,
     "mean(x, axis=K|[K, ...], keepdims=false)", reduceParams},
    {Builtin::Max, "max", G::Reduction, "max(x, axis=K|[K, ...], keepdims=false)",
     reduceParams},
    {Builtin::Min, "min", G::Reduction, "min(x, axis=K|[K, ...], keepdims=false)",
     reduceParams},
    {Builtin::Einsum, "einsum", G::Contraction, "einsum(\"spec\", a, b, ...)",
     einsumParams, /*variadicTensors=*/true},
    {Builtin::MatMul, "@", G::Contraction, "a @ b", matmulParams, false,
     /*callable=*/false},
    {Builtin::Take, "take", G::Indexing, "take(x, idx, axis=0)", takeParams},
    {Builtin::Transpose, "transpose", G::Indexing, "transpose(x, perm=[...])",
     transposeParams},
    {Builtin::Reshape, "reshape", G::Indexing, "reshape(x, [d, ...])",
     shapeParams},
    {Builtin::Broadcast, "broadcast", G::Indexing, "broadcast(x, [d, ...])",
     shapeParams},
    {Builtin::Concat, "concat", G::Indexing, "concat([a, b, ...], axis=0)",
     concatParams},
    {Builtin::Cumsum, "cumsum", G::Scan, "cumsum(x, axis=K)", scanParams},
    {Builtin::Cummax, "cummax", G::Scan, "cummax(x, axis=K)", scanParams},
    {Builtin::Mse, "mse", G::Loss, "mse(pred, target)", mseParams},
    {Builtin::CrossEntropy, "cross_entropy", G::Loss,
     "cross_entropy(logits, labels)", xentParams},
    {Builtin::Nll, "nll", G::Loss, "nll(logp, labels)", nllParams},
    {Builtin::Select, "select", G::Misc, "select(cond, a, b)", selectParams},
    {Builtin::Cast, "cast", G::Misc, "cast<T>(x)", unaryParams},
    {Builtin::Full, "full", G::Misc, "full([d, ...], value)", fullParams},
    {Builtin::Iota, "iota", G::Misc, "iota(N)", iotaParams},
};
} // namespace

const BuiltinInfo &accy::getBuiltinInfo(Builtin id) {
  return table[static_cast<unsigned>(id)];
}

const BuiltinInfo *accy::lookupBuiltin(llvm::StringRef name) {
  for (const BuiltinInfo &info : table)
    if (info.callable && name == info.name)
      return &info;
  return nullptr;
}

llvm::ArrayRef<BuiltinInfo> accy::allBuiltins() { return table; }

std::vector<std::string> accy::builtinNames() {
  std::vector<std::string> names;
  for (const BuiltinInfo &info : table)
    if (info.callable)
      names.push_back(info.name);
  return names;
}
