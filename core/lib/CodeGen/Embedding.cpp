//===- Embedding.cpp - NAME.accy.h and NAME.accy.cpp ----------------------===//
//
// Writes the C++ a user's build compiles: the registration table of
// accy/runtime/Kernel.h, which points at the device images of NAME.images.o
// (ImageObject.h), and one launch function per kernel. Everything that
// depends on the tensors' shapes (buffer sizes, grid sizes, index
// arguments) is a "slot", computed by a generated function from the
// symbols with toCxxExpression.
//
//===----------------------------------------------------------------------===//

#include "accy/CodeGen/Embedding.h"

#include "CxxNames.h"

#include "accy/CodeGen/ImageObject.h"

#include "mlir/IR/BuiltinAttributes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace accy;
using namespace accy::codegen;

namespace {

constexpr llvm::StringLiteral kDetail = "accy::detail::";

struct CxxElement {
  llvm::StringRef type;
  llvm::StringRef enumerator;
};

/// Qualified, so that a parameter named `int32_t` earlier in a signature
/// does not hide the type from the parameters after it.
CxxElement cxxElement(llvm::StringRef element) {
  return llvm::StringSwitch<CxxElement>(element)
      .Case("f16", {"std::uint16_t", "F16"})
      .Case("bf16", {"std::uint16_t", "BF16"})
      .Case("f64", {"double", "F64"})
      .Case("i32", {"std::int32_t", "I32"})
      .Case("i64", {"std::int64_t", "I64"})
      .Case("bool", {"std::uint8_t", "Bool"})
      .Default({"float", "F32"});
}

bool isIdentifier(llvm::StringRef name) {
  return !name.empty() && !llvm::isDigit(name.front()) &&
         llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// The kernel's signature as the source writes it:
/// `kernel K(x: f32[N, D], s: f32) -> (f32[N, D], f32)`.
std::string signatureText(const KernelInterface &kernel) {
  auto type = [](const ParameterInterface &p) {
    if (p.sizes.empty())
      return p.element;
    std::string text = p.element + "[";
    for (size_t d = 0; d < p.sizes.size(); ++d)
      text += (d ? ", " : "") +
              (p.sizes[d] >= 0 ? std::to_string(p.sizes[d]) : p.dimNames[d]);
    return text + "]";
  };
  std::vector<std::string> ins, outs;
  for (const ParameterInterface &p : kernel.parameters) {
    if (p.output)
      outs.push_back(type(p));
    else
      ins.push_back(p.name + ": " + type(p));
  }
  std::string results = llvm::join(outs, ", ");
  return "kernel " + kernel.name + "(" + llvm::join(ins, ", ") + ") -> " +
         (outs.size() == 1 ? results : "(" + results + ")");
}

std::string viewType(const ParameterInterface &p) {
  return "accy::TensorView<" + std::string(p.output ? "" : "const ") +
         cxxElement(p.element).type.str() + ", " +
         std::to_string(p.sizes.size()) + ">";
}

/// A kernel's names in the generated C++: its launch function's and its
/// parameters' (CxxNames.h).
struct CxxKernelNames {
  std::string function;
  std::vector<std::string> parameters;
};

std::string launchSignature(const KernelInterface &kernel,
                            const CxxKernelNames &names, bool declaration) {
  std::string text = "accy::Status " + names.function + "(";
  for (auto [p, name] : llvm::zip_equal(kernel.parameters, names.parameters))
    text += viewType(p) + " " + name + ", ";
  return text + "accy::Stream stream" + (declaration ? " = {})" : ")");
}

/// `{a, b, c}` as a named array, or `nullptr` where C++ forbids an empty
/// array: writes the definition to `os` and returns what to refer to it by.
std::string emitArray(llvm::raw_ostream &os, llvm::StringRef type,
                      llvm::StringRef name,
                      llvm::ArrayRef<std::string> elements) {
  if (elements.empty())
    return "nullptr";
  os << "const " << type << " " << name << "[] = {"
     << llvm::join(elements, ", ") << "};\n";
  return name.str();
}

/// The shape-dependent values of one kernel, as C++ expressions.
class Slots {
public:
  explicit Slots(size_t numSymbols) {
    for (size_t i = 0; i < numSymbols; ++i)
      names.push_back("s" + std::to_string(i));
  }
  int add(AffineExpr expr) { return add(toCxxExpression(expr, names)); }
  /// `expr` where `when` holds (see KernelLaunch::when), else 0.
  int add(AffineExpr expr,
          const std::optional<std::vector<std::vector<AffineExpr>>> &when) {
    if (!when)
      return add(expr);
    std::string holds = when->empty() ? "false" : "";
    for (const std::vector<AffineExpr> &constraints : *when) {
      holds += holds.empty() ? "(" : " || (";
      for (auto [i, constraint] : llvm::enumerate(constraints))
        holds +=
            (i ? " && " : "") + toCxxExpression(constraint, names) + " >= 0";
      holds += ")";
    }
    return add("(" + holds + " ? " + toCxxExpression(expr, names) + " : 0)");
  }
  void emitEvaluate(llvm::raw_ostream &os) const {
    os << "void evaluate([[maybe_unused]] const int64_t *s, "
          "[[maybe_unused]] int64_t *v) {\n";
    for (size_t i = 0; i < names.size(); ++i)
      os << "  [[maybe_unused]] const int64_t " << names[i] << " = s[" << i
         << "];\n";
    for (size_t i = 0; i < expressions.size(); ++i)
      os << "  v[" << i << "] = " << expressions[i] << ";\n";
    os << "}\n";
  }
  size_t size() const { return expressions.size(); }

private:
  int add(std::string expression) {
    expressions.push_back(std::move(expression));
    return static_cast<int>(expressions.size()) - 1;
  }

  std::vector<std::string> names;
  std::vector<std::string> expressions;
};

llvm::Expected<std::string> argumentEntry(const KernelArgument &arg,
                                          Slots &slots) {
  std::string kind = (kDetail + "Argument::Kind::").str();
  switch (arg.kind) {
  case KernelArgument::Kind::Argument:
    return "{" + kind + "Param, " + std::to_string(arg.index) + ", 0, 0}";
  case KernelArgument::Kind::Buffer:
    return "{" + kind + "Buffer, " + std::to_string(arg.index) + ", 0, 0}";
  case KernelArgument::Kind::Index:
    return "{" + kind + "Index, " + std::to_string(slots.add(arg.value)) +
           ", 0, 0}";
  case KernelArgument::Kind::Scalar:
    break;
  }
  uint64_t bits = 0;
  unsigned width = 0;
  if (auto f = dyn_cast_or_null<FloatAttr>(arg.scalar)) {
    bits = f.getValue().bitcastToAPInt().getZExtValue();
    width = f.getType().getIntOrFloatBitWidth();
  } else if (auto i = dyn_cast_or_null<IntegerAttr>(arg.scalar)) {
    bits = i.getValue().getZExtValue();
    width = i.getType().isIndex() ? 64 : i.getType().getIntOrFloatBitWidth();
  } else {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "a scalar launch argument is neither an "
                                   "integer nor a float");
  }
  return "{" + kind + "Scalar, 0, " + std::to_string(bits) + "ull, " +
         std::to_string((width + 7) / 8) + "}";
}

/// The table of one kernel, in `namespace kernel_K`.
llvm::Error emitKernelTable(llvm::raw_ostream &os,
                            const KernelInterface &kernel,
                            llvm::ArrayRef<Artifact> artifacts, bool hasHost) {
  os << "\n// " << signatureText(kernel) << "\nnamespace kernel_" << kernel.name
     << " {\n";
  std::vector<std::string> dimNames, params;
  for (auto [i, p] : llvm::enumerate(kernel.parameters)) {
    std::vector<std::string> dims;
    for (size_t d = 0; d < p.sizes.size(); ++d) {
      int symbol = 0;
      if (p.sizes[d] < 0) {
        auto it = llvm::find(dimNames, p.dimNames[d]);
        symbol = static_cast<int>(it - dimNames.begin());
        if (it == dimNames.end())
          dimNames.push_back(p.dimNames[d]);
      }
      dims.push_back("{" + std::to_string(p.sizes[d]) + ", " +
                     std::to_string(symbol) + "}");
    }
    std::string dimsName = emitArray(os, (kDetail + "Dim").str(),
                                     "kDims" + std::to_string(i), dims);
    params.push_back("{\"" + p.name + "\", accy::ElementType::" +
                     cxxElement(p.element).enumerator.str() + ", " +
                     std::to_string(p.sizes.size()) + ", " + dimsName + ", " +
                     (p.output ? "true" : "false") + "}");
  }
  std::string paramsName =
      emitArray(os, (kDetail + "Param").str(), "kParams", params);
  std::vector<std::string> quotedDims;
  for (const std::string &name : dimNames)
    quotedDims.push_back("\"" + name + "\"");
  std::string dimNamesName =
      emitArray(os, "char *const", "kDimNames", quotedDims);
  std::vector<std::string> symbols;
  for (auto [param, dim] : kernel.symbols)
    symbols.push_back("{" + std::to_string(param) + ", " + std::to_string(dim) +
                      "}");
  std::string symbolsName =
      emitArray(os, (kDetail + "SymbolRef").str(), "kSymbols", symbols);

  Slots slots(kernel.symbols.size());
  std::vector<std::string> buffers;
  for (const BufferInterface &buffer : kernel.buffers) {
    int bytes = slots.add(buffer.bytes);
    int shape = static_cast<int>(slots.size());
    for (AffineExpr dim : buffer.shape)
      slots.add(dim);
    buffers.push_back("{" + std::to_string(buffer.shape.size()) + ", " +
                      std::to_string(bytes) + ", " + std::to_string(shape) +
                      "}");
  }
  std::string buffersName =
      emitArray(os, (kDetail + "Buffer").str(), "kBuffers", buffers);

  std::vector<std::string> targets;
  for (const auto &[target, launches] : kernel.summary.targets) {
    // Only targets with an image in this file can be launched.
    if (!llvm::any_of(artifacts,
                      [&](const Artifact &a) { return a.target == target; }))
      continue;
    std::vector<std::string> entries;
    for (auto [l, launch] : llvm::enumerate(launches)) {
      std::vector<std::string> args;
      for (const KernelArgument &arg : launch.arguments) {
        auto entry = argumentEntry(arg, slots);
        if (!entry)
          return entry.takeError();
        args.push_back(*entry);
      }
      std::string argsName =
          emitArray(os, (kDetail + "Argument").str(),
                    "kArgs_" + target + "_" + std::to_string(l), args);
      // The runtime skips a launch with an empty grid: one whose condition
      // fails has none.
      int grid = slots.add(launch.grid[0], launch.when);
      slots.add(launch.grid[1]);
      slots.add(launch.grid[2]);
      entries.push_back(
          "{\"" + launch.name + "\", {" + std::to_string(launch.block[0]) +
          ", " + std::to_string(launch.block[1]) + ", " +
          std::to_string(launch.block[2]) + "}, " + std::to_string(grid) +
          ", " + argsName + ", " + std::to_string(args.size()) + "}");
    }
    std::string launchesName = emitArray(os, (kDetail + "Launch").str(),
                                         "kLaunches_" + target, entries);
    targets.push_back("{\"" + target + "\", " + launchesName + ", " +
                      std::to_string(entries.size()) + "}");
  }
  std::string targetsName =
      emitArray(os, (kDetail + "TargetPlan").str(), "kTargets", targets);

  slots.emitEvaluate(os);
  if (hasHost) {
    os << "void host(void *const *d) { _mlir_ciface_" << kernel.name << "(";
    for (size_t i = 0; i < kernel.parameters.size(); ++i)
      os << (i ? ", " : "") << "d[" << i << "]";
    os << "); }\n";
  }
  os << "const " << kDetail << "Kernel kKernel = {\"" << kernel.name
     << "\", &kModule, " << paramsName << ", " << params.size() << ", "
     << dimNamesName << ", " << dimNames.size() << ", " << symbolsName << ", "
     << symbols.size() << ", " << buffersName << ", " << buffers.size() << ", "
     << targetsName << ", " << targets.size() << ", evaluate, " << slots.size()
     << ", " << (hasHost ? "host" : "nullptr") << "};\n"
     << "} // namespace kernel_" << kernel.name << "\n";
  return llvm::Error::success();
}

std::string includeGuard(llvm::StringRef name) {
  std::string guard = "ACCY_GENERATED_";
  for (char c : name)
    guard += llvm::isAlnum(c) ? llvm::toUpper(c) : '_';
  return guard + "_ACCY_H";
}

/// The C++ names of every kernel of the file, or an error for a name that
/// even escaping cannot make an identifier.
llvm::Expected<std::vector<CxxKernelNames>>
cxxNames(llvm::ArrayRef<KernelInterface> kernels,
         llvm::StringRef cppNamespace) {
  auto error = [](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   message.str());
  };
  if (!cppNamespace.empty()) {
    llvm::SmallVector<llvm::StringRef> parts;
    cppNamespace.split(parts, "::");
    if (!llvm::all_of(parts, isIdentifier))
      return error("namespace '" + cppNamespace +
                   "' is not a C++ namespace (write it as a::b)");
  }
  std::vector<std::string> functions;
  for (const KernelInterface &kernel : kernels) {
    if (!isIdentifier(kernel.name))
      return error("kernel name '" + kernel.name + "' is not a C++ identifier");
    functions.push_back(kernel.name);
  }
  functions = toCxxIdentifiers(functions);
  std::vector<CxxKernelNames> names;
  for (auto [kernel, function] : llvm::zip_equal(kernels, functions)) {
    std::vector<std::string> parameters;
    for (const ParameterInterface &p : kernel.parameters)
      parameters.push_back(p.name);
    names.push_back({function, toCxxIdentifiers(parameters)});
  }
  return names;
}

} // namespace

