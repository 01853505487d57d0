//===- kernel_operator.h - The asc2 CPU twin of the Ascend C API -*- C++ -*-===//
//
// Our own host implementation of the Ascend C API subset asc2 emits, written
// from the API reference's documented signatures and semantics
// (mirror-cann/asc-devkit@82b89a15f docs/zh/api/); no Huawei code. Kernels
// compiled against it run on the host through asc2_twin::Launch
// (asc2_twin/launch.h). docs/ascendc-api.md ("CPU twin") says what it
// implements and what it does not check.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_TWIN_KERNEL_OPERATOR_H
#define ASC2_TWIN_KERNEL_OPERATOR_H

#include "asc2_twin/kernel_macros.h"
#include "asc2_twin/half.h"
#include "asc2_twin/core.h"
#include "asc2_twin/tensor.h"
#include "asc2_twin/sync.h"
#include "asc2_twin/pipe.h"
#include "asc2_twin/system.h"
#include "asc2_twin/data_copy.h"
#include "asc2_twin/repeat.h"
#include "asc2_twin/vector.h"
#include "asc2_twin/cast.h"
#include "asc2_twin/compare_select.h"
#include "asc2_twin/reduce.h"
#include "asc2_twin/cube.h"

#include <cmath>

#endif // ASC2_TWIN_KERNEL_OPERATOR_H
