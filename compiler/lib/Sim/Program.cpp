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

bool isVectorOpcode(Opcode op) {
  // No default: a new opcode must be classified here.
  switch (op) {
  case Opcode::VecBinary:
  case Opcode::VecUnary:
  case Opcode::VecDup:
  case Opcode::VecScalar:
  case Opcode::VecCast:
  case Opcode::VecCompare:
  case Opcode::VecSelect:
  case Opcode::VecWholeReduce:
  case Opcode::VecBinaryRepeat:
  case Opcode::VecBrcb:
  case Opcode::VecCopy:
  case Opcode::VecGatherMask:
  case Opcode::LocalDataCopy:
  case Opcode::VecTranspose:
    return true;
  case Opcode::ConstI:
  case Opcode::ArgI:
  case Opcode::ArgF:
  case Opcode::BlockIdx:
  case Opcode::BlockNum:
  case Opcode::SubBlockIdx:
  case Opcode::Scalar:
  case Opcode::Select:
  case Opcode::Jump:
  case Opcode::BranchIfZero:
  case Opcode::CopyGmToLocal:
  case Opcode::CopyGmToLocalNd:
  case Opcode::CopyLocalToGm:
  case Opcode::ScalarLoadLocal:
  case Opcode::ScalarStoreLocal:
  case Opcode::ScalarLoadGm:
  case Opcode::ScalarStoreGm:
  case Opcode::CopyGmToL1Nz:
  case Opcode::LoadL1ToL0:
  case Opcode::Mmad:
  case Opcode::FixpipeToL1:
  case Opcode::FixpipeToUb:
  case Opcode::CopyUbToL1:
  case Opcode::CopyL1ToBt:
  case Opcode::FixpipeToGm:
  case Opcode::CrossCoreSetFlag:
  case Opcode::CrossCoreWaitFlag:
  case Opcode::SetFlag:
  case Opcode::WaitFlag:
  case Opcode::PipeBarrier:
  case Opcode::GetBuf:
  case Opcode::RlsBuf:
  case Opcode::End:
    return false;
  }
  return false;
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
