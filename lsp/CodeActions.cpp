//===- CodeActions.cpp - Quick fixes of frontend diagnostics --------------===//
//
// The fixes come typed from the checker (accy::FixIt on each diagnostic);
// nothing here reads a message. The one fix the checker cannot know is an
// import, which needs the other files of the workspace.
//
//===----------------------------------------------------------------------===//

#include "CodeActions.h"

#include "Diagnostics.h"

#include "llvm/Support/Path.h"

#include <filesystem>
#include <set>

using namespace accy;
using namespace accy::lsp;

static bool touches(Range a, Range b) {
  return !(a.end < b.start) && !(b.end < a.start);
}

/// A fix-it as a workspace edit of the document; nothing when an edit is in
/// another file (a fix inside an imported file is that file's to show).
static std::optional<WorkspaceEdit> toEdit(const Analysis &a,
                                           const FixIt &fix) {
  std::vector<TextEdit> edits;
  for (const FixItEdit &edit : fix.edits) {
    if (!a.isMainFile(edit.range.file))
      return std::nullopt;
    edits.push_back({a.rangeOf(edit.range), edit.text});
  }
  return WorkspaceEdit{{{a.document().uri, std::move(edits)}}};
}

/// The name an UnknownName or UnknownFunction diagnostic in the main file
/// is about (its range is the name), or "".
static llvm::StringRef unknownName(const Analysis &a,
                                   const accy::Diagnostic &d) {
  bool unknown = d.code == DiagCode::UnknownName ||
                 d.code == DiagCode::UnknownFunction;
  if (!unknown || !a.isMainFile(d.range.file))
    return "";
  return a.sources().getText(d.range.file).slice(d.range.begin, d.range.end);
}

/// Every name the main module defines or imports: an import bringing in
/// one of them again would be a redefinition.
static std::set<std::string> visibleNames(const Analysis &a) {
  std::set<std::string> names;
  auto add = [&](const syntax::Module &m) {
    for (const syntax::ConstDecl &c : m.consts)
      names.insert(c.name);
    for (const syntax::FunctionDecl &f : m.functions)
      names.insert(f.name);
  };
  const SourceModule *main = a.mainModule();
  if (!main || !main->syntax)
    return names;
  add(*main->syntax);
  for (const ImportEdge &edge : main->imports)
    if (edge.target && edge.target->syntax)
      add(*edge.target->syntax);
  return names;
}

/// `path` as the document would import it: relative to its folder.
static std::string importSpelling(const Analysis &a, const std::string &path) {
  std::filesystem::path dir =
      std::filesystem::path(a.document().path).parent_path();
  std::filesystem::path relative =
      std::filesystem::path(path).lexically_relative(dir);
  return relative.empty() ? path : relative.generic_string();
}

static bool alreadyImports(const Analysis &a, const std::string &path) {
  if (path == a.document().path)
    return true;
  if (const SourceModule *main = a.mainModule())
    for (const ImportEdge &edge : main->imports)
      if (edge.target && edge.target->path == path)
        return true;
  return false;
}

static std::string importTitle(const Analysis &a, const ImportFixData &data) {
  return "import \"" + importSpelling(a, data.path) + "\" for '" + data.name +
         "'";
}

std::vector<CodeAction>
accy::lsp::findCodeActions(const Analysis &a, Range range,
                           const std::vector<std::string> &folders,
                           ImportSearch &search) {
  std::vector<CodeAction> out;
  std::set<std::string> visible;
  bool visibleKnown = false;
  for (const accy::Diagnostic &d : a.frontend().diagnostics) {
    if (!a.isMainFile(d.range.file) || !touches(a.rangeOf(d.range), range))
      continue;
    lsp::Diagnostic shown =
        frontendDiagnostic(d, a.sources(), a.document(), a.index());
    for (const FixIt &fix : d.fixIts)
      if (std::optional<WorkspaceEdit> edit = toEdit(a, fix))
        out.push_back({fix.title, {shown}, d.fixIts.size() == 1,
                       std::move(edit), std::nullopt});
    llvm::StringRef name = unknownName(a, d);
    if (name.empty())
      continue;
    if (!visibleKnown) {
      visible = visibleNames(a);
      visibleKnown = true;
    }
    std::vector<std::string> roots = folders;
    if (roots.empty())
      roots.push_back(llvm::sys::path::parent_path(a.document().path).str());
    for (const ImportSearch::Match &match : search.filesDefining(
             roots, name, d.code == DiagCode::UnknownFunction)) {
      bool clashes = false;
      for (const std::string &exported : match.exported)
        clashes |= exported != name && visible.count(exported);
      if (clashes || alreadyImports(a, match.path))
        continue;
      ImportFixData data{a.document().uri, name.str(), match.path};
      out.push_back({importTitle(a, data), {shown}, false, std::nullopt,
                     std::move(data)});
    }
  }
  return out;
}

std::optional<CodeAction>
accy::lsp::resolveImportFix(const Analysis &a, const ImportFixData &data) {
  const SourceModule *main = a.mainModule();
  if (!main || !main->syntax)
    return std::nullopt;
  for (const accy::Diagnostic &d : a.frontend().diagnostics) {
    if (unknownName(a, d) != data.name)
      continue;
    // After the last import, else at the top of the file.
    std::string line = "import \"" + importSpelling(a, data.path) + "\";";
    uint32_t at = 0;
    std::string text = line + "\n";
    if (!main->syntax->imports.empty()) {
      at = main->syntax->imports.back().range.end;
      text = "\n" + line;
    }
    TextEdit insert{a.index().rangeOf(at, at), text};
    WorkspaceEdit edit{{{a.document().uri, {insert}}}};
    return CodeAction{importTitle(a, data),
                      {frontendDiagnostic(d, a.sources(), a.document(),
                                          a.index())},
                      false, std::move(edit), std::nullopt};
  }
  return std::nullopt;
}
