//===- SemanticTokens.h - Token classes for highlighting --------*- C++ -*-===//
#ifndef ACCY_LSP_SEMANTICTOKENS_H
#define ACCY_LSP_SEMANTICTOKENS_H

#include "Analysis.h"
#include "Protocol.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace accy::lsp {

/// The legend announced in the server's capabilities.
const std::vector<std::string> &semanticTokenTypes();
const std::vector<std::string> &semanticTokenModifiers();

/// The main file's tokens in the LSP's relative encoding (five integers
/// per token). Names are classified by what sema resolved them to.
std::vector<uint32_t> findSemanticTokens(const Analysis &analysis);

/// The edits that turn `before` into `after`: none when they are equal,
/// else one, of what lies between their common prefix and suffix.
std::vector<SemanticTokensEdit>
diffSemanticTokens(const std::vector<uint32_t> &before,
                   const std::vector<uint32_t> &after);

/// semanticTokens/full and /full/delta: a result id for each answer, and
/// the last answer of each document, to answer the next delta against.
struct SemanticTokensResult {
  std::string resultId;
  /// Set for a delta against the previous answer; else `data` is all.
  std::optional<std::vector<SemanticTokensEdit>> edits;
  std::vector<uint32_t> data;
};

class SemanticTokensHistory {
public:
  /// Remembers `data` as the document's latest answer; answers with edits
  /// when `previousId` names the answer before.
  SemanticTokensResult record(const std::string &uri,
                              const std::optional<std::string> &previousId,
                              std::vector<uint32_t> data);
  void forget(const std::string &uri);

private:
  std::mutex mutex;
  std::map<std::string, std::pair<std::string, std::vector<uint32_t>>> last;
  uint64_t nextId = 1;
};

} // namespace accy::lsp

#endif // ACCY_LSP_SEMANTICTOKENS_H
