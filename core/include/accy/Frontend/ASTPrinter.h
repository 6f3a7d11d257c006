//===- ASTPrinter.h - Text dump of the typed AST ----------------*- C++ -*-===//
//
// A readable, stable, indented dump of typed items, one node per line with
// its type, for tests and debugging (`accyc check --dump-ast` style tools).
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_FRONTEND_ASTPRINTER_H
#define ACCY_FRONTEND_ASTPRINTER_H

#include "accy/Frontend/AST.h"

#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace accy {

void printExpr(llvm::raw_ostream &os, const Expr &e, unsigned indent = 0);
/// Prints a kernel or fn: its signature line, then its body.
void printItem(llvm::raw_ostream &os, const FunctionBase &item,
               bool isKernel = true);
std::string printItemToString(const FunctionBase &item, bool isKernel = true);
std::string printExprToString(const Expr &e);
/// "bi,ij->bj" with the expanded labels: "bi,ij->bj".
std::string einsumSpecStr(const EinsumSpec &spec);

} // namespace accy

#endif // ACCY_FRONTEND_ASTPRINTER_H
