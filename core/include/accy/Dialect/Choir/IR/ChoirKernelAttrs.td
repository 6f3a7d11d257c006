//===- ChoirKernelAttrs.td - Memory plan and kernel summary -*- tablegen -*-===//
//
// What the memory and kernel stages record on each kernel module for the
// stages after them, the code generation library and a runtime: the buffer
// plan (`choir.memory = #choir.memory_plan<...>`) and the launches of every
// GPU target (`choir.kernels = #choir.kernel_summary<...>`). The dialect
// verifies both wherever they appear. docs/abi.md is their contract.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_CHOIR_KERNEL_ATTRS
#define ACCY_CHOIR_KERNEL_ATTRS

include "accy/Dialect/Choir/IR/ChoirPlanAttrs.td"

def Choir_ArgumentRole : I32EnumAttr<"ArgumentRole", "role of an entry argument", [
    I32EnumAttrCase<"Input", 0, "input">,
    I32EnumAttrCase<"Output", 1, "output">]> {
  let cppNamespace = "::accy::choir";
  let genSpecializedAttr = 0;
}

def Choir_MemorySpace : I32EnumAttr<"MemorySpace", "memory space of a buffer", [
    I32EnumAttrCase<"Global", 0, "global">]> {
  let cppNamespace = "::accy::choir";
  let genSpecializedAttr = 0;
}

def Choir_KernelOperandKind : I32EnumAttr<"KernelOperandKind",
    "what a kernel operand is", [
    I32EnumAttrCase<"Argument", 0, "argument">,
    I32EnumAttrCase<"Buffer", 1, "buffer">,
    I32EnumAttrCase<"Index", 2, "index">,
    I32EnumAttrCase<"Scalar", 3, "scalar">]> {
  let cppNamespace = "::accy::choir";
  let genSpecializedAttr = 0;
}

//===----------------------------------------------------------------------===//
// The memory plan
//===----------------------------------------------------------------------===//

def Choir_EntryArgumentAttr : Choir_Attr<"EntryArgument", "entry_argument"> {
  let summary = "An argument of a kernel's entry in the memory plan";
  let description = [{
    `#choir.entry_argument<index = 1, role = output, result = 0,
    alignment = 16, space = global>`: entry argument 1 holds result 0; the
    caller passes it aligned to 16 bytes. Inputs have no `result`.
  }];
  let parameters = (ins "int64_t":$index,
      EnumParameter<Choir_ArgumentRole>:$role,
      OptionalParameter<"std::optional<int64_t>">:$result,
      "int64_t":$alignment,
      EnumParameter<Choir_MemorySpace>:$space);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Choir_BufferAttr : Choir_Attr<"Buffer", "buffer"> {
  let summary = "An intermediate buffer of the memory plan";
  let description = [{
    Buffer `id` holds `element`s of `shape` (a map over the plan's
    symbols), `bytes` in all, aligned to `alignment`; it is live from the
    first to the last dispatch of `live` and stands for `reuses` other
    allocations whose live ranges ended before.
  }];
  let parameters = (ins "int64_t":$id, "::mlir::Type":$element,
      "::mlir::AffineMapAttr":$shape, "::mlir::AffineMapAttr":$bytes,
      "int64_t":$alignment, "::mlir::DenseI64ArrayAttr":$live,
      "int64_t":$reuses, EnumParameter<Choir_MemorySpace>:$space);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Choir_MemoryPlanAttr : Choir_Attr<"MemoryPlan", "memory_plan"> {
  let summary = "The buffer plan of a kernel";
  let description = [{
    `arguments`: one `#choir.entry_argument` per entry argument, in order;
    `buffers`: one `#choir.buffer` per intermediate buffer, ids 0..n-1 in
    order; `symbols`: symbol i is dimension `symbols[i][1]` of entry
    argument `symbols[i][0]`, the symbols of every shape and size.
  }];
  let parameters = (ins "::mlir::ArrayAttr":$arguments,
      "::mlir::ArrayAttr":$buffers, "::mlir::ArrayAttr":$symbols);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    auto getBufferPlans() const {
      return getBuffers().getAsRange<BufferAttr>();
    }
  }];
}

//===----------------------------------------------------------------------===//
// The kernel summary
//===----------------------------------------------------------------------===//

def Choir_KernelOperandAttr : Choir_Attr<"KernelOperand", "kernel_operand"> {
  let summary = "What a runtime passes for one kernel operand";
  let description = [{
    `<argument 1>`: entry argument 1; `<buffer 0>`: intermediate buffer 0
    of the memory plan; `<index affine_map<()[s0, s1] -> (s0 * s1)>>`: an
    integer computed from the symbols; `<scalar 1.0 : f32>`: an integer or
    float constant.
  }];
  let parameters = (ins EnumParameter<Choir_KernelOperandKind>:$kind,
      DefaultValuedParameter<"int64_t", "-1">:$position,
      OptionalParameter<"::mlir::Attribute">:$value);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def Choir_KernelLaunchAttr : Choir_Attr<"KernelLaunch", "kernel_launch"> {
  let summary = "One launch of a generated kernel";
  let description = [{
    Kernel `name` of dispatch `dispatch`, scheduled as `schedule`: `block`
    threads, a `grid` of three maps over the symbols, `shared_memory`
    static bytes, and its `#choir.kernel_operand`s in order. `when`, on a
    launch made under a condition on the sizes, is an array of affine maps
    over the symbols, each a conjunction of constraints `result >= 0`; the
    launch runs when any holds. (Maps, not `affine_set`s: MLIR 19 cannot
    read an `affine_set`'s `>=` inside a dialect attribute's text, the form
    bytecode stores it in.) A launch on tensor cores also records, from its
    plan, the output tile a block takes (`tile`), the matrix instruction
    its subgroups issue (`mma`) and the K tiles in flight (`stages`).
  }];
  let parameters = (ins "::mlir::StringAttr":$name, "int64_t":$dispatch,
      EnumParameter<Choir_Schedule>:$schedule,
      "::mlir::DenseI64ArrayAttr":$block, "::mlir::AffineMapAttr":$grid,
      "int64_t":$shared_memory, "::mlir::ArrayAttr":$arguments,
      OptionalParameter<"::mlir::ArrayAttr">:$when,
      OptionalParameter<"::mlir::DenseI64ArrayAttr">:$tile,
      OptionalParameter<"::mlir::DenseI64ArrayAttr">:$mma,
      DefaultValuedParameter<"int64_t", "0">:$stages);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    auto getOperands() const {
      return getArguments().getAsRange<KernelOperandAttr>();
    }
  }];
}

def Choir_KernelSummaryAttr : Choir_Attr<"KernelSummary", "kernel_summary"> {
  let summary = "Every launch of a kernel, per GPU target";
  let description = [{
    `symbols` as in the memory plan; `targets` maps each GPU target to its
    `#choir.kernel_launch`es in launch order.
  }];
  let parameters = (ins "::mlir::ArrayAttr":$symbols,
      "::mlir::DictionaryAttr":$targets);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // ACCY_CHOIR_KERNEL_ATTRS
