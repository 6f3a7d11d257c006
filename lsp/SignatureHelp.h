//===- SignatureHelp.h - The parameters of the call being typed -*- C++ -*-===//
#ifndef ACCY_LSP_SIGNATUREHELP_H
#define ACCY_LSP_SIGNATUREHELP_H

#include "Analysis.h"
#include "Protocol.h"

#include <optional>

namespace accy::lsp {

/// The signature of the built-in or fn whose call's parentheses enclose
/// `position`, with the parameter being typed: found from the tokens, so it
/// works in the unfinished code the user is typing.
std::optional<SignatureHelp> findSignatureHelp(const Analysis &analysis,
                                               Position position);

} // namespace accy::lsp

#endif // ACCY_LSP_SIGNATUREHELP_H
