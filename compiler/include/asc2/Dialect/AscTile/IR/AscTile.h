//===- AscTile.h - asctile dialect ---------------------------------*- C++ -*-===//
#ifndef ASC2_DIALECT_ASCTILE_IR_ASCTILE_H
#define ASC2_DIALECT_ASCTILE_IR_ASCTILE_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "asc2/Dialect/AscTile/IR/AscTileDialect.h.inc"
#include "asc2/Dialect/AscTile/IR/AscTileEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "asc2/Dialect/AscTile/IR/AscTileTypes.h.inc"

#define GET_OP_CLASSES
#include "asc2/Dialect/AscTile/IR/AscTileOps.h.inc"

#endif
