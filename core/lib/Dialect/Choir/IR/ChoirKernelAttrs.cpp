//===- ChoirKernelAttrs.cpp - The memory plan and kernel summary ----------===//
//
// Verifiers of the attributes in ChoirKernelAttrs.td and the syntax of a
// kernel operand (`<argument 1>`, `<buffer 0>`, `<index MAP>`,
// `<scalar VALUE>`).
//
//===----------------------------------------------------------------------===//

#include "accy/Dialect/Choir/IR/ChoirAttrs.h"

#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace accy::choir;

using EmitError = function_ref<InFlightDiagnostic()>;

/// Every element of `array` is an `AttrT`.
template <typename AttrT>
static LogicalResult verifyElements(EmitError emitError, ArrayAttr array,
                                    StringRef field, StringRef expected) {
  if (!array)
    return emitError() << "'" << field << "' is missing";
  for (Attribute element : array)
    if (!llvm::isa<AttrT>(element))
      return emitError() << "every element of '" << field << "' must be "
                         << expected << ", not " << element;
  return success();
}

/// `symbols`: pairs (entry argument, dimension) of non-negative integers.
static LogicalResult verifySymbols(EmitError emitError, ArrayAttr symbols) {
  if (!symbols)
    return emitError() << "'symbols' is missing";
  for (Attribute symbol : symbols) {
    auto pair = llvm::dyn_cast<DenseI64ArrayAttr>(symbol);
    if (!pair || pair.size() != 2 || pair[0] < 0 || pair[1] < 0)
      return emitError() << "a symbol must be array<i64: argument, "
                            "dimension> of non-negative integers, not "
                         << symbol;
  }
  return success();
}

/// A map over the symbols alone, with `results` results.
static LogicalResult verifySymbolMap(EmitError emitError, AffineMapAttr map,
                                     StringRef field, unsigned results) {
  if (!map || map.getValue().getNumDims() != 0 ||
      map.getValue().getNumResults() != results)
    return emitError() << "'" << field << "' must be an affine map of "
                       << results << " result(s) over symbols only";
  return success();
}

static LogicalResult verifyAlignment(EmitError emitError, int64_t alignment) {
  if (alignment <= 0 || !llvm::isPowerOf2_64(alignment))
    return emitError() << "alignment " << alignment
                       << " is not a positive power of two";
  return success();
}

LogicalResult EntryArgumentAttr::verify(EmitError emitError, int64_t index,
                                        ArgumentRole role,
                                        std::optional<int64_t> result,
                                        int64_t alignment, MemorySpace) {
  if (index < 0)
    return emitError() << "argument index " << index << " is negative";
  if (result.has_value() != (role == ArgumentRole::Output))
    return emitError() << "an output argument names the result it holds, "
                          "and only an output does";
  if (result && *result < 0)
    return emitError() << "result index " << *result << " is negative";
  return verifyAlignment(emitError, alignment);
}

LogicalResult BufferAttr::verify(EmitError emitError, int64_t id, Type element,
                                 AffineMapAttr shape, AffineMapAttr bytes,
                                 int64_t alignment, DenseI64ArrayAttr live,
                                 int64_t reuses, MemorySpace) {
  if (id < 0)
    return emitError() << "buffer id " << id << " is negative";
  if (!element || !element.isIntOrIndexOrFloat())
    return emitError() << "buffer element must be an integer or float type";
  if (!shape || shape.getValue().getNumDims() != 0)
    return emitError() << "'shape' must be an affine map over symbols only";
  if (failed(verifySymbolMap(emitError, bytes, "bytes", 1)) ||
      failed(verifyAlignment(emitError, alignment)))
    return failure();
  if (!live || live.size() != 2 || live[0] > live[1])
    return emitError() << "'live' must be the first and the last dispatch, "
                          "in order";
  if (reuses < 0)
    return emitError() << "reuses " << reuses << " is negative";
  return success();
}

LogicalResult MemoryPlanAttr::verify(EmitError emitError, ArrayAttr arguments,
                                     ArrayAttr buffers, ArrayAttr symbols) {
  if (failed(verifyElements<EntryArgumentAttr>(
          emitError, arguments, "arguments", "#choir.entry_argument")) ||
      failed(verifyElements<BufferAttr>(emitError, buffers, "buffers",
                                        "#choir.buffer")) ||
      failed(verifySymbols(emitError, symbols)))
    return failure();
  for (auto [position, argument] :
       llvm::enumerate(arguments.getAsRange<EntryArgumentAttr>()))
    if (argument.getIndex() != static_cast<int64_t>(position))
      return emitError() << "argument " << position << " of the plan has index "
                         << argument.getIndex();
  for (auto [position, buffer] :
       llvm::enumerate(buffers.getAsRange<BufferAttr>())) {
    if (buffer.getId() != static_cast<int64_t>(position))
      return emitError() << "buffer " << position << " of the plan has id "
                         << buffer.getId() << "; ids are 0..n-1 in order";
    if (buffer.getShape().getValue().getNumSymbols() != symbols.size() ||
        buffer.getBytes().getValue().getNumSymbols() != symbols.size())
      return emitError() << "the maps of buffer " << position
                         << " are not over the plan's " << symbols.size()
                         << " symbols";
  }
  return success();
}

