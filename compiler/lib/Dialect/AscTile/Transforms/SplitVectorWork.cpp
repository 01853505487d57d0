//===- SplitVectorWork.cpp - a MIX kernel's vector work on both AIVs -------===//
//
// A cube core (AIC) of Atlas A2/A3 and Ascend950 has two vector cores (AIVs)
// in its group. A MIX kernel compiled for one of them (KERNEL_TYPE_MIX_AIC_1_1)
// leaves the other idle, so its epilogue or prologue runs at half the vector
// throughput the group has. This pass gives each AIV half the rows of every
// vector tile (KERNEL_TYPE_MIX_AIC_1_2):
//
//   x = load ws[m0, n0] : [BM, BN]  ->  load ws[m0 + sub * BM/2, n0] : [BM/2, BN]
//   ... elementwise, per-row reductions, broadcasts of rows ...
//   store y, out[m0, n0]            ->  store y, out[m0 + sub * BM/2, n0]
//
// with sub = asctile.sub_block_idx (Ascend C GetSubBlockIdx: 0 or 1 on the
// AIVs). The cube side is unchanged, and so is its synchronisation: a mode-2
// cross-core set of the AIC raises the flag on both AIVs, and the AIC's wait
// completes when both AIVs have set it, so the hand-offs the sync insertion
// places for one AIV order the two halves the same way.
//
// Which UB tiles are split follows from the data flow. Tiles joined by an
// op that keeps rows apart (elementwise ops, casts, compares, selects,
// reductions and broadcasts along other dimensions, reshapes and transposes
// that keep the first dimension, loop-carried values) are split together;
// every stored tile must be split (both AIVs storing the same rows would
// write them twice); a tile whose first dimension is reduced, broadcast from
// 1, concatenated along, moved, masked or used by any other op stays whole
// (both AIVs compute it; it is only read). When a stored tile is also forced
// whole, or a split tile has an odd first dimension (or a 1-D half that is not
// whole 32-byte blocks), or the kernel writes GM scalars, nothing is split and
// the kernel stays MIX_AIC_1_1, with a remark that says why.
//
// `vector-cores`: 0 splits when it can (the default), 1 never, 2 must (the
// reason is an error otherwise). The split kernel's function carries
// `asctile.vector_cores = 2`, which the emitter (KERNEL_TYPE_MIX_AIC_1_2)
// and the simulator (two AIVs per group) read.
//
//===----------------------------------------------------------------------===//
#include "asc2/Dialect/AscTile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/IntEqClasses.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/TypeSwitch.h"

#define DEBUG_TYPE "asctile-split-vector-work"

namespace asc2::asctile {
#define GEN_PASS_DEF_ASCTILESPLITVECTORWORK
#include "asc2/Dialect/AscTile/Transforms/Passes.h.inc"
} // namespace asc2::asctile

using namespace mlir;
using namespace asc2::asctile;

namespace {

TileType ubTile(Type t) {
  auto tile = dyn_cast<TileType>(t);
  return tile && tile.getLocation() == TileLocation::UB && tile.getRank() >= 1
             ? tile
             : TileType();
}

bool isCubeTile(Type t) {
  auto tile = dyn_cast<TileType>(t);
  return tile && tile.getLocation() != TileLocation::UB;
}

/// Which UB tiles are split, as classes of tiles that must be split alike.
class SplitPlan {
public:
  explicit SplitPlan(func::FuncOp func) { analyse(func); }

  /// Why nothing can be split (with the op it concerns), or empty.
  std::string reason;
  Operation *reasonOp = nullptr;

  /// The UB tiles to halve along their first dimension.
  SmallVector<Value> splitValues() {
    SmallVector<Value> out;
    for (Value v : values)
      if (splitLeaders.count(leader(v)))
        out.push_back(v);
    return out;
  }

