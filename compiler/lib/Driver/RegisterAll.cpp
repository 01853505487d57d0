//===- RegisterAll.cpp ----------------------------------------------------===//
#include "asc2/Driver/RegisterAll.h"

#include "asc2/Analysis/Passes.h"
#include "asc2/Conversion/Passes.h"
#include "asc2/Dialect/AscTile/IR/AscTile.h"
#include "asc2/Dialect/AscTile/Transforms/Passes.h"
#include "asc2/Dialect/AscendC/IR/AscendC.h"
#include "asc2/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/Passes.h"

namespace asc2 {

void registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<asctile::AscTileDialect, ascendc::AscendCDialect,
                  mlir::arith::ArithDialect, mlir::math::MathDialect,
                  mlir::scf::SCFDialect, mlir::func::FuncDialect>();
  mlir::func::registerInlinerExtension(registry);
}

void registerAllPasses() {
  static bool done = false;
  if (done)
    return;
  done = true;
  mlir::registerTransformsPasses();
  asc2::registerConversionPasses();
  asc2::ascendc::registerAscendCPasses();
  asc2::asctile::registerAscTilePasses();
  asc2::registerAnalysisPasses();
}

} // namespace asc2
