//===- ChoirOps.td - Choir operations -----------------------*- tablegen -*-===//
#ifndef ACCY_CHOIR_OPS
#define ACCY_CHOIR_OPS

include "accy/Dialect/Choir/IR/ChoirBase.td"
include "accy/Dialect/Choir/IR/ChoirDispatchOps.td"
include "accy/Dialect/Choir/IR/ChoirKernelAttrs.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

def Choir_ConstantOp : Choir_Op<"constant", [ConstantLike, Pure,
    AllTypesMatch<["value", "result"]>]> {
  let summary = "A constant tensor (a rank-0 tensor for scalars)";
  let arguments = (ins ElementsAttr:$value);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

class Choir_UnaryOp<string mnemonic, string what, list<Trait> traits = []>
    : Choir_Op<mnemonic, !listconcat(traits, [Pure, SameOperandsAndResultType])> {
  let summary = what;
  let arguments = (ins AnyRankedTensor:$input);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

def Choir_NegOp : Choir_UnaryOp<"neg", "elementwise negation"> {
  let hasFolder = 1;
}
def Choir_ReluOp : Choir_UnaryOp<"relu", "max(x, 0)">;
def Choir_GeluOp : Choir_UnaryOp<"gelu", "GELU, tanh form">;
def Choir_SigmoidOp : Choir_UnaryOp<"sigmoid", "1 / (1 + exp(-x))">;
def Choir_TanhOp : Choir_UnaryOp<"tanh", "hyperbolic tangent">;
def Choir_SiluOp : Choir_UnaryOp<"silu", "x * sigmoid(x)">;
def Choir_ExpOp : Choir_UnaryOp<"exp", "natural exponential">;
def Choir_LogOp : Choir_UnaryOp<"log", "natural logarithm">;
def Choir_SqrtOp : Choir_UnaryOp<"sqrt", "square root">;
def Choir_RsqrtOp : Choir_UnaryOp<"rsqrt", "reciprocal square root">;
def Choir_AbsOp : Choir_UnaryOp<"abs", "absolute value">;

// Binary elementwise ops broadcast their operands NumPy-style until the
// contract stage makes every broadcast explicit; after that both operand
// types equal the result type.
class Choir_BinaryOp<string mnemonic, string what, list<Trait> traits = []>
    : Choir_Op<mnemonic, !listconcat(traits, [Pure])> {
  let summary = what;
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Choir_AddOp : Choir_BinaryOp<"add", "elementwise addition", [Commutative]> {
  let hasFolder = 1;
}
def Choir_SubOp : Choir_BinaryOp<"sub", "elementwise subtraction"> {
  let hasFolder = 1;
}
def Choir_MulOp : Choir_BinaryOp<"mul", "elementwise multiplication", [Commutative]> {
  let hasFolder = 1;
}
def Choir_DivOp : Choir_BinaryOp<"div", "elementwise division"> {
  let hasFolder = 1;
}

def Choir_CmpOp : Choir_Op<"cmp", [Pure]> {
  let summary = "elementwise comparison with broadcasting; bool result";
  let arguments = (ins Choir_CmpPredicateAttr:$predicate,
                       AnyRankedTensor:$lhs, AnyRankedTensor:$rhs);
  let results = (outs TensorOf<[I1]>:$result);
  let assemblyFormat = [{
    $predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Choir_SelectOp : Choir_Op<"select", [Pure]> {
  let summary = "elementwise choice: cond ? a : b, with broadcasting";
  let arguments = (ins TensorOf<[I1]>:$cond, AnyRankedTensor:$on_true,
                       AnyRankedTensor:$on_false);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $cond `,` $on_true `,` $on_false attr-dict `:` type($cond) `,`
    type($on_true) `,` type($on_false) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Choir_CastOp : Choir_Op<"cast", [Pure]> {
  let summary = "elementwise conversion to another element type";
  let arguments = (ins AnyRankedTensor:$input);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Reductions and row operations
//===----------------------------------------------------------------------===//

def Choir_ReduceOp : Choir_Op<"reduce", [Pure]> {
  let summary = "sum, mean, max or min over a set of axes";
  let arguments = (ins Choir_ReduceKindAttr:$kind, AnyRankedTensor:$input,
                       DenseI64ArrayAttr:$axes, BoolAttr:$keepdims);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $kind $input attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

class Choir_RowOp<string mnemonic, string what>
    : Choir_Op<mnemonic, [Pure, SameOperandsAndResultType]> {
  let summary = what;
  let arguments = (ins AnyRankedTensor:$input, I64Attr:$axis);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
  let hasVerifier = 1;
}
def Choir_SoftmaxOp : Choir_RowOp<"softmax", "softmax along one axis">;
def Choir_LogSoftmaxOp : Choir_RowOp<"log_softmax", "log-softmax along one axis">;

def Choir_ScanOp : Choir_Op<"scan", [Pure, SameOperandsAndResultType]> {
  let summary = "inclusive cumulative sum or maximum along one axis";
  let arguments = (ins Choir_ScanKindAttr:$kind, AnyRankedTensor:$input,
                       I64Attr:$axis);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$kind $input attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Contraction
//===----------------------------------------------------------------------===//

def Choir_EinsumOp : Choir_Op<"einsum", [Pure]> {
  let summary = "Einstein summation over one or more operands";
  let description = [{
    `spec` is an einsum specification with lower-case letters, `->` and at
    most one `...` per operand, e.g. `"bi,ij->bj"`. `a @ b` is emitted as
    `"...ij,...jk->...ik"`.
  }];
  let arguments = (ins StrAttr:$spec, Variadic<AnyRankedTensor>:$inputs);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $spec $inputs attr-dict `:` functional-type($inputs, $result)
  }];
  let extraClassDeclaration = [{
    /// `spec` parsed for the ranks of the inputs; the error says what is
    /// wrong with it.
    llvm::Expected<EinsumSpec> parseSpec();
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shapes and indexing
//===----------------------------------------------------------------------===//

def Choir_BroadcastOp : Choir_Op<"broadcast", [Pure]> {
  let summary = "NumPy broadcast to a larger shape";
  let description = [{
    Dimensions align from the right; each input dimension equals the result
    dimension or is 1. `sizes` gives one index value per dynamic result
    dimension, in order.
  }];
  let arguments = (ins AnyRankedTensor:$input, Variadic<Index>:$sizes);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $input (`sizes` `(` $sizes^ `)`)? attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Choir_TransposeOp : Choir_Op<"transpose", [Pure]> {
  let summary = "permutation of the axes";
  let arguments = (ins AnyRankedTensor:$input, DenseI64ArrayAttr:$perm);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Choir_ReshapeOp : Choir_Op<"reshape", [Pure]> {
  let summary = "row-major reshape to a shape with the same element count";
  let arguments = (ins AnyRankedTensor:$input, Variadic<Index>:$sizes);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $input (`sizes` `(` $sizes^ `)`)? attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Choir_SliceOp : Choir_Op<"slice", [Pure, AttrSizedOperandSegments]> {
  let summary = "contiguous slice [start, start + size) of every axis";
  let arguments = (ins AnyRankedTensor:$input,
                       Variadic<Index>:$starts, Variadic<Index>:$sizes,
                       DenseI64ArrayAttr:$static_starts,
                       DenseI64ArrayAttr:$static_sizes);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $input
    custom<DynamicIndexList>($starts, $static_starts)
    custom<DynamicIndexList>($sizes, $static_sizes)
    attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Choir_TakeOp : Choir_Op<"take", [Pure]> {
  let summary = "gather along one axis with i32 indices, clamped to range";
  let arguments = (ins AnyRankedTensor:$input, TensorOf<[I32]>:$indices,
                       I64Attr:$axis);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $input `,` $indices attr-dict `:` type($input) `,` type($indices) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Choir_ConcatOp : Choir_Op<"concat", [Pure]> {
  let summary = "concatenation along one axis";
  let arguments = (ins Variadic<AnyRankedTensor>:$inputs, I64Attr:$axis);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$inputs attr-dict `:` functional-type($inputs, $result)";
  let hasVerifier = 1;
}

def Choir_FullOp : Choir_Op<"full", [Pure]> {
  let summary = "a tensor filled with one scalar value";
  let arguments = (ins TypedAttrInterface:$value, Variadic<Index>:$sizes);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $value (`sizes` `(` $sizes^ `)`)? attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def Choir_IotaOp : Choir_Op<"iota", [Pure]> {
  let summary = "i32[N] holding 0 .. N-1";
  let arguments = (ins Optional<Index>:$size);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = "($size^)? attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Losses
//===----------------------------------------------------------------------===//

class Choir_LossOp<string mnemonic, string what>
    : Choir_Op<mnemonic, [Pure]> {
  let summary = what;
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
}
def Choir_MseOp : Choir_LossOp<"mse", "mean squared error of pred and target">;
def Choir_CrossEntropyOp : Choir_LossOp<"cross_entropy",
    "mean cross-entropy of logits [B, C] and i32 class labels [B]">;
def Choir_NllOp : Choir_LossOp<"nll",
    "mean negative log-likelihood of log-probabilities [B, C] and labels [B]">;

#endif // ACCY_CHOIR_OPS
