//===- Definition.h - Go to definition, across imports ----------*- C++ -*-===//
#ifndef ACCY_LSP_DEFINITION_H
#define ACCY_LSP_DEFINITION_H

#include "Analysis.h"
#include "Protocol.h"

#include <optional>

namespace accy::lsp {

/// Where the name at `position` is defined: a let, a parameter, a const or
/// a fn (possibly in an imported file), or the file an import names.
std::optional<Location> findDefinition(const Analysis &analysis,
                                       Position position);

} // namespace accy::lsp

#endif // ACCY_LSP_DEFINITION_H
