//===- SharedLibrary.cpp - dlopen, for the GPU drivers --------------------===//

#include "GpuDriver.h"

#include <dlfcn.h>

using namespace accy;

bool SharedLibrary::open(std::initializer_list<const char *> names,
                         SharedLibrary &out, std::string &error) {
  for (const char *candidate : names) {
    if (void *handle = dlopen(candidate, RTLD_NOW | RTLD_LOCAL)) {
      out.handle = handle;
      out.name = candidate;
      return true;
    }
    const char *why = dlerror();
    error += std::string(error.empty() ? "" : "; ") + (why ? why : candidate);
  }
  return false;
}

void *SharedLibrary::lookup(const char *symbol) const {
  return handle ? dlsym(handle, symbol) : nullptr;
}
