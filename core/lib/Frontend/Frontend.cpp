//===- Frontend.cpp - Loading files, imports, and the whole pipeline ------===//

#include "accy/Frontend/Frontend.h"

#include "accy/Frontend/Parser.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>
#include <set>

using namespace accy;

//===----------------------------------------------------------------------===//
// CompilationUnit
//===----------------------------------------------------------------------===//

const Kernel *SourceModule::findKernel(llvm::StringRef name) const {
  for (const auto &k : kernels)
    if (k->name == name)
      return k.get();
  return nullptr;
}

const Function *SourceModule::findFunction(llvm::StringRef name) const {
  for (const auto &f : functions)
    if (f->name == name)
      return f.get();
  return nullptr;
}

const ConstDecl *SourceModule::findConst(llvm::StringRef name) const {
  for (const auto &c : consts)
    if (c->name == name)
      return c.get();
  return nullptr;
}

std::vector<const Kernel *> CompilationUnit::kernels() const {
  std::vector<const Kernel *> out;
  if (const SourceModule *m = mainModule())
    for (const auto &k : m->kernels)
      out.push_back(k.get());
  return out;
}

const Kernel *CompilationUnit::findKernel(llvm::StringRef name) const {
  const SourceModule *m = mainModule();
  return m ? m->findKernel(name) : nullptr;
}

std::vector<std::string> CompilationUnit::dependencies() const {
  std::vector<std::string> out;
  for (size_t i = 1; i < modules.size(); ++i)
    out.push_back(modules[i]->path);
  return out;
}

const SourceModule *CompilationUnit::findModule(FileID file) const {
  for (const auto &m : modules)
    if (m->file == file)
      return m.get();
  return nullptr;
}

bool FrontendResult::hasErrors() const {
  for (const Diagnostic &d : diagnostics)
    if (d.severity == Severity::Error)
      return true;
  return false;
}

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

namespace {
class Loader {
public:
  Loader(SourceManager &sm, DiagnosticEngine &diags,
         const FrontendOptions &options, CompilationUnit &unit)
      : sm(sm), diags(diags), options(options), unit(unit) {}

  /// Adds the main module from text and loads everything it imports.
  void loadMain(llvm::StringRef path, std::string text) {
    SourceModule *m = addModule(path.str(), keyOf(path), std::move(text));
    loadImports(m);
  }

  /// Reads a file through the overlay or from disk.
  std::optional<std::string> read(llvm::StringRef path, std::string &why) {
    if (options.overlay)
      if (std::optional<std::string> text = options.overlay(keyOf(path)))
        return text;
    if (llvm::sys::fs::is_directory(path)) {
      why = "it is a directory";
      return std::nullopt;
    }
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer) {
      why = buffer.getError().message();
      return std::nullopt;
    }
    return (*buffer)->getBuffer().str();
  }

  static std::string keyOf(llvm::StringRef path) {
    llvm::SmallString<256> abs(path);
    llvm::sys::fs::make_absolute(abs);
    llvm::sys::path::remove_dots(abs, /*remove_dot_dot=*/true);
    return abs.str().str();
  }

private:
  SourceModule *addModule(std::string path, std::string key,
                          std::string text) {
    FileID file = sm.addBuffer(path, std::move(text));
    auto module = std::make_unique<SourceModule>();
    module->file = file;
    module->path = path;
    module->syntax = parseFile(file, diags);
    SourceModule *raw = module.get();
    unit.modules.push_back(std::move(module));
    byKey[key] = raw;
    return raw;
  }

  bool exists(llvm::StringRef path) {
    if (options.overlay && options.overlay(keyOf(path)))
      return true;
    return llvm::sys::fs::exists(path);
  }

  static std::string joinPath(llvm::StringRef dir, llvm::StringRef rel) {
    llvm::SmallString<256> p(dir);
    llvm::sys::path::append(p, rel);
    llvm::sys::path::remove_dots(p, /*remove_dot_dot=*/true);
    return p.str().str();
  }

