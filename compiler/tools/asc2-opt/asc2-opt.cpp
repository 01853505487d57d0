//===- asc2-opt.cpp - mlir-opt with every asc2 dialect and pass ------------===//
#include "asc2/Driver/RegisterAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  asc2::registerAllDialects(registry);
  asc2::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "asc2 optimizer driver\n", registry));
}