  /// Decides the classes; false (and `reason`) when the kernel cannot split.
  bool decide() {
    if (!reason.empty())
      return false;
    for (auto &[cls, store] : forcedSplit) {
      auto whole = forcedWhole.find(cls);
      if (whole != forcedWhole.end()) {
        reasonOp = whole->second.first;
        reason = "a tile it stores is also " + whole->second.second +
                 ", so its rows cannot be divided between the group's two "
                 "vector cores";
        return false;
      }
      splitLeaders.insert(cls);
    }
    for (Value v : values) {
      if (!splitLeaders.count(leader(v)))
        continue;
      TileType t = ubTile(v.getType());
      int64_t rows = t.getShape()[0];
      Operation *at = v.getDefiningOp() ? v.getDefiningOp()
                                        : v.getParentBlock()->getParentOp();
      if (rows % 2 != 0) {
        reasonOp = at;
        reason = "a tile it stores has an odd number of rows (" +
                 std::to_string(rows) +
                 "), which do not divide evenly between the group's two "
                 "vector cores";
        return false;
      }
      int64_t bits = t.getElementType().getIntOrFloatBitWidth();
      if (t.getRank() == 1 && ((rows / 2) * bits) % 256 != 0) {
        reasonOp = at;
        reason = "half of a " + std::to_string(rows) +
                 "-element 1-D tile it stores is not whole 32-byte blocks";
        return false;
      }
    }
    // Both vector cores need a matmul result the fixpipe moves into UB: it
    // can only be divided between them (a single destination reaches one).
    for (MoveOp m : fixpipesToUb)
      if (!splitLeaders.empty() && !isSplitValue(m.getResult())) {
        reasonOp = m;
        reason = "the matmul result it moves to UB is needed whole (its rows are not divided with the "
                 "tiles the kernel stores)";
        return false;
      }
    return !splitLeaders.empty();
  }

private:
  void add(Value v) {
    if (ubTile(v.getType()) && index.try_emplace(v, unsigned(values.size())).second) {
      values.push_back(v);
      classes.grow(unsigned(values.size()));
    }
  }
  void join(Value a, Value b) {
    if (!ubTile(a.getType()) || !ubTile(b.getType()))
      return;
    add(a);
    add(b);
    classes.join(index.lookup(a), index.lookup(b));
  }
  /// The class of `v` (an added UB tile), as its representative's number.
  unsigned leader(Value v) const { return classes.findLeader(index.lookup(v)); }
  SmallVector<Value> tilesOf(Operation *op) {
    SmallVector<Value> out;
    for (Value v : op->getOperands())
      if (ubTile(v.getType()))
        out.push_back(v);
    for (Value v : op->getResults())
      if (ubTile(v.getType()))
        out.push_back(v);
    return out;
  }
  void split(Value v, Operation *op) {
    if (!ubTile(v.getType()))
      return;
    add(v);
    pendingSplit.push_back({v, op});
  }
  void whole(Value v, Operation *op, const char *why) {
    if (!ubTile(v.getType()))
      return;
    add(v);
    pendingWhole.push_back({v, {op, why}});
  }
  /// Every UB tile operand and result of `op` in one class.
  void joinAll(Operation *op) {
    SmallVector<Value> tiles = tilesOf(op);
    for (Value v : tiles)
      join(tiles.front(), v);
  }
  void wholeAll(Operation *op, const char *why) {
    for (Value v : tilesOf(op))
      whole(v, op, why);
  }