  void loadImports(SourceModule *m) {
    stack.push_back(m);
    for (const syntax::ImportDecl &imp : m->syntax->imports) {
      ImportEdge edge;
      edge.spelling = imp.path;
      edge.range = imp.pathRange;
      edge.target = resolve(m, imp);
      if (edge.target) {
        auto onStack = std::find(stack.begin(), stack.end(), edge.target);
        if (onStack != stack.end()) {
          std::string cycle;
          for (auto it = onStack; it != stack.end(); ++it)
            cycle += (*it)->path + " -> ";
          cycle += edge.target->path;
          diags.error(DiagCode::ImportCycle, imp.pathRange,
                      "import cycle: " + cycle);
        }
      }
      m->imports.push_back(std::move(edge));
    }
    stack.pop_back();
  }

  const SourceModule *resolve(SourceModule *m, const syntax::ImportDecl &imp) {
    std::vector<std::string> candidates;
    std::vector<std::string> searched;
    if (!imp.path.empty()) {
      if (llvm::sys::path::is_absolute(imp.path)) {
        candidates.push_back(imp.path);
      } else {
        llvm::StringRef dir = llvm::sys::path::parent_path(m->path);
        candidates.push_back(dir.empty() ? imp.path : joinPath(dir, imp.path));
        for (const std::string &inc : options.includeDirs)
          candidates.push_back(joinPath(inc, imp.path));
      }
    }
    for (const std::string &candidate : candidates) {
      std::string key = keyOf(candidate);
      if (auto it = byKey.find(key); it != byKey.end())
        return it->second;
      if (!exists(candidate)) {
        llvm::StringRef dir = llvm::sys::path::parent_path(candidate);
        searched.push_back(dir.empty() ? "." : dir.str());
        continue;
      }
      // Each level of imports is a level of recursion: a chain that never
      // repeats a path (a directory symlinked into itself, an overlay that
      // answers every path) must end before the stack does.
      if (stack.size() >= kMaxImportDepth) {
        diags.error(DiagCode::ImportCycle, imp.pathRange,
                    "imports nest deeper than " +
                        std::to_string(kMaxImportDepth) + " files; '" +
                        candidate +
                        "' is not read (a cycle through a symbolic link?)");
        return nullptr;
      }
      std::string why;
      std::optional<std::string> text = read(candidate, why);
      if (!text) {
        diags.error(DiagCode::FileNotReadable, imp.pathRange,
                    "cannot read imported file '" + candidate + "': " + why);
        return nullptr;
      }
      SourceModule *target = addModule(candidate, key, std::move(*text));
      loadImports(target);
      return target;
    }
    std::string list;
    for (size_t i = 0; i < searched.size(); ++i)
      list += (i ? ", " : "") + searched[i];
    diags.error(DiagCode::ImportNotFound, imp.pathRange,
                "cannot find imported file '" + imp.path + "'" +
                    (list.empty() ? std::string()
                                  : " (searched " + list + ")"));
    return nullptr;
  }

  static constexpr size_t kMaxImportDepth = 256;

  SourceManager &sm;
  DiagnosticEngine &diags;
  const FrontendOptions &options;
  CompilationUnit &unit;
  std::map<std::string, SourceModule *> byKey;
  std::vector<SourceModule *> stack;
};

std::vector<Diagnostic> sortedDiagnostics(std::vector<Diagnostic> out) {
  auto last = std::stable_partition(
      out.begin(), out.end(),
      [](const Diagnostic &d) { return d.code != DiagCode::TooManyErrors; });
  std::stable_sort(out.begin(), last,
                   [](const Diagnostic &a, const Diagnostic &b) {
                     if (a.range.file != b.range.file)
                       return a.range.file < b.range.file;
                     return a.range.begin < b.range.begin;
                   });
  return out;
}

