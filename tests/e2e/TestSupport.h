//===- TestSupport.h - Shared helpers of the end-to-end tests -------------===//
#ifndef ACCY_TESTS_E2E_TESTSUPPORT_H
#define ACCY_TESTS_E2E_TESTSUPPORT_H

#include "HostKernels.h"

#include <catch2/catch.hpp>

/// Declares the C interface of kernels (`ACCY_KERNELS(a, b, ...)` at file
/// scope); `KERNEL(a)` is the address to pass to callKernel.
#define ACCY_DECLARE_KERNEL(name) extern "C" void _mlir_ciface_##name();
#define KERNEL(name) reinterpret_cast<void *>(&_mlir_ciface_##name)

namespace accy::e2e {

/// One generator for every test, seeded once: runs are reproducible.
std::mt19937 &rng();

/// Shapes and element types equal, then everywhere
/// |actual - expected| <= atol + rtol * |expected| (NaN only where NaN is
/// expected). Integers and bools must be equal. A negative tolerance means
/// the element type's default: rtol of 8 ulp, atol of 4 ulp.
void requireClose(const Tensor &actual, const Tensor &expected,
                  double rtol = -1, double atol = -1);

/// Fresh outputs of `shape`, one per element type of `elems`.
std::vector<Tensor> outputs(const std::vector<int64_t> &shape,
                            std::initializer_list<Elem> elems);
/// Pointers to each of `ts`, for callKernel.
std::vector<Tensor *> pointers(std::vector<Tensor> &ts);

/// A tolerance of `ulps` units in the last place of `elem`.
inline double ulps(Elem elem, double ulps) { return ulps * ulp(elem); }

} // namespace accy::e2e

#endif
