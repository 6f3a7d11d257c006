// The registration table of a generated NAME.accy.cpp and the image table of
// its NAME.images.o (core/lib/CodeGen/ImageObject.cpp), linked together as a
// user's build does: every image is there byte for byte as accyc wrote the
// artifact files, followed by a 0, aligned, with its target and format.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

// Includes `kModule`, which is in an anonymous namespace.
#include "images.accy.cpp"

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>

namespace {

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  return {std::istreambuf_iterator<char>(in), {}};
}

} // namespace

TEST_CASE("the image table holds every image of the file") {
  REQUIRE(kModule.numImages == 2);
  REQUIRE(kModule.numKernels == 2);
  struct Expected {
    const char *target;
    accy::detail::ImageFormat format;
    const char *file;
  };
  const Expected expected[] = {
      {"sm_90", accy::detail::ImageFormat::Ptx, "images.sm_90.ptx"},
      {"gfx942", accy::detail::ImageFormat::Hsaco, "images.gfx942.hsaco"}};
  for (int i = 0; i < 2; ++i) {
    const accy::detail::Image &image = kModule.images[i];
    INFO("image " << i);
    CHECK(std::string(image.target) == expected[i].target);
    CHECK(image.format == expected[i].format);
    std::string bytes = readFile(std::string(ACCY_IMAGES_DIR "/") +
                                 expected[i].file);
    REQUIRE(image.size == bytes.size());
    CHECK(std::string(reinterpret_cast<const char *>(image.bytes),
                      image.size) == bytes);
    // cuModuleLoadData reads PTX up to its 0.
    CHECK(image.bytes[image.size] == 0);
    CHECK(reinterpret_cast<std::uintptr_t>(image.bytes) % 16 == 0);
  }
}

TEST_CASE("the kernels' launches name entries of the images") {
  for (int k = 0; k < kModule.numKernels; ++k) {
    const accy::detail::Kernel &kernel = *kModule.kernels[k];
    CHECK(kernel.module == &kModule);
    REQUIRE(kernel.numTargets == 2);
    for (int t = 0; t < kernel.numTargets; ++t) {
      const accy::detail::TargetPlan &plan = kernel.targets[t];
      // The runtime finds a plan's image by its target's name.
      const accy::detail::Image *found = nullptr;
      for (int i = 0; i < kModule.numImages; ++i)
        if (std::string(kModule.images[i].target) == plan.target)
          found = &kModule.images[i];
      REQUIRE(found);
      const accy::detail::Image &image = *found;
      std::string bytes(reinterpret_cast<const char *>(image.bytes),
                        image.size);
      for (int l = 0; l < plan.numLaunches; ++l) {
        INFO(kernel.name << " on " << plan.target << ": "
                         << plan.launches[l].function);
        CHECK(bytes.find(plan.launches[l].function) != std::string::npos);
      }
    }
  }
}