/// The import of `main` through which `file` was loaded: the first, in
/// source order, whose closure of imports (not back through `main`, as a
/// cycle would) holds it; null if none does.
const ImportEdge *importLeadingTo(const SourceModule &main, FileID file) {
  for (const ImportEdge &edge : main.imports) {
    std::vector<const SourceModule *> work;
    std::set<const SourceModule *> seen = {&main};
    if (edge.target)
      work.push_back(edge.target);
    while (!work.empty()) {
      const SourceModule *m = work.back();
      work.pop_back();
      if (!seen.insert(m).second)
        continue;
      if (m->file == file)
        return &edge;
      for (const ImportEdge &next : m->imports)
        if (next.target)
          work.push_back(next.target);
    }
  }
  return nullptr;
}

/// Moves each diagnostic inside an imported file onto the main file's
/// import that brought that file in, naming the file and line, with the
/// original place as its first note: whoever checks the main file sees it
/// there (an editor shows only the open file's diagnostics).
void anchorImportedDiagnostics(const CompilationUnit &unit,
                               const SourceManager &sm,
                               std::vector<Diagnostic> &diagnostics) {
  const SourceModule *main = unit.mainModule();
  if (!main)
    return;
  for (Diagnostic &d : diagnostics) {
    if (!d.range.file.isValid() || d.range.file == main->file)
      continue;
    const ImportEdge *edge = importLeadingTo(*main, d.range.file);
    if (!edge)
      continue;
    DiagnosticNote original{d.range, d.begin, d.end, "the error is here"};
    d.message = "in " + sm.getPath(d.range.file).str() + ":" +
                std::to_string(d.begin.line) + ": " + d.message;
    d.range = edge->range;
    d.begin = sm.getLineCol(edge->range.file, edge->range.begin);
    d.end = sm.getLineCol(edge->range.file, edge->range.end);
    d.notes.insert(d.notes.begin(), std::move(original));
  }
}

FrontendResult analyze(llvm::StringRef path, std::optional<std::string> text,
                       const FrontendOptions &options, SourceManager &sm) {
  FrontendResult result;
  DiagnosticEngine diags(sm, options.errorLimit);
  Loader loader(sm, diags, options, result.unit);
  if (!text) {
    std::string why;
    text = loader.read(path, why);
    if (!text) {
      FileID placeholder = sm.addBuffer(path.str(), "");
      diags.error(DiagCode::FileNotReadable, SourceRange(placeholder, 0, 0),
                  "cannot read file '" + path.str() + "': " + why);
      result.diagnostics = sortedDiagnostics(diags.takeDiagnostics());
      return result;
    }
  }
  loader.loadMain(path, std::move(*text));
  result.mainFile = result.unit.modules.front()->file;
  checkCompilationUnit(result.unit, diags, options.semaLimits);
  std::vector<Diagnostic> found = diags.takeDiagnostics();
  anchorImportedDiagnostics(result.unit, sm, found);
  result.diagnostics = sortedDiagnostics(std::move(found));
  return result;
}
} // namespace

FrontendResult accy::analyzeFile(llvm::StringRef path,
                                 const FrontendOptions &options,
                                 SourceManager &sm) {
  return analyze(path, std::nullopt, options, sm);
}

FrontendResult accy::analyzeFile(llvm::StringRef path,
                                 const std::vector<std::string> &includeDirs,
                                 SourceManager &sm) {
  FrontendOptions options;
  options.includeDirs = includeDirs;
  return analyzeFile(path, options, sm);
}

FrontendResult accy::analyzeBuffer(llvm::StringRef path, llvm::StringRef text,
                                   const FrontendOptions &options,
                                   SourceManager &sm) {
  return analyze(path, text.str(), options, sm);
}

FrontendResult accy::analyzeBuffer(llvm::StringRef path, llvm::StringRef text,
                                   const std::vector<std::string> &includeDirs,
                                   SourceManager &sm) {
  FrontendOptions options;
  options.includeDirs = includeDirs;
  return analyzeBuffer(path, text, options, sm);
}
