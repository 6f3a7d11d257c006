//===- Completion.h - Built-ins, keywords and names in scope ----*- C++ -*-===//
#ifndef ACCY_LSP_COMPLETION_H
#define ACCY_LSP_COMPLETION_H

#include "Analysis.h"
#include "Protocol.h"

#include <vector>

namespace accy::lsp {

/// Every callable built-in (with its signature), the keywords and element
/// types, the consts and fns visible in the file, and the parameters and
/// earlier lets of the item around `position`. The client filters by the
/// prefix typed so far.
std::vector<CompletionItem> findCompletions(const Analysis &analysis,
                                            Position position);

} // namespace accy::lsp

#endif // ACCY_LSP_COMPLETION_H
