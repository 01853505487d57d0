//===- Program.cpp - Names and widths of the compact program form ---------===//

#include "asc2/Sim/Program.h"

namespace asc2::sim {

unsigned byteWidth(DType t) {
  switch (t) {
  case DType::F32:
  case DType::I32:
    return 4;
  case DType::F16:
  case DType::BF16:
  case DType::I16:
    return 2;
  case DType::I8:
  case DType::U8:
  case DType::Bool:
    return 1;
  case DType::I64:
    return 8;
  }
  return 1;
}

const char *dtypeName(DType t) {
  switch (t) {
  case DType::F32:
    return "float32";
  case DType::F16:
    return "float16";
  case DType::BF16:
    return "bfloat16";
  case DType::I32:
    return "int32";
  case DType::I16:
    return "int16";
  case DType::I8:
    return "int8";
  case DType::U8:
    return "uint8";
  case DType::I64:
    return "int64";
  case DType::Bool:
    return "bool";
  }
  return "?";
}

const char *kernelTypeName(KernelType t) {
  switch (t) {
  case KernelType::AivOnly:
    return "AIV_ONLY";
  case KernelType::AicOnly:
    return "AIC_ONLY";
  case KernelType::Mix:
    return "MIX";
  }
  return "?";
}

} // namespace asc2::sim
