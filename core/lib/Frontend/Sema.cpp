//===- Sema.cpp - Items, signatures and bodies ----------------------------===//

#include "SemaImpl.h"

#include "llvm/Support/Casting.h"

#include <algorithm>

using namespace accy;
using namespace accy::sema;

Sema::Sema(CompilationUnit &unit, DiagnosticEngine &diags,
           const SemaLimits &limits)
    : unit(unit), diags(diags), limits(limits) {}

DiagnosticEngine::Builder Sema::error(DiagCode code, SourceRange range,
                                      std::string message) {
  DiagnosticEngine::Builder b = diags.error(code, range, std::move(message));
  // Innermost call first; very deep chains show only the innermost calls.
  const size_t shown = 8;
  size_t count = 0;
  for (auto it = instStack.rbegin(); it != instStack.rend(); ++it, ++count) {
    if (count == shown) {
      b.note(instStack.front().callRange,
             "... and " + std::to_string(instStack.size() - shown) +
                 " more enclosing fn calls, the outermost here");
      break;
    }
    b.note(it->callRange,
           "while inlining the call of fn '" + it->fn->decl->name + "' here");
  }
  return b;
}

ExprPtr Sema::makeError(SourceRange range) {
  ++errorExprCount;
  return make<ErrorExpr>(range);
}

static const char *itemKindName(NamedItem::Kind kind) {
  switch (kind) {
  case NamedItem::Kind::Const: return "const";
  case NamedItem::Kind::Fn: return "fn";
  case NamedItem::Kind::Kernel: return "kernel";
  }
  return "item";
}

//===----------------------------------------------------------------------===//
// Module-level names
//===----------------------------------------------------------------------===//

void Sema::declareModule(ModuleState &ms) {
  const syntax::Module &syn = *ms.module->syntax;
  struct Entry {
    NamedItem::Kind kind;
    const syntax::ConstDecl *c;
    const syntax::FunctionDecl *f;
    SourceRange nameRange;
    const std::string *name;
  };
  std::vector<Entry> entries;
  for (const auto &c : syn.consts)
    entries.push_back({NamedItem::Kind::Const, &c, nullptr, c.nameRange,
                       &c.name});
  for (const auto &f : syn.functions)
    entries.push_back({f.isKernel ? NamedItem::Kind::Kernel
                                  : NamedItem::Kind::Fn,
                       nullptr, &f, f.nameRange, &f.name});
  std::stable_sort(entries.begin(), entries.end(),
                   [](const Entry &a, const Entry &b) {
                     return a.nameRange.begin < b.nameRange.begin;
                   });
  for (const Entry &entry : entries) {
    auto item = std::make_unique<NamedItem>();
    item->kind = entry.kind;
    item->name = *entry.name;
    item->nameRange = entry.nameRange;
    item->home = &ms;
    if (entry.kind == NamedItem::Kind::Const) {
      item->constSyntax = entry.c;
    } else if (entry.kind == NamedItem::Kind::Fn) {
      auto fs = std::make_unique<FnState>();
      fs->decl = entry.f;
      fs->home = &ms;
      auto fn = std::make_unique<Function>();
      fn->name = entry.f->name;
      fn->file = ms.module->file;
      fn->range = entry.f->range;
      fn->nameRange = entry.f->nameRange;
      fs->fn = fn.get();
      ms.module->functions.push_back(std::move(fn));
      item->fn = fs.get();
      fnStates.push_back(std::move(fs));
    } else {
      item->kernelSyntax = entry.f;
    }

    bool registered = true;
    // Calls resolve to built-ins first, so a fn named like one could never
    // be called. Kernels and consts are never called, so they may.
    if (entry.kind == NamedItem::Kind::Fn && lookupBuiltin(item->name)) {
      error(DiagCode::Redefinition, item->nameRange,
            "fn " + quote(item->name) +
                " has the name of a built-in function; choose another name");
      registered = false;
    } else if (auto it = ms.names.find(item->name); it != ms.names.end()) {
      error(DiagCode::Redefinition, item->nameRange,
            "redefinition of " + quote(item->name) + "; names must be unique "
            "in a file")
          .note(it->second->nameRange, "previous definition is here");
      registered = false;
    }
    if (registered)
      ms.names[item->name] = item.get();
    ms.own.push_back(std::move(item));
  }
}

