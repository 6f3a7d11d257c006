//===- Inliner.h - Device function calls spliced into their callers -------===//
//
// The interpreter runs one flat instruction array per entry, with no call
// stack. So between parsing and decoding, every `call` of a `.func` is
// replaced by the function's body: its registers and labels renamed apart,
// its `.param` arguments and results, and the call site's, become
// registers moved between, and `ret` a branch past the body. Only scalar
// arguments and results are supported (what NVVM emits for Accy's outlined
// transcendentals); anything else, and recursion, is an error naming the
// line.
//
//===----------------------------------------------------------------------===//
#ifndef ACCY_PTX_EMULATOR_INLINER_H
#define ACCY_PTX_EMULATOR_INLINER_H

#include "Parser.h"

#include <string>

namespace ptxemu {

/// Inlines every call in `module`'s entries; false with `error` ("line N:
/// ...") when a call cannot be inlined.
bool inlineCalls(RawModule &module, std::string &error);

} // namespace ptxemu

#endif
