//===- FuseBufIdSync.cpp - fewer get_buf/rls_buf ---------------------------===//
//
// ascendc-insert-buf-id-sync brackets every op on its own. Between an
// rls_buf P, id and a later get_buf P, id of the same block, nothing needs
// the release unless another pipe takes the id in between: P is in order, so
// holding the id across is the same program order with two fewer sync ops.
// A loop whose body takes an id on one pipe only is the same case across
// iterations: the id is taken before the loop and released after it.
//
// The function gets `ascendc.buf_id_syncs_before_fuse` (the get_buf count it
// found) for the compile report.
//
//===----------------------------------------------------------------------===//
#include "asc2/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

#include <optional>

#define DEBUG_TYPE "ascendc-fuse-buf-id-sync"

namespace asc2::ascendc {
#define GEN_PASS_DEF_ASCENDCFUSEBUFIDSYNC
#include "asc2/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace asc2::ascendc

using namespace mlir;
using namespace asc2::ascendc;

namespace {

/// The pipe of every get/rls of `id` inside `op`, if they all use one pipe;
/// nullopt when there are none; Pipe::ALL when pipes differ.
std::optional<Pipe> pipeOfId(Operation *op, int64_t id,
                             SmallVectorImpl<Operation *> *ops = nullptr) {
  std::optional<Pipe> pipe;
  op->walk([&](Operation *o) {
    Pipe p;
    if (auto get = dyn_cast<GetBufOp>(o); get && get.getId() == id)
      p = get.getPipe();
    else if (auto rls = dyn_cast<RlsBufOp>(o); rls && rls.getId() == id)
      p = rls.getPipe();
    else
      return;
    if (ops)
      ops->push_back(o);
    pipe = !pipe || *pipe == p ? p : Pipe::ALL;
  });
  return pipe;
}

struct FuseBufIdSyncPass
    : public asc2::ascendc::impl::AscendCFuseBufIdSyncBase<FuseBufIdSyncPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    int64_t before = 0;
    func.walk([&](GetBufOp) { ++before; });
    func->setAttr("ascendc.buf_id_syncs_before_fuse",
                  OpBuilder(func).getI64IntegerAttr(before));
    // Inner loops first, so an outer loop sees the hoisted pair.
    func.walk([&](scf::ForOp loop) { hoist(loop); });
    SmallVector<Block *> blocks;
    func.walk([&](Block *block) { blocks.push_back(block); });
    for (Block *block : blocks)
      fuse(*block);
  }

  /// Takes each id the body uses on one pipe only around the loop instead.
  void hoist(scf::ForOp loop) {
    std::set<int64_t> ids;
    loop.getBody()->walk([&](GetBufOp get) { ids.insert(get.getId()); });
    for (int64_t id : ids) {
      SmallVector<Operation *> ops;
      std::optional<Pipe> pipe = pipeOfId(loop, id, &ops);
      if (!pipe || *pipe == Pipe::ALL)
        continue;
      GetBufOp first;
      RlsBufOp last;
      int64_t held = 0; // gets minus releases: a body that leaves an id held
      for (Operation *o : ops) { // (or releases one it never took) stays as is
        if (auto get = dyn_cast<GetBufOp>(o)) {
          if (!first)
            first = get;
          ++held;
        }
        if (auto rls = dyn_cast<RlsBufOp>(o)) {
          last = rls;
          --held;
        }
      }
      if (!first || !last || held != 0)
        continue; // ascendc-verify-sync reports the imbalance
      OpBuilder builder(loop);
      auto get = builder.create<GetBufOp>(
          loop.getLoc(), *pipe, id,
          builder.getStringAttr(first.getReason().value_or("").str() +
                                " (taken once around the loop)"));
      builder.setInsertionPointAfter(loop);
      auto rls = builder.create<RlsBufOp>(
          loop.getLoc(), *pipe, id,
          builder.getStringAttr(last.getReason().value_or("").str() +
                                " (taken once around the loop)"));
      if (auto core = first->getAttr("core")) {
        get->setAttr("core", core);
        rls->setAttr("core", core);
      }
      for (Operation *o : ops)
        o->erase();
      ++numHoisted;
    }
  }

  /// Drops each rls_buf P, id whose next use of the id in the block is a
  /// get_buf P, id, and that get_buf.
  void fuse(Block &block) {
    SmallVector<RlsBufOp> releases;
    for (Operation &op : block)
      if (auto rls = dyn_cast<RlsBufOp>(op))
        releases.push_back(rls);
    for (RlsBufOp rls : releases) {
      for (Operation *o = rls->getNextNode(); o; o = o->getNextNode()) {
        if (auto get = dyn_cast<GetBufOp>(o);
            get && get.getId() == rls.getId() && get.getPipe() == rls.getPipe()) {
          rls->erase();
          get->erase();
          ++numFused;
          break;
        }
        if (pipeOfId(o, rls.getId())) // another pipe needs the release
          break;
      }
    }
  }
};

} // namespace
