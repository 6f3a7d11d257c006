//===- SemanticTokens.h - Token classes for highlighting --------*- C++ -*-===//
#ifndef ACCY_LSP_SEMANTICTOKENS_H
#define ACCY_LSP_SEMANTICTOKENS_H

#include "Analysis.h"

#include <cstdint>
#include <string>
#include <vector>

namespace accy::lsp {

/// The legend announced in the server's capabilities.
const std::vector<std::string> &semanticTokenTypes();
const std::vector<std::string> &semanticTokenModifiers();

/// The main file's tokens in the LSP's relative encoding (five integers
/// per token). Names are classified by what sema resolved them to.
std::vector<uint32_t> findSemanticTokens(const Analysis &analysis);

} // namespace accy::lsp

#endif // ACCY_LSP_SEMANTICTOKENS_H
