// `app` prints the kernels' results for fixed inputs; `app mismatch`
// calls blend with inconsistent shapes and prints the error. Any failed
// call prints "error <code>: <message>" and exits with 1.
#include "names.accy.h"

#include <cstdio>
#include <cstring>
#include <vector>

static int fail(const accy::Status &status) {
  std::printf("error %s: %s\n", accy::errorCodeName(status.code()),
              status.message().c_str());
  return 1;
}

static void print(const char *name, const std::vector<float> &values) {
  std::printf("%s", name);
  for (float v : values)
    std::printf(" %.6f", v);
  std::printf("\n");
}

int main(int argc, char **argv) {
  const std::vector<float> a = {1, 2, 3, 4}, b = {10, 20, 30, 40},
                           c = {5, 6, 7, 8};
  std::vector<float> r(4), r0(4), r1(4);
  auto in = [](const std::vector<float> &v, int64_t n) {
    return accy::TensorView<const float, 1>(v.data(), {n});
  };
  auto out = [](std::vector<float> &v) {
    return accy::TensorView<float, 1>(v.data(), {4});
  };
  if (argc > 1 && std::strcmp(argv[1], "mismatch") == 0)
    return fail(user::blend(in(a, 4), in(b, 3), in(c, 4), out(r)));
  if (accy::Status status = user::blend(in(a, 4), in(b, 4), in(c, 4), out(r));
      !status.ok())
    return fail(status);
  if (accy::Status status =
          user::split(in(a, 4), in(b, 4), in(c, 4), out(r0), out(r1));
      !status.ok())
    return fail(status);
  const std::vector<int32_t> i = {1, 2, 3, 4}, j = {100, 200, 300, 400};
  std::vector<int32_t> t(4);
  if (accy::Status status = user::total(
          accy::TensorView<const int32_t, 1>(i.data(), {4}),
          accy::TensorView<const int32_t, 1>(j.data(), {4}),
          accy::TensorView<int32_t, 1>(t.data(), {4}));
      !status.ok())
    return fail(status);
  print("blend", r);
  print("split0", r0);
  print("split1", r1);
  print("total", std::vector<float>(t.begin(), t.end()));
  return 0;
}