void Sema::importNames(ModuleState &ms) {
  for (const ImportEdge &edge : ms.module->imports) {
    if (!edge.target)
      continue;
    ModuleState *target = stateOf[edge.target];
    if (!target || target == &ms)
      continue;
    for (const auto &item : target->own) {
      if (item->kind == NamedItem::Kind::Kernel)
        continue;
      // Only registered items are visible (a duplicate was reported there).
      auto own = target->names.find(item->name);
      if (own == target->names.end() || own->second != item.get())
        continue;
      auto it = ms.names.find(item->name);
      if (it == ms.names.end()) {
        ms.names[item->name] = item.get();
        continue;
      }
      NamedItem *existing = it->second;
      if (existing == item.get())
        continue; // The same file imported twice.
      if (existing->home == &ms) {
        error(DiagCode::Redefinition, existing->nameRange,
              quote(item->name) + " is defined here and also in the imported "
              "file '" + edge.spelling + "'; names must be unique in a file, "
              "including imported ones")
            .note(item->nameRange, "imported definition is here");
      } else {
        error(DiagCode::Redefinition, edge.range,
              "the import of '" + edge.spelling + "' brings " +
                  quote(item->name) + ", which is already imported from '" +
                  existing->home->module->path + "'")
            .note(existing->nameRange, "other definition is here")
            .note(item->nameRange, "conflicting definition is here");
      }
    }
  }
}

ConstDecl *Sema::ensureConst(NamedItem &item) {
  if (item.constChecked)
    return item.constDecl;
  item.constChecked = true;
  const syntax::ConstDecl &syn = *item.constSyntax;
  const syntax::Expr *e = syn.value.get();
  bool negate = false;
  if (auto *u = llvm::dyn_cast<syntax::UnaryExpr>(e)) {
    if (llvm::isa<syntax::IntLitExpr>(u->operand.get()) ||
        llvm::isa<syntax::FloatLitExpr>(u->operand.get())) {
      negate = true;
      e = u->operand.get();
    }
  }
  ScalarValue value;
  ElemType type;
  if (auto *i = llvm::dyn_cast<syntax::IntLitExpr>(e)) {
    value = ScalarValue::ofInt(negate ? -i->value : i->value);
    bool fits = value.intValue >= INT32_MIN && value.intValue <= INT32_MAX;
    type = fits ? ElemType::I32 : ElemType::I64;
  } else if (auto *f = llvm::dyn_cast<syntax::FloatLitExpr>(e)) {
    value = ScalarValue::ofFloat(negate ? -f->value : f->value);
    type = ElemType::F32;
  } else if (auto *b = llvm::dyn_cast<syntax::BoolLitExpr>(e)) {
    value = ScalarValue::ofBool(b->value);
    type = ElemType::Bool;
  } else {
    if (!llvm::isa<syntax::ErrorExpr>(e))
      error(DiagCode::ConstNotLiteral, syn.value->range,
            "const " + quote(syn.name) +
                " must be initialized with a literal such as 42, 1e-5 or "
                "true");
    return nullptr;
  }
  auto decl = std::make_unique<ConstDecl>();
  decl->name = syn.name;
  decl->value = value;
  decl->defaultType = type;
  decl->file = item.home->module->file;
  decl->range = syn.range;
  decl->nameRange = syn.nameRange;
  item.constDecl = decl.get();
  item.home->module->consts.push_back(std::move(decl));
  return item.constDecl;
}

//===----------------------------------------------------------------------===//
// Types and signatures
//===----------------------------------------------------------------------===//

