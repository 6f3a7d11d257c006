//===- Names.cpp - Printable names of the runtime's enumerations ----------===//

#include "accy/Runtime.h"

using namespace accy;

const char *accy::errorCodeName(ErrorCode code) {
  switch (code) {
  case ErrorCode::Ok:
    return "ok";
  case ErrorCode::InvalidArgument:
    return "invalid-argument";
  case ErrorCode::ShapeMismatch:
    return "shape-mismatch";
  case ErrorCode::DeviceUnavailable:
    return "device-unavailable";
  case ErrorCode::NoCodeForDevice:
    return "no-code-for-device";
  case ErrorCode::ImageLoadFailed:
    return "image-load-failed";
  case ErrorCode::DriverError:
    return "driver-error";
  }
  return "unknown";
}

const char *accy::elementTypeName(ElementType type) {
  switch (type) {
  case ElementType::F16:
    return "f16";
  case ElementType::BF16:
    return "bf16";
  case ElementType::F32:
    return "f32";
  case ElementType::F64:
    return "f64";
  case ElementType::I32:
    return "i32";
  case ElementType::I64:
    return "i64";
  case ElementType::Bool:
    return "bool";
  }
  return "unknown";
}

size_t accy::elementSize(ElementType type) {
  switch (type) {
  case ElementType::F16:
  case ElementType::BF16:
    return 2;
  case ElementType::F32:
  case ElementType::I32:
    return 4;
  case ElementType::F64:
  case ElementType::I64:
    return 8;
  case ElementType::Bool:
    return 1;
  }
  return 1;
}

const char *accy::deviceKindName(DeviceKind kind) {
  switch (kind) {
  case DeviceKind::Host:
    return "host";
  case DeviceKind::Cuda:
    return "cuda";
  case DeviceKind::Hip:
    return "hip";
  }
  return "unknown";
}
