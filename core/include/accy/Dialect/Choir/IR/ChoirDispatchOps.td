//===- ChoirDispatchOps.td - Dispatch regions ----------------*- tablegen -*-===//
//
// The dispatch stage's product: each group of linalg ops that the kernel
// stage compiles into one kernel (or its run-time variants) sits in a
// `choir.dispatch` region with its plan.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_CHOIR_DISPATCH_OPS
#define ACCY_CHOIR_DISPATCH_OPS

include "accy/Dialect/Choir/IR/ChoirPlanAttrs.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Choir_DispatchOp : Choir_Op<"dispatch", [IsolatedFromAbove, SingleBlock,
    RecursiveMemoryEffects, AttrSizedOperandSegments,
    DestinationStyleOpInterface]> {
  let summary = "Ops that run as one kernel, with their plan";
  let description = [{
    A dispatch region, isolated from above (IREE's
    `flow.dispatch.workgroups` is the model): the region reads only its
    block arguments, which take the `ins` operands and then the `outs`
    operands in order, and constants cloned into it. On tensors (the
    dispatch product) each result is written into the destination `outs`
    operand of the same index (the tensor its yielding op's chain of
    destinations starts from); on buffers (the memory product) there are
    no results and the `outs` are the buffers the region writes. The body
    holds the dispatch's root, the fills folded into it and the ops fused
    after it, each marked with its `#choir.member` role; `plan` is the
    root's `#choir.plan`.

    ```mlir
    %r = choir.dispatch ins(%x, %n : tensor<?x?xf32>, index)
                        outs(%e : tensor<?x?xf32>)
                        plan #choir.plan<row_reduction, ...> {
    ^bb0(%x0: tensor<?x?xf32>, %n0: index, %e0: tensor<?x?xf32>):
      ...
      choir.yield %y : tensor<?x?xf32>
    } -> tensor<?x?xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$inputs,
      Variadic<AnyTypeOf<[AnyRankedTensor, AnyMemRef]>>:$outputs,
      Choir_PlanAttr:$plan);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`ins` `(` $inputs^ `:` type($inputs) `)`)?
    `outs` `(` $outputs `:` type($outputs) `)`
    `plan` $plan attr-dict-with-keyword $body (`->` type($results)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getOutputsMutable();
    }
    /// The op the region's kernel is built around (see
    /// accy::getDispatchRoot).
    ::mlir::Operation *getRoot();
  }];
}

def Choir_YieldOp : Choir_Op<"yield", [Pure, Terminator, ReturnLike,
    HasParent<"DispatchOp">]> {
  let summary = "The results of a dispatch region";
  let arguments = (ins Variadic<AnyRankedTensor>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

#endif // ACCY_CHOIR_DISPATCH_OPS