bool Sema::resolveType(const syntax::TypeSyntax &type, ModuleState &ms,
                       TensorType &out) {
  out = TensorType(type.elem);
  if (!type.valid)
    return false;
  bool ok = true;
  for (const auto &dim : type.dims) {
    if (!dim.isName) {
      if (dim.value <= 0) {
        error(DiagCode::InvalidDimension, dim.range,
              "dimension size must be positive, got " +
                  std::to_string(dim.value));
        ok = false;
        out.shape.push_back(Dim::constant(1));
        continue;
      }
      out.shape.push_back(Dim::constant(dim.value));
      continue;
    }
    auto it = ms.names.find(dim.name);
    if (it != ms.names.end() && it->second->kind == NamedItem::Kind::Const) {
      ConstDecl *c = ensureConst(*it->second);
      if (!c) {
        ok = false;
        out.shape.push_back(Dim::constant(1));
        continue;
      }
      if (c->value.kind != ScalarValue::Kind::Int) {
        error(DiagCode::DimensionNotInteger, dim.range,
              "const " + quote(dim.name) + " is " +
                  elemTypeName(c->defaultType).str() + " (" +
                  c->value.str() + "), so it cannot be used as a dimension")
            .note(c->nameRange, "the const is defined here");
        ok = false;
        out.shape.push_back(Dim::constant(1));
        continue;
      }
      if (c->value.intValue <= 0) {
        error(DiagCode::InvalidDimension, dim.range,
              "dimension size must be positive, but const " +
                  quote(dim.name) + " is " + c->value.str())
            .note(c->nameRange, "the const is defined here");
        ok = false;
        out.shape.push_back(Dim::constant(1));
        continue;
      }
      out.shape.push_back(Dim::constant(c->value.intValue));
      continue;
    }
    out.shape.push_back(Dim::symbol(dim.name));
  }
  return ok;
}

void Sema::checkShadowing(llvm::StringRef name, SourceRange range,
                          Scope &scope, bool isParam) {
  std::string n = name.str();
  if (!isParam) {
    if (auto it = scope.lets.find(n); it != scope.lets.end()) {
      error(DiagCode::Shadowing, range,
            quote(name) + " shadows an earlier let; names in a body are "
            "immutable, choose a new name")
          .note(it->second->nameRange, "previous definition is here");
      return;
    }
    for (const ParamBinding *p : scope.params)
      if (p->name == name) {
        error(DiagCode::Shadowing, range,
              quote(name) + " shadows the parameter " + quote(name))
            .note(p->nameRange, "the parameter is declared here");
        return;
      }
  }
  if (auto it = scope.dims.find(n); it != scope.dims.end()) {
    auto r = scope.dimRanges.find(n);
    auto b = error(DiagCode::Shadowing, range,
                   quote(name) + " shadows the dimension " + quote(name));
    if (r != scope.dimRanges.end())
      b.note(r->second, "the dimension is bound here");
    return;
  }
  if (auto it = scope.module->names.find(n); it != scope.module->names.end()) {
    error(DiagCode::Shadowing, range,
          quote(name) + " shadows the " + itemKindName(it->second->kind) +
              " " + quote(name))
        .note(it->second->nameRange, "the " +
                                         std::string(itemKindName(
                                             it->second->kind)) +
                                         " is defined here");
  }
}

bool Sema::checkSignature(const syntax::FunctionDecl &decl, ModuleState &ms,
                          FunctionBase &item, Scope &scope,
                          std::vector<TensorType> &paramTypes) {
  bool ok = true;
  scope.module = &ms;
  for (size_t i = 0; i < decl.params.size(); ++i) {
    const syntax::Param &p = decl.params[i];
    TensorType type;
    if (!resolveType(p.type, ms, type))
      ok = false;
    for (size_t axis = 0; axis < p.type.dims.size() && axis < type.rank();
         ++axis) {
      const Dim &d = type.shape[axis];
      if (!d.isSymbol())
        continue;
      std::string name = d.getSymbol().str();
      if (scope.dims.count(name))
        continue;
      scope.dims[name] = d;
      scope.dimRanges[name] = p.type.dims[axis].range;
      item.symbols.push_back({name, static_cast<unsigned>(i),
                              static_cast<unsigned>(axis),
                              p.type.dims[axis].range});
    }
    auto binding = std::make_unique<ParamBinding>();
    binding->name = p.name;
    binding->index = i;
    binding->type = type;
    binding->range = p.range;
    binding->nameRange = p.nameRange;
    paramTypes.push_back(type);
    item.params.push_back(std::move(binding));
  }
  // Names: duplicates among parameters, then shadowing of module names and
  // dimensions.
  for (size_t i = 0; i < item.params.size(); ++i) {
    const ParamBinding &p = *item.params[i];
    bool duplicate = false;
    for (size_t j = 0; j < i && !duplicate; ++j)
      if (item.params[j]->name == p.name) {
        error(DiagCode::Redefinition, p.nameRange,
              "parameter " + quote(p.name) + " is declared twice")
            .note(item.params[j]->nameRange, "previous definition is here");
        duplicate = true;
      }
    if (!duplicate)
      checkShadowing(p.name, p.nameRange, scope, /*isParam=*/true);
    scope.params.push_back(item.params[i].get());
  }
  for (const syntax::TypeSyntax &r : decl.results) {
    TensorType type;
    if (!resolveType(r, ms, type))
      ok = false;
    for (size_t axis = 0; axis < type.rank(); ++axis) {
      const Dim &d = type.shape[axis];
      if (d.isSymbol() && !scope.dims.count(d.getSymbol().str())) {
        error(DiagCode::UnboundResultDim, r.dims[axis].range,
              "result dimension " + quote(d.getSymbol()) + " of " +
                  quote(decl.name) +
                  " is not bound by any parameter; a result may use only "
                  "dimensions of its parameters");
        ok = false;
      }
    }
    item.results.push_back(type);
    item.resultRanges.push_back(r.range);
  }
  return ok;
}

