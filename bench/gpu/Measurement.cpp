//===- Measurement.cpp - Time, read back, reference, compare ---------------===//

#include "Measurement.h"

#include <chrono>

using namespace bench;

void bench::measure(const CaseSpec &spec, const Settings &settings,
                    Measurement &m) {
  m.error = settings.model
                ? countLaunches(spec.launch, m.traffic)
                : timeLaunches(spec.launch, settings.timing, m.timing);
  if (!m.error.ok())
    return;
  std::vector<float> got, want;
  m.error = spec.readResult(got);
  if (!m.error.ok())
    return;
  auto start = std::chrono::steady_clock::now();
  spec.reference(want);
  m.hostSeconds = std::chrono::duration<double>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  m.hostCheck = spec.check(got, want);
}

Measurement bench::failedCase(std::string kernel, std::string shape,
                              accy::Status error) {
  Measurement m;
  m.kernel = std::move(kernel);
  m.shape = std::move(shape);
  m.error = std::move(error);
  return m;
}
