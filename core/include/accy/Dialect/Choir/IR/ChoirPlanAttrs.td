//===- ChoirPlanAttrs.td - Dispatch plans as typed attributes -*- tablegen -*-===//
//
// What the dispatch stage decides about each dispatch and hands to the
// memory, kernel and target stages: which ops a dispatch holds
// (`choir.member` on each of them) and, on its root, how it is scheduled
// and launched on each target (`choir.plan`). The dialect verifies both
// wherever they appear (ChoirDialect::verifyOperationAttribute).
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_CHOIR_PLAN_ATTRS
#define ACCY_CHOIR_PLAN_ATTRS

include "accy/Dialect/Choir/IR/ChoirBase.td"
include "mlir/IR/AttrTypeBase.td"

class Choir_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Choir_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Choir_Schedule : I32EnumAttr<"Schedule", "dispatch schedule", [
    I32EnumAttrCase<"Elementwise", 0, "elementwise">,
    I32EnumAttrCase<"RowReduction", 1, "row_reduction">,
    I32EnumAttrCase<"ThreadReduction", 2, "thread_reduction">,
    I32EnumAttrCase<"TiledContraction", 3, "tiled_contraction">,
    I32EnumAttrCase<"Scan", 4, "scan">]> {
  let cppNamespace = "::accy::choir";
  let genSpecializedAttr = 0;
}

def Choir_DispatchRole : I32EnumAttr<"DispatchRole", "role of an op in its dispatch", [
    I32EnumAttrCase<"Root", 0, "root">,
    I32EnumAttrCase<"Init", 1, "init">,
    I32EnumAttrCase<"Epilogue", 2, "epilogue">]> {
  let cppNamespace = "::accy::choir";
  let genSpecializedAttr = 0;
}

def Choir_MemberAttr : Choir_Attr<"Member", "member"> {
  let summary = "The dispatch an op belongs to, and its role there";
  let description = [{
    `#choir.member<3>` marks the root of dispatch 3 (the op a kernel is
    built around), `#choir.member<3, init>` a fill folded into that root as
    its start value, `#choir.member<3, epilogue>` an op fused after it, run
    in its kernel.
  }];
  let parameters = (ins "int64_t":$id,
      DefaultValuedParameter<"DispatchRole", "DispatchRole::Root">:$role);
  let assemblyFormat = "`<` $id (`,` $role^)? `>`";
  let genVerifyDecl = 1;
}

def Choir_LaunchAttr : Choir_Attr<"Launch", "launch"> {
  let summary = "How a dispatch launches on one GPU target";
  let description = [{
    Threads of a block (x, y, z), the iteration tile a block takes, the
    subgroup (warp, wavefront) size and the workgroup memory a block needs
    in bytes. An elementwise dispatch with `tile = [32, 32]` is tiled over
    the two loops its operands are contiguous along (`findTransposedLoops`,
    TransposeKernel.cpp). Fields of one schedule, zero (and not printed)
    otherwise:
    - row reductions of a length known only at run time:
      `rows_per_block` subgroups a block, each taking a row of at most
      `subgroup_rows_up_to` elements;
    - scans: `lines_per_block` (a thread walks a line; from
      `thread_lines_from` lines when the count is dynamic), `line_tile`
      (blocks share a line, below `split_lines_below` lines when a size is
      dynamic), `line_chunks` (each line in that many chunks, a thread
      each, `lines_per_block` lines a block; below `thread_lines_from`
      lines where that is set, else always), `shuffle_up` (`gpu.shuffle
      up`, which MLIR 19 lowers to NVVM only; `idx` shuffles otherwise);
    - tiled contractions on tensor cores: `mma`, the shape (M, N, K) of the
      matrix instruction each subgroup issues (`[16, 8, 16]`: NVIDIA's
      `mma.sync`; `[16, 16, 16]`: AMD's MFMA), and `stages`, the K tiles
      in flight (2: one in workgroup memory being multiplied, the next on
      its way there).
  }];
  let parameters = (ins "::mlir::DenseI64ArrayAttr":$block,
      "::mlir::DenseI64ArrayAttr":$tile,
      "int64_t":$subgroup,
      "int64_t":$workgroup_memory,
      DefaultValuedParameter<"int64_t", "0">:$rows_per_block,
      DefaultValuedParameter<"int64_t", "0">:$subgroup_rows_up_to,
      DefaultValuedParameter<"int64_t", "0">:$lines_per_block,
      DefaultValuedParameter<"int64_t", "0">:$thread_lines_from,
      DefaultValuedParameter<"int64_t", "0">:$line_tile,
      DefaultValuedParameter<"int64_t", "0">:$split_lines_below,
      DefaultValuedParameter<"int64_t", "0">:$line_chunks,
      DefaultValuedParameter<"bool", "false">:$shuffle_up,
      OptionalParameter<"::mlir::DenseI64ArrayAttr">:$mma,
      DefaultValuedParameter<"int64_t", "0">:$stages);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Choir_SerialLoopsAttr : Choir_Attr<"SerialLoops", "serial_loops"> {
  let summary = "A dispatch that runs as loops on the host";
}

def Choir_ContractionLoopsAttr : Choir_Attr<"ContractionLoops", "contraction"> {
  let summary = "The loops and operands a tiled contraction is built from";
  let description = [{
    The root's M, N and K loops (of several M or N loops, the one the
    output varies fastest along; the others are batch loops), its batch
    loops, and which operands are the M x K (`lhs`) and K x N (`rhs`)
    inputs.
  }];
  let parameters = (ins "int64_t":$m, "int64_t":$n, "int64_t":$k,
      "::mlir::DenseI64ArrayAttr":$batch, "int64_t":$lhs, "int64_t":$rhs);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Choir_ScanLoopsAttr : Choir_Attr<"ScanLoops", "scan_loops"> {
  let summary = "The loops a scan is built from";
  let description = [{
    The loop of the scanned axis (i) and the reduction loop (j) the tensor
    stage's quadratic form masks by j <= i.
  }];
  let parameters = (ins "int64_t":$axis, "int64_t":$masked);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Choir_PlanAttr : Choir_Attr<"Plan", "plan"> {
  let summary = "The schedule of a dispatch and its launch on each target";
  let description = [{
    ```mlir
    #choir.plan<row_reduction, combiner = "maximumf",
                targets = {host = #choir.serial_loops,
                           sm_90 = #choir.launch<block = [256, 1, 1], ...>}>
    ```
    The combiner (the op that folds two partial results, without its
    dialect) is recorded for row reductions and scans, the loops a kernel
    is built from for tiled contractions (`contraction`) and scans
    (`scan`), so that the kernel stage builds from the plan rather than
    classifying the op again. Each target maps to a `#choir.launch` (GPU)
    or `#choir.serial_loops` (host).
  }];
  let parameters = (ins EnumParameter<Choir_Schedule>:$schedule,
      OptionalParameter<"::mlir::StringAttr">:$combiner,
      OptionalParameter<"ContractionLoopsAttr">:$contraction,
      OptionalParameter<"ScanLoopsAttr">:$scan,
      "::mlir::DictionaryAttr":$targets);
  let assemblyFormat = [{
    `<` $schedule `,` (`combiner` `=` $combiner^ `,`)?
    (`contraction` `=` $contraction^ `,`)? (`scan` `=` $scan^ `,`)?
    `targets` `=` $targets `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The launch on GPU target `target`, or null (no such target, or a
    /// host one).
    LaunchAttr getLaunch(::llvm::StringRef target) const;
  }];
}

#endif // ACCY_CHOIR_PLAN_ATTRS
