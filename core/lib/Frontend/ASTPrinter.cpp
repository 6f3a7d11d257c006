//===- ASTPrinter.cpp - Text dump of the typed AST ------------------------===//

#include "accy/Frontend/ASTPrinter.h"

#include "llvm/Support/raw_ostream.h"

using namespace accy;

static std::string intList(llvm::ArrayRef<int64_t> values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i)
    out += (i ? ", " : "") + std::to_string(values[i]);
  return out + "]";
}

std::string accy::einsumSpecStr(const EinsumSpec &spec) {
  std::string out;
  for (size_t i = 0; i < spec.inputs.size(); ++i)
    out += (i ? "," : "") + spec.inputs[i].expanded;
  return out + "->" + spec.output.expanded;
}

static void printBody(llvm::raw_ostream &os, const Body &body,
                      unsigned indent);

static void printAttrs(llvm::raw_ostream &os, const BuiltinCallExpr &call) {
  const BuiltinAttrs &a = call.attrs;
  switch (call.builtin) {
  case Builtin::Softmax: case Builtin::LogSoftmax: case Builtin::Cumsum:
  case Builtin::Cummax: case Builtin::Take: case Builtin::Concat:
    os << " axis=" << a.axis();
    break;
  case Builtin::Sum: case Builtin::Mean: case Builtin::Max: case Builtin::Min:
    os << " axes=" << intList(a.axes)
       << " keepdims=" << (a.keepdims ? "true" : "false");
    break;
  case Builtin::Transpose:
    os << " perm=" << intList(a.perm);
    break;
  case Builtin::Reshape: case Builtin::Broadcast: case Builtin::Full:
  case Builtin::Iota:
    os << " shape=" << shapeStr(a.shape);
    break;
  case Builtin::Cast:
    os << " to=" << elemTypeName(a.castTo);
    break;
  case Builtin::Einsum: case Builtin::MatMul: {
    os << " \"" << a.einsum.text << "\" expanded=" << einsumSpecStr(a.einsum)
       << " sizes={";
    for (size_t i = 0; i < a.einsum.labelSizes.size(); ++i)
      os << (i ? ", " : "") << a.einsum.labelSizes[i].first << "="
         << a.einsum.labelSizes[i].second.str();
    os << "}";
    if (!a.einsum.contracted.empty())
      os << " contracted=" << a.einsum.contracted;
    break;
  }
  default:
    break;
  }
}

void accy::printExpr(llvm::raw_ostream &os, const Expr &e, unsigned indent) {
  os.indent(indent);
  switch (e.getKind()) {
  case ExprKind::Literal:
    os << "literal " << llvm::cast<LiteralExpr>(e).value.str();
    break;
  case ExprKind::ConstRef: {
    const ConstDecl *decl = llvm::cast<ConstRefExpr>(e).decl;
    os << "const " << decl->name << " = " << decl->value.str();
    break;
  }
  case ExprKind::ParamRef: {
    const ParamBinding *p = llvm::cast<ParamRefExpr>(e).param;
    os << "param " << p->name << "#" << p->index;
    break;
  }
  case ExprKind::LetRef:
    os << "let-ref " << llvm::cast<LetRefExpr>(e).let->name;
    break;
  case ExprKind::Neg:
    os << "neg";
    break;
  case ExprKind::Binary:
    os << "binary " << binaryOpKindSpelling(llvm::cast<BinaryExpr>(e).op);
    break;
  case ExprKind::BuiltinCall: {
    const auto &call = llvm::cast<BuiltinCallExpr>(e);
    os << "call " << getBuiltinInfo(call.builtin).name;
    printAttrs(os, call);
    break;
  }
  case ExprKind::Index: {
    const auto &index = llvm::cast<IndexExpr>(e);
    os << "index [";
    for (size_t i = 0; i < index.axes.size(); ++i) {
      const IndexAxis &axis = index.axes[i];
      os << (i ? ", " : "");
      switch (axis.kind) {
      case IndexAxis::Kind::Full: os << ":"; break;
      case IndexAxis::Kind::Slice:
        os << axis.start.str() << ":" << axis.stop.str();
        break;
      case IndexAxis::Kind::Point: os << axis.start.str(); break;
      case IndexAxis::Kind::Gather: os << "gather"; break;
      }
      if (!axis.provenInRange)
        os << "?";
    }
    os << "]";
    break;
  }
  case ExprKind::InlinedCall: {
    const auto &call = llvm::cast<InlinedCallExpr>(e);
    os << "inline " << (call.callee ? call.callee->name : "?") << " {";
    for (size_t i = 0; i < call.dimBindings.size(); ++i)
      os << (i ? ", " : "") << call.dimBindings[i].first << "="
         << call.dimBindings[i].second.str();
    os << "}";
    break;
  }
  case ExprKind::Error:
    os << "error";
    break;
  }
  os << " : " << e.type.str() << "\n";
  if (const auto *call = llvm::dyn_cast<InlinedCallExpr>(&e)) {
    for (size_t i = 0; i < call->args.size(); ++i) {
      os.indent(indent + 2) << "arg " << call->params[i]->name << ":\n";
      printExpr(os, *call->args[i], indent + 4);
    }
    printBody(os, call->body, indent + 2);
    return;
  }
  if (const auto *neg = llvm::dyn_cast<NegExpr>(&e)) {
    printExpr(os, *neg->operand, indent + 2);
  } else if (const auto *bin = llvm::dyn_cast<BinaryExpr>(&e)) {
    printExpr(os, *bin->lhs, indent + 2);
    printExpr(os, *bin->rhs, indent + 2);
  } else if (const auto *call = llvm::dyn_cast<BuiltinCallExpr>(&e)) {
    for (const auto &op : call->operands)
      printExpr(os, *op, indent + 2);
  } else if (const auto *index = llvm::dyn_cast<IndexExpr>(&e)) {
    for (const auto &op : index->operands)
      printExpr(os, *op, indent + 2);
  }
}

static void printBody(llvm::raw_ostream &os, const Body &body,
                      unsigned indent) {
  for (const auto &let : body.lets) {
    os.indent(indent) << "let " << let->name << " : " << let->type().str()
                      << " =\n";
    printExpr(os, *let->value, indent + 2);
  }
  os.indent(indent) << "return\n";
  for (const auto &result : body.results)
    printExpr(os, *result, indent + 2);
}

void accy::printItem(llvm::raw_ostream &os, const FunctionBase &item,
                     bool isKernel) {
  os << (isKernel ? "kernel " : "fn ") << item.name << "(";
  for (size_t i = 0; i < item.params.size(); ++i)
    os << (i ? ", " : "") << item.params[i]->name << ": "
       << item.params[i]->type.str();
  os << ") -> ";
  if (item.results.size() != 1)
    os << "(";
  for (size_t i = 0; i < item.results.size(); ++i)
    os << (i ? ", " : "") << item.results[i].str();
  if (item.results.size() != 1)
    os << ")";
  os << "\n";
  printBody(os, item.body, 2);
}

std::string accy::printItemToString(const FunctionBase &item, bool isKernel) {
  std::string out;
  llvm::raw_string_ostream os(out);
  printItem(os, item, isKernel);
  return os.str();
}

std::string accy::printExprToString(const Expr &e) {
  std::string out;
  llvm::raw_string_ostream os(out);
  printExpr(os, e);
  return os.str();
}
