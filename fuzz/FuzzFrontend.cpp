//===- FuzzFrontend.cpp - libFuzzer target: source bytes -> diagnostics ---===//
//
// Any bytes must give a result with diagnostics, never a crash, a hang or a
// leak. Imports are answered from an overlay (every imported file is empty
// or, for "self", the input itself), so nothing is read from the disk.
//
//===----------------------------------------------------------------------===//

#include "accy/Frontend/Frontend.h"

#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  accy::FrontendOptions options;
  options.overlay =
      [&](llvm::StringRef path) -> std::optional<std::string> {
    if (path.ends_with("/self.accy"))
      return text.str();
    return std::string();
  };
  accy::SourceManager sm;
  accy::FrontendResult result =
      accy::analyzeBuffer("/fuzz/input.accy", text, options, sm);
  // The printer is part of the frontend: render every diagnostic.
  llvm::raw_null_ostream os;
  accy::printDiagnostics(os, sm, result.diagnostics);
  (void)result.hasErrors();
  return 0;
}
