//===- ChoirBase.td - The choir dialect and its op base class -*- tablegen -*-===//
//
// Choir is Accy's own dialect: the source-level tensor operations of the
// language, on builtin ranked tensors. Symbolic dimensions are dynamic (`?`)
// in types; their names live in the `choir.dims` argument attributes of the
// kernel function.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_CHOIR_BASE
#define ACCY_CHOIR_BASE

include "mlir/IR/OpBase.td"
include "mlir/IR/EnumAttr.td"

def Choir_Dialect : Dialect {
  let name = "choir";
  let cppNamespace = "::accy::choir";
  let summary = "Source-level tensor operations of the Accy language";
  let description = [{
    Choir ops are what the Accy frontend emits: elementwise arithmetic with
    NumPy broadcasting, activations, reductions, softmax, einsum, indexing,
    scans and losses. The contract stage makes broadcasts explicit and
    resolves every shape; the tensor stage lowers all choir ops to
    linalg/tensor/arith/math.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let hasOperationAttrVerify = 1;
  let dependentDialects = ["::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

class Choir_Op<string mnemonic, list<Trait> traits = []>
    : Op<Choir_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Choir_ReduceKind : I32EnumAttr<"ReduceKind", "reduction kind", [
    I32EnumAttrCase<"sum", 0>, I32EnumAttrCase<"mean", 1>,
    I32EnumAttrCase<"max", 2>, I32EnumAttrCase<"min", 3>]> {
  let cppNamespace = "::accy::choir";
  let genSpecializedAttr = 0;
}
def Choir_ReduceKindAttr : EnumAttr<Choir_Dialect, Choir_ReduceKind, "reduce_kind">;

def Choir_ScanKind : I32EnumAttr<"ScanKind", "scan kind", [
    I32EnumAttrCase<"cumsum", 0>, I32EnumAttrCase<"cummax", 1>]> {
  let cppNamespace = "::accy::choir";
  let genSpecializedAttr = 0;
}
def Choir_ScanKindAttr : EnumAttr<Choir_Dialect, Choir_ScanKind, "scan_kind">;

def Choir_CmpPredicate : I32EnumAttr<"CmpPredicate", "comparison predicate", [
    I32EnumAttrCase<"lt", 0>, I32EnumAttrCase<"le", 1>,
    I32EnumAttrCase<"gt", 2>, I32EnumAttrCase<"ge", 3>,
    I32EnumAttrCase<"eq", 4>, I32EnumAttrCase<"ne", 5>]> {
  let cppNamespace = "::accy::choir";
  let genSpecializedAttr = 0;
}
def Choir_CmpPredicateAttr
    : EnumAttr<Choir_Dialect, Choir_CmpPredicate, "cmp_predicate">;

#endif // ACCY_CHOIR_BASE