//===----------------------------------------------------------------------===//
// Bodies
//===----------------------------------------------------------------------===//

void Sema::checkBody(const std::vector<syntax::Stmt> &stmts, Scope &scope,
                     Body &out, llvm::ArrayRef<TensorType> results,
                     llvm::StringRef itemName, bool isKernel,
                     bool hadParseError, SourceRange bodyRange) {
  bool returned = false;
  for (const syntax::Stmt &stmt : stmts) {
    if (diags.limitReached())
      return;
    if (returned) {
      error(DiagCode::CodeAfterReturn, stmt.range,
            "'return' must be the last statement of " + quote(itemName) +
                "; this statement comes after it")
          .note(out.returnRange, "the return is here");
      break;
    }
    if (stmt.kind == syntax::Stmt::Kind::Let) {
      checkShadowing(stmt.name, stmt.nameRange, scope, /*isParam=*/false);
      auto let = std::make_unique<LetBinding>();
      let->name = stmt.name;
      let->nameRange = stmt.nameRange;
      let->range = stmt.range;
      let->value = checkExpr(*stmt.value, scope);
      scope.lets[stmt.name] = let.get();
      out.lets.push_back(std::move(let));
      continue;
    }
    returned = true;
    out.returnRange = stmt.range;
    std::vector<const syntax::Expr *> values;
    if (auto *tuple = llvm::dyn_cast<syntax::TupleExpr>(stmt.value.get())) {
      for (const auto &e : tuple->elements)
        values.push_back(e.get());
    } else {
      values.push_back(stmt.value.get());
    }
    for (const syntax::Expr *v : values)
      out.results.push_back(checkExpr(*v, scope));
    if (results.empty())
      continue; // The signature failed; already reported.
    if (values.size() != results.size()) {
      error(DiagCode::ResultCountMismatch, stmt.value->range,
            std::string(isKernel ? "kernel " : "fn ") + quote(itemName) +
                " returns " + std::to_string(values.size()) +
                (values.size() == 1 ? " value" : " values") +
                " but its result type declares " +
                std::to_string(results.size()));
      continue;
    }
    for (size_t i = 0; i < results.size(); ++i) {
      Expr &v = *out.results[i];
      if (llvm::isa<ErrorExpr>(v))
        continue;
      if (v.weak && results[i].isScalar() && v.type.isScalar()) {
        coerceWeak(v, results[i].elem);
        continue;
      }
      if (v.type != results[i]) {
        std::string which =
            results.size() > 1 ? " result " + std::to_string(i) : "";
        auto diag =
            error(DiagCode::ResultTypeMismatch, v.range,
                  std::string(isKernel ? "kernel " : "fn ") + quote(itemName) +
                      which + " must be " + results[i].str() +
                      " but the returned value is " + v.type.str());
        if (std::optional<FixIt> fix = resultCastFix(v, results[i]))
          diag.fixIt(std::move(fix->title), std::move(fix->edits));
      }
    }
  }
  if (!returned && !hadParseError) {
    SourceRange closing = bodyRange;
    if (closing.isValid() && closing.size() > 0)
      closing.begin = closing.end - 1;
    error(DiagCode::MissingReturn, closing,
          std::string(isKernel ? "kernel " : "fn ") + quote(itemName) +
              " must end with a 'return' statement");
  }
}

