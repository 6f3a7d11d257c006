//===- SourceMap.cpp - From kernel-relative locations to source -----------===//

#include "accy/Pipeline/SourceMap.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/JSON.h"

using namespace accy;
namespace json = llvm::json;

std::string SourceMap::addNode(llvm::StringRef kernel, SourceSpan span) {
  std::vector<SourceSpan> &nodes = kernels[kernel].nodes;
  nodes.push_back(std::move(span));
  return (kernel + "#" + llvm::Twine(nodes.size() - 1)).str();
}

void SourceMap::setKernelSpan(llvm::StringRef kernel, SourceSpan span) {
  kernels[kernel].span = std::move(span);
}

std::optional<SourceSpan> SourceMap::lookup(llvm::StringRef kernel,
                                            unsigned ordinal) const {
  auto it = kernels.find(kernel);
  if (it == kernels.end() || ordinal >= it->second.nodes.size())
    return std::nullopt;
  return it->second.nodes[ordinal];
}

std::optional<SourceSpan> SourceMap::kernelSpan(llvm::StringRef kernel) const {
  auto it = kernels.find(kernel);
  if (it == kernels.end())
    return std::nullopt;
  return it->second.span;
}

std::optional<std::pair<llvm::StringRef, unsigned>>
SourceMap::parseNodeName(llvm::StringRef name) {
  auto [kernel, ordinal] = name.rsplit('#');
  unsigned value;
  if (kernel.empty() || ordinal.size() == name.size() ||
      ordinal.getAsInteger(10, value))
    return std::nullopt;
  return std::make_pair(kernel, value);
}

std::optional<SourceSpan> SourceMap::resolve(mlir::Location loc) const {
  return llvm::TypeSwitch<mlir::LocationAttr, std::optional<SourceSpan>>(loc)
      .Case([&](mlir::NameLoc name) -> std::optional<SourceSpan> {
        if (auto node = parseNodeName(name.getName().strref()))
          if (auto span = lookup(node->first, node->second))
            return span;
        return resolve(name.getChildLoc());
      })
      .Case([&](mlir::CallSiteLoc site) -> std::optional<SourceSpan> {
        if (auto span = resolve(site.getCallee()))
          return span;
        return resolve(site.getCaller());
      })
      .Case([&](mlir::FusedLoc fused) -> std::optional<SourceSpan> {
        for (mlir::Location inner : fused.getLocations())
          if (auto span = resolve(inner))
            return span;
        return std::nullopt;
      })
      .Case([&](mlir::FileLineColLoc file) -> std::optional<SourceSpan> {
        SourceSpan span;
        span.file = file.getFilename().str();
        span.line = span.endLine = file.getLine();
        span.column = span.endColumn = file.getColumn();
        return span;
      })
      .Default([](mlir::LocationAttr) { return std::nullopt; });
}

static json::Array spanToJson(const SourceSpan &s) {
  return json::Array{s.file,    s.line,   s.column,   s.endLine,
                     s.endColumn, s.offset, s.endOffset};
}

static std::optional<SourceSpan> spanFromJson(const json::Value &value) {
  const json::Array *a = value.getAsArray();
  if (!a || a->size() != 7)
    return std::nullopt;
  SourceSpan s;
  auto file = (*a)[0].getAsString();
  if (!file)
    return std::nullopt;
  s.file = file->str();
  unsigned *fields[] = {&s.line,      &s.column, &s.endLine,
                        &s.endColumn, &s.offset, &s.endOffset};
  for (int i = 0; i < 6; ++i) {
    auto n = (*a)[i + 1].getAsInteger();
    if (!n || *n < 0)
      return std::nullopt;
    *fields[i] = static_cast<unsigned>(*n);
  }
  return s;
}

std::string SourceMap::toJson() const {
  // Sorted by kernel name so the file is deterministic.
  std::vector<llvm::StringRef> names;
  for (const auto &entry : kernels)
    names.push_back(entry.getKey());
  llvm::sort(names);
  json::Object root;
  for (llvm::StringRef name : names) {
    const Kernel &k = kernels.find(name)->second;
    json::Array nodes;
    for (const SourceSpan &s : k.nodes)
      nodes.push_back(spanToJson(s));
    root[name] = json::Object{{"span", spanToJson(k.span)},
                              {"nodes", std::move(nodes)}};
  }
  std::string out;
  llvm::raw_string_ostream os(out);
  os << json::Value(std::move(root));
  return out;
}

llvm::Expected<SourceMap> SourceMap::fromJson(llvm::StringRef text) {
  auto bad = [](const llvm::Twine &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "malformed source map: " + why);
  };
  auto parsed = json::parse(text);
  if (!parsed)
    return bad(llvm::toString(parsed.takeError()));
  const json::Object *root = parsed->getAsObject();
  if (!root)
    return bad("expected an object");
  SourceMap map;
  for (const auto &[name, value] : *root) {
    const json::Object *k = value.getAsObject();
    if (!k)
      return bad("kernel '" + name.str() + "' is not an object");
    Kernel &kernel = map.kernels[name.str()];
    if (const json::Value *span = k->get("span"))
      if (auto s = spanFromJson(*span))
        kernel.span = *s;
    if (const json::Array *nodes = k->getArray("nodes"))
      for (const json::Value &node : *nodes) {
        auto s = spanFromJson(node);
        if (!s)
          return bad("bad node span in kernel '" + name.str() + "'");
        kernel.nodes.push_back(*s);
      }
  }
  return map;
}
