//===- Debounce.h - The delay between an edit and its check -----*- C++ -*-===//
#ifndef ACCY_LSP_DEBOUNCE_H
#define ACCY_LSP_DEBOUNCE_H

#include <chrono>

namespace accy::lsp {

/// The recent time from a check's start to its diagnostics, clamped to
/// [min, max], as clangd's default policy does: a slow document waits
/// longer for a burst of keystrokes to end.
class DebouncePolicy {
public:
  using Duration = std::chrono::milliseconds;
  Duration min{50}, max{500};
  Duration next() const;
  void record(std::chrono::duration<double> compileTime);

private:
  double averageMs = 0;
  bool any = false;
};

} // namespace accy::lsp

#endif // ACCY_LSP_DEBOUNCE_H