void Sema::checkKernel(const syntax::FunctionDecl &decl, ModuleState &ms) {
  auto kernel = std::make_unique<Kernel>();
  kernel->name = decl.name;
  kernel->file = ms.module->file;
  kernel->range = decl.range;
  kernel->nameRange = decl.nameRange;
  unsigned errorsBefore = diags.getNumErrors();
  uint64_t errorExprsBefore = errorExprCount;
  itemNodeStart = nodeCount;
  nodeLimitReported = false;
  depthLimitReported = false;
  Scope scope;
  std::vector<TensorType> paramTypes;
  bool ok = checkSignature(decl, ms, *kernel, scope, paramTypes);
  if (!decl.hadParseError || !decl.body.empty())
    checkBody(decl.body, scope, kernel->body, ok ? llvm::ArrayRef<TensorType>(kernel->results)
                                                 : llvm::ArrayRef<TensorType>(),
              decl.name, /*isKernel=*/true, decl.hadParseError,
              decl.bodyRange);
  kernel->valid = ok && !decl.hadParseError &&
                  diags.getNumErrors() == errorsBefore &&
                  errorExprCount == errorExprsBefore;
  ms.module->kernels.push_back(std::move(kernel));
}

void Sema::ensureFnChecked(FnState &fs) {
  if (fs.status != FnState::Status::Unchecked)
    return;
  fs.status = FnState::Status::Checking;
  // A generic check is independent of whoever triggered it.
  std::vector<InstFrame> savedStack;
  savedStack.swap(instStack);
  unsigned savedDepth = exprDepth;
  exprDepth = 0;
  uint64_t savedItemStart = itemNodeStart;
  bool savedLimit = nodeLimitReported;
  bool savedDepthLimit = depthLimitReported;
  itemNodeStart = nodeCount;
  nodeLimitReported = false;
  depthLimitReported = false;

  const syntax::FunctionDecl &decl = *fs.decl;
  Function &fn = *fs.fn;
  unsigned errorsBefore = diags.getNumErrors();
  uint64_t errorExprsBefore = errorExprCount;
  bool ok = true;
  if (decl.results.size() > 1) {
    error(DiagCode::FnMultipleResults, decl.resultRange,
          "fn " + quote(decl.name) + " returns " +
              std::to_string(decl.results.size()) +
              " values; fn helpers return exactly one (only kernels may "
              "return several)");
    ok = false;
  }
  Scope scope;
  if (!checkSignature(decl, *fs.home, fn, scope, fs.paramTypes))
    ok = false;
  fs.resultTypes = fn.results;
  fs.headerOk = ok && fn.results.size() == 1;
  checkBody(decl.body, scope, fn.body,
            fs.headerOk ? llvm::ArrayRef<TensorType>(fn.results)
                        : llvm::ArrayRef<TensorType>(),
            decl.name, /*isKernel=*/false, decl.hadParseError,
            decl.bodyRange);
  fs.ok = fs.headerOk && !decl.hadParseError &&
          diags.getNumErrors() == errorsBefore &&
          errorExprCount == errorExprsBefore;
  fn.valid = fs.ok;
  fs.status = FnState::Status::Checked;

  instStack.swap(savedStack);
  exprDepth = savedDepth;
  itemNodeStart = savedItemStart;
  nodeLimitReported = savedLimit;
  depthLimitReported = savedDepthLimit;
}

void Sema::run() {
  for (auto &module : unit.modules) {
    auto ms = std::make_unique<ModuleState>();
    ms->module = module.get();
    stateOf[module.get()] = ms.get();
    moduleStates.push_back(std::move(ms));
  }
  for (auto &ms : moduleStates)
    declareModule(*ms);
  for (auto &ms : moduleStates)
    importNames(*ms);
  for (auto &ms : moduleStates)
    for (auto &item : ms->own)
      if (item->kind == NamedItem::Kind::Const)
        ensureConst(*item);
  for (auto &fs : fnStates)
    ensureFnChecked(*fs);
  for (auto &ms : moduleStates)
    for (auto &item : ms->own)
      if (item->kind == NamedItem::Kind::Kernel && !diags.limitReached())
        checkKernel(*item->kernelSyntax, *ms);
  // Keep typed consts in source order.
  for (auto &ms : moduleStates)
    std::stable_sort(ms->module->consts.begin(), ms->module->consts.end(),
                     [](const auto &a, const auto &b) {
                       return a->range.begin < b->range.begin;
                     });
}

void accy::checkCompilationUnit(CompilationUnit &unit, DiagnosticEngine &diags,
                                const SemaLimits &limits) {
  Sema sema(unit, diags, limits);
  sema.run();
}
