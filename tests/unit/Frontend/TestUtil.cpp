#include "TestUtil.h"

#include "llvm/Support/raw_ostream.h"

using namespace accy;
using namespace accy::test;

std::string Analysis::text(bool snippets) const {
  std::string out;
  llvm::raw_string_ostream os(out);
  DiagPrintOptions options;
  options.showSnippet = snippets;
  printDiagnostics(os, sm, result.diagnostics, options);
  return os.str();
}

std::vector<std::string> Analysis::codes() const {
  std::vector<std::string> out;
  for (const Diagnostic &d : result.diagnostics)
    out.push_back(diagCodeString(d.code));
  return out;
}

std::vector<std::string> Analysis::messages() const {
  std::vector<std::string> out;
  for (const Diagnostic &d : result.diagnostics)
    out.push_back(d.message);
  return out;
}

size_t Analysis::errorCount() const {
  size_t n = 0;
  for (const Diagnostic &d : result.diagnostics)
    n += d.severity == Severity::Error;
  return n;
}

const Kernel *Analysis::kernel(llvm::StringRef name) const {
  return result.unit.findKernel(name);
}

const Function *Analysis::fn(llvm::StringRef name) const {
  for (const auto &m : result.unit.modules)
    if (const Function *f = m->findFunction(name))
      return f;
  return nullptr;
}

std::string Analysis::dump(llvm::StringRef name) const {
  const Kernel *k = kernel(name);
  return k ? printItemToString(*k) : "<no kernel " + name.str() + ">";
}

std::unique_ptr<Analysis>
accy::test::analyze(const std::string &main,
                    const std::map<std::string, std::string> &files,
                    std::vector<std::string> includeDirs) {
  auto a = std::make_unique<Analysis>();
  FrontendOptions options;
  options.includeDirs = std::move(includeDirs);
  std::map<std::string, std::string> abs;
  for (const auto &entry : files)
    abs["/virtual/" + entry.first] = entry.second;
  options.overlay =
      [abs](llvm::StringRef path) -> std::optional<std::string> {
    auto it = abs.find(path.str());
    if (it == abs.end())
      return std::nullopt;
    return it->second;
  };
  a->result = analyzeBuffer("/virtual/main.accy", main, options, a->sm);
  return a;
}

std::unique_ptr<Analysis> accy::test::analyzeKernel(const std::string &params,
                                                    const std::string &result,
                                                    const std::string &body) {
  return analyze("kernel k(" + params + ") -> " + result + " {\n" + body +
                 "\n}\n");
}

std::string accy::test::resultTypeOf(const Analysis &a,
                                     llvm::StringRef kernel) {
  const Kernel *k = a.kernel(kernel);
  if (!k || k->body.results.empty())
    return "";
  return k->body.results.front()->type.str();
}

std::string accy::test::typeOf(const std::string &params,
                               const std::string &expr) {
  auto a = analyze("kernel k(" + params + ") -> f32 {\n  let __v = " + expr +
                   ";\n  return 0.0;\n}\n");
  for (const Diagnostic &d : a->result.diagnostics)
    if (d.severity == Severity::Error)
      return "error:" + diagCodeString(d.code) + " " + d.message;
  const Kernel *k = a->kernel("k");
  if (!k || k->body.lets.empty())
    return "<none>";
  return k->body.lets.front()->type().str();
}