  /// Ascend950's moves between the cores: the fixpipe into UB is a load
  /// (its rows divide: the dual-destination fixpipe), a copy of a UB tile's
  /// rows into L1 a store (each vector core copies its own rows); a copy of
  /// part of the rows keeps every tile whole.
  void analyseMove(MoveOp m) {
    TileLocation from = m.getSource().getType().getLocation();
    TileLocation to = m.getResult().getType().getLocation();
    if (from == TileLocation::L0C && to == TileLocation::UB) {
      add(m.getResult());
      fixpipesToUb.push_back(m);
      return;
    }
    if (from != TileLocation::UB || to != TileLocation::L1) {
      wholeAll(m, "used by an operation that needs all of its rows");
      return;
    }
    copiesToL1.push_back(m);
    TileType src = m.getSource().getType();
    bool firstRow = m.getOffsets()[0] == 0 &&
                    (m.getDynamic().empty() || matchPattern(m.getDynamic()[0], m_Zero()));
    if (src.getRank() == 2 && firstRow && src.getShape()[0] == m.getResult().getType().getShape()[0]) {
      split(m.getSource(), m);
      return;
    }
    reasonOp = m;
    reason = src.getRank() == 2 ? "it copies part of a UB tile's rows to L1, which neither vector core "
                                  "holds alone once the rows are divided"
                                : "it copies a 1-D row to L1, which one vector core copies whole";
  }

public:
  /// The moves between the cube and the vector core (Ascend950).
  SmallVector<MoveOp> fixpipesToUb, copiesToL1;
  bool hasLocalMoves() const { return !fixpipesToUb.empty() || !copiesToL1.empty(); }
  bool isSplitValue(Value v) { return index.count(v) && splitLeaders.count(leader(v)); }

private:
  void analyse(func::FuncOp func) {
    func.walk([&](Operation *op) {
      llvm::TypeSwitch<Operation *>(op)
          .Case<LoadOp, SplatOp>([&](Operation *o) { add(o->getResult(0)); })
          .Case<StoreOp>([&](StoreOp s) { split(s.getValue(), s); })
          .Case<AtomicRMWOp>([&](AtomicRMWOp s) { split(s.getValue(), s); })
          .Case<SetValueOp>([&](SetValueOp s) {
            reason = "it writes a scalar to GM, which both vector cores would "
                     "write";
            reasonOp = s;
          })
          .Case<ReduceOp>([&](ReduceOp r) {
            if (llvm::is_contained(r.getDims(), 0))
              wholeAll(r, "reduced over its first dimension");
            else
              joinAll(r);
          })
          .Case<BroadcastOp>([&](BroadcastOp b) {
            TileType from = ubTile(b.getSource().getType());
            TileType to = ubTile(b.getResult().getType());
            if (from && to && from.getRank() == to.getRank() &&
                from.getShape()[0] == to.getShape()[0])
              joinAll(b);
            else
              whole(b.getSource(), b, "broadcast along its first dimension");
          })
          .Case<ReshapeOp>([&](ReshapeOp r) {
            TileType from = ubTile(r.getSource().getType());
            TileType to = ubTile(r.getResult().getType());
            if (from && to && from.getShape()[0] == to.getShape()[0])
              joinAll(r);
            else
              wholeAll(r, "reshaped across its first dimension");
          })
          .Case<TransposeOp>([&](TransposeOp t) {
            if (t.getPermutationOrDefault().front() == 0)
              joinAll(t);
            else
              wholeAll(t, "transposed across its first dimension");
          })
          .Case<ConcatOp>([&](ConcatOp c) {
            if (c.getDim() != 0)
              joinAll(c);
            else
              wholeAll(c, "concatenated along its first dimension");
          })
          .Case<MoveOp>([&](MoveOp m) { analyseMove(m); })
          .Case<CmpOp, SelectOp, CastOp>([&](Operation *o) { joinAll(o); })
          .Case<scf::ForOp>([&](scf::ForOp f) {
            auto yield = cast<scf::YieldOp>(f.getBody()->getTerminator());
            for (auto [i, init] : llvm::enumerate(f.getInitArgs())) {
              join(init, f.getRegionIterArgs()[i]);
              join(init, yield.getOperand(i));
              join(init, f.getResult(i));
            }
          })
          .Case<scf::IfOp>([&](scf::IfOp i) {
            for (auto [n, result] : llvm::enumerate(i.getResults())) {
              join(result, i.thenYield().getOperand(n));
              if (!i.getElseRegion().empty())
                join(result, i.elseYield().getOperand(n));
            }
          })
          .Case<scf::YieldOp, func::ReturnOp>([](Operation *) {})
          .Default([&](Operation *o) {
            // Arithmetic and math on tiles are elementwise; anything else
            // that touches a UB tile keeps its tiles whole.
            StringRef dialect = o->getName().getDialectNamespace();
            if ((dialect == "arith" || dialect == "math") && o->getNumRegions() == 0 &&
                !isa<arith::ConstantOp>(o))
              joinAll(o);
            else
              wholeAll(o, "used by an operation that needs all of its rows");
          });
    });
    // Classes are final now: record what each must be, by its leader.
    for (auto &[v, op] : pendingSplit)
      forcedSplit.try_emplace(leader(v), op);
    for (auto &[v, why] : pendingWhole)
      forcedWhole.try_emplace(leader(v), why);
  }