LogicalResult KernelOperandAttr::verify(EmitError emitError,
                                        KernelOperandKind kind,
                                        int64_t position, Attribute value) {
  switch (kind) {
  case KernelOperandKind::Argument:
  case KernelOperandKind::Buffer:
    if (position < 0 || value)
      return emitError() << "an " << stringifyKernelOperandKind(kind)
                         << " operand is a non-negative position alone";
    return success();
  case KernelOperandKind::Index: {
    auto map = llvm::dyn_cast_or_null<AffineMapAttr>(value);
    if (position != -1 || !map)
      return emitError() << "an index operand is an affine map alone";
    return verifySymbolMap(emitError, map, "index", 1);
  }
  case KernelOperandKind::Scalar:
    if (position != -1 || !llvm::isa_and_nonnull<IntegerAttr, FloatAttr>(value))
      return emitError() << "a scalar operand is an integer or float "
                            "constant alone";
    return success();
  }
  llvm_unreachable("unknown kernel operand kind");
}

Attribute KernelOperandAttr::parse(AsmParser &parser, Type) {
  StringRef keyword;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseKeyword(&keyword))
    return {};
  std::optional<KernelOperandKind> kind = symbolizeKernelOperandKind(keyword);
  if (!kind) {
    parser.emitError(loc) << "expected argument, buffer, index or scalar";
    return {};
  }
  int64_t position = -1;
  Attribute value;
  if (*kind == KernelOperandKind::Argument ||
      *kind == KernelOperandKind::Buffer) {
    if (parser.parseInteger(position))
      return {};
  } else if (parser.parseAttribute(value)) {
    return {};
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    *kind, position, value);
}

void KernelOperandAttr::print(AsmPrinter &printer) const {
  printer << "<" << stringifyKernelOperandKind(getKind()) << " ";
  if (getValue())
    printer.printAttribute(getValue());
  else
    printer << getPosition();
  printer << ">";
}

LogicalResult KernelLaunchAttr::verify(EmitError emitError, StringAttr name,
                                       int64_t dispatch, Schedule,
                                       DenseI64ArrayAttr block,
                                       AffineMapAttr grid, int64_t sharedMemory,
                                       ArrayAttr arguments, ArrayAttr when,
                                       DenseI64ArrayAttr tile,
                                       DenseI64ArrayAttr mma, int64_t stages) {
  if (!name || name.empty())
    return emitError() << "a kernel launch needs a name";
  if (dispatch < 0)
    return emitError() << "dispatch id " << dispatch << " is negative";
  if (!block || block.size() != 3 ||
      llvm::any_of(block.asArrayRef(), [](int64_t size) { return size <= 0; }))
    return emitError() << "block must be three positive sizes (x, y, z)";
  if (failed(verifySymbolMap(emitError, grid, "grid", 3)))
    return failure();
  if (sharedMemory < 0)
    return emitError() << "shared_memory " << sharedMemory << " is negative";
  if (failed(verifyElements<KernelOperandAttr>(
          emitError, arguments, "arguments", "#choir.kernel_operand")))
    return failure();
  if (static_cast<bool>(mma) != static_cast<bool>(tile) ||
      static_cast<bool>(mma) != (stages > 0) ||
      (mma && (mma.size() != 3 || tile.size() != 3)))
    return emitError() << "a tensor-core launch records tile and mma (three "
                          "sizes each) and stages, together";
  if (!when)
    return success();
  for (Attribute conjunction : when) {
    auto map = llvm::dyn_cast<AffineMapAttr>(conjunction);
    if (!map || map.getValue().getNumDims() != 0)
      return emitError() << "'when' holds affine maps over symbols only (each "
                            "a conjunction of results >= 0), not "
                         << conjunction;
  }
  return success();
}

LogicalResult KernelSummaryAttr::verify(EmitError emitError, ArrayAttr symbols,
                                        DictionaryAttr targets) {
  if (failed(verifySymbols(emitError, symbols)))
    return failure();
  if (!targets)
    return emitError() << "'targets' is missing";
  for (NamedAttribute target : targets) {
    std::string field = ("targets." + target.getName().getValue()).str();
    auto launches = llvm::dyn_cast<ArrayAttr>(target.getValue());
    if (!launches)
      return emitError() << "'" << field << "' must be an array";
    if (failed(verifyElements<KernelLaunchAttr>(emitError, launches, field,
                                                "#choir.kernel_launch")))
      return failure();
    for (KernelLaunchAttr launch : launches.getAsRange<KernelLaunchAttr>())
      if (launch.getGrid().getValue().getNumSymbols() != symbols.size())
        return emitError() << "the grid of '" << launch.getName().getValue()
                           << "' is not over the summary's " << symbols.size()
                           << " symbols";
  }
  return success();
}