llvm::Expected<EmbeddingSources>
accy::codegen::generateEmbedding(llvm::ArrayRef<KernelInterface> kernels,
                                 llvm::ArrayRef<Artifact> artifacts,
                                 const EmbeddingOptions &options) {
  auto names = cxxNames(kernels, options.cppNamespace);
  if (!names)
    return names.takeError();
  bool hasHost = llvm::any_of(artifacts, [](const Artifact &a) {
    return a.kind == ArtifactKind::HostObject;
  });
  std::string openNamespace, closeNamespace;
  if (!options.cppNamespace.empty()) {
    openNamespace = "namespace " + options.cppNamespace + " {\n";
    closeNamespace = "} // namespace " + options.cppNamespace + "\n";
  }
  std::string targetList;
  for (const Artifact &artifact : artifacts)
    targetList += (targetList.empty() ? "" : ", ") + artifact.target;

  EmbeddingSources out;
  llvm::raw_string_ostream header(out.header);
  std::string guard = includeGuard(options.name);
  header << "// Generated by accyc from " << options.name
         << ".accy; do not edit. See docs/runtime.md.\n"
         << "// Compiled for: " << targetList << ".\n"
         << "#ifndef " << guard << "\n#define " << guard << "\n\n"
         << "#include \"accy/Runtime.h\"\n\n"
         << openNamespace;
  for (auto [kernel, cxx] : llvm::zip_equal(kernels, *names))
    header << "\n/// " << signatureText(kernel) << "\n"
           << launchSignature(kernel, cxx, /*declaration=*/true) << ";\n";
  header << "\n" << closeNamespace << "\n#endif // " << guard << "\n";

  llvm::raw_string_ostream source(out.source);
  source << "// Generated by accyc from " << options.name
         << ".accy; do not edit. See docs/runtime.md.\n"
         << "#include \"" << options.name << ".accy.h\"\n\n"
         << "#include \"accy/runtime/Kernel.h\"\n\n";
  if (hasHost)
    for (const KernelInterface &kernel : kernels) {
      source << "extern \"C\" void _mlir_ciface_" << kernel.name << "(";
      for (size_t i = 0; i < kernel.parameters.size(); ++i)
        source << (i ? ", " : "") << "void *";
      source << ");\n";
    }
  // The images are in NAME.images.o (ImageObject.h), so that an edit
  // inside a kernel leaves these bytes as they are.
  std::vector<const Artifact *> images = getDeviceImages(artifacts);
  std::string imagesName = "nullptr";
  if (!images.empty()) {
    std::vector<std::string> functions;
    for (const CxxKernelNames &cxx : *names)
      functions.push_back(cxx.function);
    imagesName =
        getImageTableSymbol(options.name, options.cppNamespace, functions);
    auto object = emitImageObject(artifacts, imagesName, options.name);
    if (!object)
      return object.takeError();
    out.imageObject = std::move(*object);
    std::vector<llvm::StringRef> targets;
    for (const Artifact *image : images)
      targets.push_back(image->target);
    source << "\n// The device images (" << llvm::join(targets, ", ")
           << "), in " << options.name << ".images.o.\n"
           << "extern \"C\" const " << kDetail << "Image " << imagesName
           << "[];\n";
  }
  source << "\nnamespace {\n";
  source << "extern const " << kDetail << "Module kModule;\n";
  std::vector<std::string> tables;
  for (const KernelInterface &kernel : kernels) {
    if (llvm::Error err = emitKernelTable(source, kernel, artifacts, hasHost))
      return std::move(err);
    tables.push_back("&kernel_" + kernel.name + "::kKernel");
  }
  source << "\n";
  std::string kernelsName =
      emitArray(source, (kDetail + "Kernel *const").str(), "kKernels", tables);
  source << "const " << kDetail << "Module kModule = {\"" << options.name
         << "\", " << imagesName << ", " << images.size() << ", " << kernelsName
         << ", " << tables.size() << "};\n"
         << "} // namespace\n\n"
         << openNamespace;
  for (auto [kernel, cxx] : llvm::zip_equal(kernels, *names)) {
    source << "\n"
           << launchSignature(kernel, cxx, /*declaration=*/false)
           << " {\n  const " << kDetail << "TensorArg args[] = {";
    for (auto [i, name] : llvm::enumerate(cxx.parameters))
      source << (i ? ", " : "") << kDetail << "tensorArg(" << name << ")";
    source << "};\n  return " << kDetail << "launch(::kernel_" << kernel.name
           << "::kKernel, args, stream);\n}\n";
  }
  source << "\n" << closeNamespace;
  return out;
}
