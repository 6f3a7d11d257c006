// `app` prints the kernels' results for fixed inputs; `app mismatch` calls
// a kernel with inconsistent shapes and expects a shape-mismatch error.
// Any failed call prints "error <code>: <message>" and exits with 1.
#include "norm.accy.h"
#include "ops.accy.h"

#include <cstdio>
#include <cstring>
#include <vector>

static int fail(const accy::Status &status) {
  std::printf("error %s: %s\n", accy::errorCodeName(status.code()),
              status.message().c_str());
  return 1;
}

static accy::Status upload(accy::DeviceBuffer &buffer,
                           const std::vector<float> &values) {
  if (!buffer.status().ok())
    return buffer.status();
  return buffer.upload(values.data(), values.size() * sizeof(float));
}

int main(int argc, char **argv) {
  bool mismatch = argc > 1 && std::strcmp(argv[1], "mismatch") == 0;
  std::printf("device %s\n", accy::Runtime::instance().deviceName().c_str());
  const std::vector<float> x = {1, 2, 3, 4}, y = {10, 20, 30, 40};
  const std::vector<float> m = {1, 2, 3, 0, 0, 0};
  accy::DeviceBuffer dx(16), dy(16), dz(16), dm(24), dn(24);
  for (auto [buffer, values] : {std::pair{&dx, &x}, std::pair{&dy, &y},
                                std::pair{&dm, &m}})
    if (accy::Status status = upload(*buffer, *values); !status.ok())
      return fail(status);

  if (mismatch) {
    accy::Status status = user::scale_add(dx.view<float, 1>({4}),
                                          dy.view<float, 1>({3}),
                                          dz.view<float, 1>({4}));
    if (status.code() != accy::ErrorCode::ShapeMismatch)
      return 1;
    return fail(status) == 1 ? 0 : 1;
  }

  if (accy::Status status = user::scale_add(
          dx.view<float, 1>({4}), dy.view<float, 1>({4}), dz.view<float, 1>({4}));
      !status.ok())
    return fail(status);
  if (accy::Status status = user::row_softmax(dm.view<float, 2>({2, 3}),
                                              dn.view<float, 2>({2, 3}));
      !status.ok())
    return fail(status);
  std::vector<float> z(4), n(6);
  for (auto [buffer, values] : {std::pair{&dz, &z}, std::pair{&dn, &n}})
    if (accy::Status status =
            buffer->download(values->data(), values->size() * sizeof(float));
        !status.ok())
      return fail(status);
  std::printf("scale_add");
  for (float v : z)
    std::printf(" %.6f", v);
  std::printf("\nrow_softmax");
  for (float v : n)
    std::printf(" %.6f", v);
  std::printf("\n");
  return 0;
}