  llvm::IntEqClasses classes;
  llvm::DenseMap<Value, unsigned> index; // UB tile -> its number
  SmallVector<Value> values;             // by number, in first-seen order
  SmallVector<std::pair<Value, Operation *>> pendingSplit;
  SmallVector<std::pair<Value, std::pair<Operation *, std::string>>> pendingWhole;
  llvm::MapVector<unsigned, Operation *> forcedSplit;
  llvm::DenseMap<unsigned, std::pair<Operation *, std::string>> forcedWhole;
  llvm::DenseSet<unsigned> splitLeaders;
};

/// The tile with half the rows.
TileType halved(TileType t) {
  SmallVector<int64_t> shape(t.getShape());
  shape[0] /= 2;
  return TileType::get(t.getContext(), shape, t.getElementType(), t.getLocation());
}

struct SplitVectorWorkPass
    : public asc2::asctile::impl::AscTileSplitVectorWorkBase<SplitVectorWorkPass> {
  using AscTileSplitVectorWorkBase::AscTileSplitVectorWorkBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (vectorCores != 0 && vectorCores != 1 && vectorCores != 2) {
      func.emitError() << "asctile-split-vector-work: option vector-cores="
                       << vectorCores << " is invalid; it must be 0, 1 or 2";
      return signalPassFailure();
    }
    // A MIX kernel: tiles on the cube side and UB tiles stored from the
    // vector side.
    bool cube = false, vector = false;
    func.walk([&](Operation *op) {
      for (Type t : op->getResultTypes()) {
        cube |= isCubeTile(t);
        vector |= bool(ubTile(t));
      }
    });
    if (!cube || !vector)
      return;
    SplitPlan plan(func);
    if (plan.hasLocalMoves() && vectorCores == 1) {
      MoveOp m = plan.fixpipesToUb.empty() ? plan.copiesToL1.front() : plan.fixpipesToUb.front();
      mlir::emitError(m.getLoc())
          << "kernel_type=MIX_AIC_1_1 asks for one vector core per cube core, but Ascend950's "
          << (plan.fixpipesToUb.empty() ? "UB -> L1" : "L0C -> UB")
          << " path connects a cube core with the two vector cores of its own AI core, which a "
             "MIX_AIC_1_2 kernel has (the Ascend C headers route a UB -> L1 DataCopy of a 1:1 kernel "
             "through the Matmul API's GM workspace); drop kernel_type or use MIX_AIC_1_2";
      return signalPassFailure();
    }
    if (vectorCores == 1)
      return;
    if (!plan.decide()) {
      if (plan.hasLocalMoves() && vectorCores != 2) {
        // MIX_AIC_1_2 anyway: the first vector core does the work.
        Operation *at = plan.reasonOp ? plan.reasonOp : func.getOperation();
        mlir::emitRemark(at->getLoc())
            << "the vector work runs on the first vector core of each cube core, the second only "
               "follows the cross-core flags (Ascend950's L0C -> UB and UB -> L1 need a MIX_AIC_1_2 "
               "kernel)"
            << (plan.reason.empty() ? std::string() : ": " + plan.reason);
        OpBuilder b(func.getContext());
        func->setAttr(kVectorCoresAttr, b.getI64IntegerAttr(2));
        func->setAttr(kFirstVectorCoreOnlyAttr, b.getUnitAttr());
        return;
      }
      if (plan.reason.empty())
        return; // no vector tile is stored: nothing to divide
      Operation *at = plan.reasonOp ? plan.reasonOp : func.getOperation();
      if (vectorCores == 2) {
        // At the op's line, without an IR dump of the op (a user's message).
        mlir::emitError(at->getLoc()) << "kernel_type=MIX_AIC_1_2 asks for the vector work "
                           "on both vector cores of each cube core, but "
                        << plan.reason
                        << "; use kernel_type=MIX_AIC_1_1 or change the tiling";
        return signalPassFailure();
      }
      mlir::emitRemark(at->getLoc()) << "the vector work runs on one vector core per cube "
                          "core (MIX_AIC_1_1): "
                       << plan.reason;
      return;
    }
    OpBuilder b(func.getContext());
    b.setInsertionPointToStart(&func.getBody().front());
    Value sub = b.create<SubBlockIdxOp>(func.getLoc(), b.getIndexType());
    // Row offset of this AIV's half of a tile with `rows` rows.
    auto shiftOf = [&](Operation *at, int64_t rows) {
      b.setInsertionPoint(at);
      Value half = b.create<arith::ConstantIndexOp>(at->getLoc(), rows / 2);
      return b.create<arith::MulIOp>(at->getLoc(), sub, half).getResult();
    };
    // Moves a GM access to this AIV's rows: offset += shift; a real_shape's
    // first extent -= shift (the lowering clamps it to [0, half]).
    auto moveAccess = [&](Operation *at, MutableOperandRange offsets,
                          MutableOperandRange realShape, int64_t rows) {
      Value shift = shiftOf(at, rows);
      Location loc = at->getLoc();
      Value first = offsets[0].get();
      offsets[0].set(b.create<arith::AddIOp>(loc, first, shift));
      if (realShape.size()) {
        Value extent = realShape[0].get();
        realShape[0].set(b.create<arith::SubIOp>(loc, extent, shift));
      }
    };
    SmallVector<Value> split = plan.splitValues();
    llvm::DenseSet<Value> isSplit(split.begin(), split.end());
    func.walk([&](Operation *op) {
      if (auto load = dyn_cast<LoadOp>(op)) {
        if (isSplit.count(load.getResult()))
          moveAccess(load, load.getOffsetsMutable(), load.getRealShapeMutable(),
                     ubTile(load.getResult().getType()).getShape()[0]);
      } else if (auto store = dyn_cast<StoreOp>(op)) {
        if (isSplit.count(store.getValue()))
          moveAccess(store, store.getOffsetsMutable(), store.getRealShapeMutable(),
                   ubTile(store.getValue().getType()).getShape()[0]);
      } else if (auto atomic = dyn_cast<AtomicRMWOp>(op)) {
        if (!isSplit.count(atomic.getValue()))
          return;
        Value shift = shiftOf(atomic, ubTile(atomic.getValue().getType()).getShape()[0]);
        MutableOperandRange offsets = atomic.getOffsetsMutable();
        offsets[0].set(b.create<arith::AddIOp>(atomic.getLoc(), offsets[0].get(), shift));
      }
    });
    for (MoveOp m : plan.fixpipesToUb)
      m.setSplit(true); // each vector core gets half the rows (decide() checked they divide)
    for (MoveOp m : plan.copiesToL1)
      m.setSplit(true); // each vector core copies its half of the rows
    for (Value v : split)
      v.setType(halved(ubTile(v.getType())));
    func->setAttr(kVectorCoresAttr, b.getI64IntegerAttr(2));
  }
};

} // namespace
