//===- Hover.h - Hover on kernels, names and expressions --------*- C++ -*-===//
#ifndef ACCY_LSP_HOVER_H
#define ACCY_LSP_HOVER_H

#include "Analysis.h"
#include "DocumentCompiler.h"
#include "Protocol.h"

#include <optional>

namespace accy::lsp {

/// Hover on a name (a let, parameter, const or fn) needs only the frontend;
/// hover on a kernel's name needs the stage records (its table), hover on
/// an expression the stage products (its dispatch and GPU kernel).
enum class HoverNeed { Nothing, Frontend, StageRecords, StageProducts };
HoverNeed hoverNeed(const Analysis &analysis, Position position);

/// The hover at `position`. `compiled` is the compile of the same version
/// (null when the stages are not needed or did not finish).
std::optional<Hover> findHover(const Analysis &analysis,
                               const CompileResult *compiled,
                               Position position);

} // namespace accy::lsp

#endif // ACCY_LSP_HOVER_H
