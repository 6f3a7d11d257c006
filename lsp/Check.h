//===- Check.h - accy-lsp --check FILE --------------------------*- C++ -*-===//
//
// Like `clangd --check`: opens one file in an AccyServer without an editor
// or a protocol, waits for its compile, and runs every feature at every
// place it applies, printing what each returns. For reproducing a problem
// from the command line and for the test suite.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_LSP_CHECK_H
#define ACCY_LSP_CHECK_H

#include "AccyServer.h"

#include <string>

namespace accy::lsp {

/// 0 when the file compiled without errors and every feature answered; 1
/// when the file has error diagnostics or a feature failed; 2 when the
/// file cannot be read.
int runCheck(const std::string &path, ServerOptions options);

} // namespace accy::lsp

#endif // ACCY_LSP_CHECK_H
