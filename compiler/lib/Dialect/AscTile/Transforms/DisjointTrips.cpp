//===- DisjointTrips.cpp - loops whose trips touch disjoint GM -------------===//
//
// Sync insertion orders GM per tensor, not per byte: a tile loop that stores
// tile t of a workspace and reads it back (a MIX kernel's hand-off) gets a
// loop-carried WAR from trip t's read to trip t+1's write, although trip t+1
// writes another tile. `asc2.range(..., parallel=True)` is how a kernel says
// its trips are independent; this pass proves it where the kernel did not:
//
//   for t in range(block_idx, T, block_num):     # T constant
//       m0 = (t // blocks_n) * BM; n0 = (t % blocks_n) * BN
//       store ..., ws[m0, n0]  ...  load ws[m0, n0]
//
// For every GM buffer the loop body writes, the byte ranges of all its
// accesses in the body (loads, stores; tile shapes clipped to the tensor as
// the lowering clips them) are computed for every trip the loop can take on
// any core, t in [lb, T) (lb a constant, or block_idx >= 0; any positive
// step), by evaluating the offsets' index arithmetic from the induction
// variable and constants. When no byte written in one trip is read or
// written in another, the loop gets `asctile.disjoint_trips`, which the sync
// planner treats like `parallel=True` for GM. Anything it cannot evaluate
// (offsets from run-time values, an inner loop's variable, scalar GM
// accesses or atomics on a written buffer, more than `kMaxSegments` row
// segments) leaves the loop as it is: the proof is never guessed.
//
//===----------------------------------------------------------------------===//
#include "asc2/Dialect/AscTile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>
#include <optional>

#define DEBUG_TYPE "asctile-disjoint-trips"

namespace asc2::asctile {
#define GEN_PASS_DEF_ASCTILEDISJOINTTRIPS
#include "asc2/Dialect/AscTile/Transforms/Passes.h.inc"
} // namespace asc2::asctile

using namespace mlir;
using namespace asc2::asctile;

namespace {

constexpr int64_t kMaxTrips = 1 << 16;
constexpr int64_t kMaxSegments = 1 << 18;

/// Evaluates index/integer arithmetic over constants and one induction
/// variable; nullopt for anything else.
class Evaluator {
public:
  Evaluator(Value iv, int64_t t) : iv(iv), t(t) {}

  std::optional<int64_t> operator()(Value v) {
    if (v == iv)
      return t;
    auto it = memo.find(v);
    if (it != memo.end())
      return it->second;
    std::optional<int64_t> r = compute(v);
    memo[v] = r;
    return r;
  }

private:
  std::optional<int64_t> compute(Value v) {
    Operation *def = v.getDefiningOp();
    if (!def || def->getNumResults() != 1)
      return std::nullopt;
    if (auto c = dyn_cast<arith::ConstantOp>(def)) {
      if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
        return i.getValue().getSExtValue();
      return std::nullopt;
    }
    if (isa<arith::IndexCastOp, arith::ExtSIOp>(def))
      return (*this)(def->getOperand(0));
    if (auto s = dyn_cast<arith::SelectOp>(def)) {
      auto c = (*this)(s.getCondition());
      if (!c)
        return std::nullopt;
      return (*this)(*c ? s.getTrueValue() : s.getFalseValue());
    }
    if (def->getNumOperands() != 2)
      return std::nullopt;
    auto a = (*this)(def->getOperand(0)), b = (*this)(def->getOperand(1));
    if (!a || !b)
      return std::nullopt;
    int64_t x = *a, y = *b;
    auto floorDiv = [](int64_t p, int64_t q) {
      int64_t d = p / q;
      return (p % q != 0 && ((p < 0) != (q < 0))) ? d - 1 : d;
    };
    return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(def)
        .Case<arith::AddIOp>([&](auto) { return x + y; })
        .Case<arith::SubIOp>([&](auto) { return x - y; })
        .Case<arith::MulIOp>([&](auto) { return x * y; })
        .Case<arith::DivSIOp>([&](auto) -> std::optional<int64_t> {
          if (y == 0)
            return std::nullopt;
          return x / y;
        })
        .Case<arith::RemSIOp>([&](auto) -> std::optional<int64_t> {
          if (y == 0)
            return std::nullopt;
          return x % y;
        })
        .Case<arith::FloorDivSIOp>([&](auto) -> std::optional<int64_t> {
          if (y == 0)
            return std::nullopt;
          return floorDiv(x, y);
        })
        .Case<arith::CeilDivSIOp>([&](auto) -> std::optional<int64_t> {
          if (y == 0)
            return std::nullopt;
          return -floorDiv(-x, y);
        })
        .Case<arith::MaxSIOp>([&](auto) { return std::max(x, y); })
        .Case<arith::MinSIOp>([&](auto) { return std::min(x, y); })
        .Case<arith::CmpIOp>([&](arith::CmpIOp c) -> std::optional<int64_t> {
          switch (c.getPredicate()) {
          case arith::CmpIPredicate::eq: return x == y;
          case arith::CmpIPredicate::ne: return x != y;
          case arith::CmpIPredicate::slt: return x < y;
          case arith::CmpIPredicate::sle: return x <= y;
          case arith::CmpIPredicate::sgt: return x > y;
          case arith::CmpIPredicate::sge: return x >= y;
          default: return std::nullopt;
          }
        })
        .Default([](Operation *) { return std::nullopt; });
  }

  Value iv;
  int64_t t;
  llvm::DenseMap<Value, std::optional<int64_t>> memo;
};

/// One GM access of the loop body: its tensor view, tile shape and offsets.
struct Access {
  TensorOp tensor;
  SmallVector<int64_t> shape;
  OperandRange offsets;
  bool write;
};

/// A run of bytes one trip touches.
struct Segment {
  int64_t lo, hi; // [lo, hi) in bytes of the buffer
  int64_t trip;
  bool write;
};

/// The possible trip values of `loop` on any core, or nullopt.
std::optional<std::pair<int64_t, int64_t>> tripRange(scf::ForOp loop) {
  Evaluator constants(Value(), 0);
  auto ub = constants(loop.getUpperBound());
  if (!ub)
    return std::nullopt;
  int64_t lb;
  if (auto c = constants(loop.getLowerBound()))
    lb = *c;
  else if (loop.getLowerBound().getDefiningOp<BlockIdxOp>())
    lb = 0; // block_idx >= 0: the trips of every core lie in [0, ub)
  else
    return std::nullopt;
  // A positive step: a constant, or block_num (>= 1).
  auto step = constants(loop.getStep());
  if (!(step ? *step > 0 : bool(loop.getStep().getDefiningOp<BlockNumOp>())))
    return std::nullopt;
  if (*ub - lb > kMaxTrips)
    return std::nullopt;
  return std::make_pair(lb, *ub);
}

/// Whether the trips of `loop` touch disjoint GM bytes wherever one writes.
bool tripsAreDisjoint(scf::ForOp loop) {
  auto range = tripRange(loop);
  if (!range || range->first >= range->second)
    return false;
  // The GM accesses of the body, by buffer (the tensor view's pointer).
  llvm::MapVector<Value, SmallVector<Access>> byBuffer;
  llvm::DenseSet<Value> written, opaque;
  bool rawCode = false; // asc2.inline: it may write any GM the kernel can reach
  loop.getBody()->walk([&](Operation *op) {
    if (auto load = dyn_cast<LoadOp>(op)) {
      if (auto t = load.getTensor().getDefiningOp<TensorOp>())
        byBuffer[t.getPtr()].push_back(
            {t, SmallVector<int64_t>(cast<TileType>(load.getResult().getType()).getShape()),
             load.getOffsets(), false});
    } else if (auto store = dyn_cast<StoreOp>(op)) {
      if (auto t = store.getTensor().getDefiningOp<TensorOp>()) {
        byBuffer[t.getPtr()].push_back(
            {t, SmallVector<int64_t>(cast<TileType>(store.getValue().getType()).getShape()),
             store.getOffsets(), true});
        written.insert(t.getPtr());
      }
    } else if (auto a = dyn_cast<AtomicRMWOp>(op)) {
      if (auto t = a.getTensor().getDefiningOp<TensorOp>()) {
        written.insert(t.getPtr());
        opaque.insert(t.getPtr());
      }
    } else if (auto s = dyn_cast<SetValueOp>(op)) {
      if (auto t = s.getTensor().getDefiningOp<TensorOp>()) {
        written.insert(t.getPtr());
        opaque.insert(t.getPtr());
      }
    } else if (auto g = dyn_cast<GetValueOp>(op)) {
      if (auto t = g.getTensor().getDefiningOp<TensorOp>())
        opaque.insert(t.getPtr());
    } else if (isa<InlineOp>(op)) {
      rawCode = true;
    } else if (!isa<DimOp>(op)) {
      // Any other op on a tensor (gather, scatter, ...): its rows are not
      // evaluated here, so the tensor counts as written in unknown places.
      for (Value v : op->getOperands())
        if (auto t = v.getDefiningOp<TensorOp>()) {
          written.insert(t.getPtr());
          opaque.insert(t.getPtr());
        }
    }
  });
  if (rawCode)
    return false;
  // Every written buffer must be one whose accesses all come from tensor
  // views we can see (no opaque scalar or atomic access).
  for (Value buffer : written)
    if (opaque.count(buffer) || !byBuffer.count(buffer))
      return false;
  for (auto &[buffer, accesses] : byBuffer) {
    if (!written.count(buffer))
      continue;
    std::vector<Segment> segments;
    for (int64_t t = range->first; t < range->second; ++t) {
      Evaluator eval(loop.getInductionVar(), t);
      for (Access &a : accesses) {
        auto type = a.tensor.getResult().getType();
        ArrayRef<int64_t> dims = type.getShape();
        int64_t rank = int64_t(dims.size());
        if (rank < 1 || rank > 2 || int64_t(a.shape.size()) != rank)
          return false;
        SmallVector<int64_t> extent;
        unsigned dyn = 0;
        for (int64_t d : dims) {
          if (d != ShapedType::kDynamic) {
            extent.push_back(d);
            continue;
          }
          auto v = eval(a.tensor.getDynamicDims()[dyn++]);
          if (!v)
            return false;
          extent.push_back(*v);
        }
        SmallVector<int64_t> off;
        for (Value o : a.offsets) {
          auto v = eval(o);
          if (!v)
            return false;
          off.push_back(*v);
        }
        int64_t bytes = std::max<int64_t>(1, type.getElementType().getIntOrFloatBitWidth() / 8);
        int64_t cols = extent[rank - 1];
        int64_t c0 = std::max<int64_t>(0, off[rank - 1]);
        int64_t c1 = std::min(cols, off[rank - 1] + a.shape[rank - 1]);
        int64_t r0 = rank == 2 ? std::max<int64_t>(0, off[0]) : 0;
        int64_t r1 = rank == 2 ? std::min(extent[0], off[0] + a.shape[0]) : 1;
        if (c0 >= c1)
          continue;
        for (int64_t r = r0; r < r1; ++r) {
          segments.push_back({(r * cols + c0) * bytes, (r * cols + c1) * bytes, t, a.write});
          if (int64_t(segments.size()) > kMaxSegments)
            return false;
        }
      }
    }
    std::sort(segments.begin(), segments.end(),
              [](const Segment &x, const Segment &y) { return x.lo < y.lo; });
    // Sweep: each segment against the later-starting ones it overlaps.
    int64_t steps = 0;
    for (size_t i = 0; i < segments.size(); ++i)
      for (size_t j = i + 1; j < segments.size() && segments[j].lo < segments[i].hi; ++j) {
        if (++steps > 4 * kMaxSegments)
          return false;
        if (segments[j].trip != segments[i].trip && (segments[i].write || segments[j].write))
          return false;
      }
  }
  return true;
}

struct DisjointTripsPass
    : public asc2::asctile::impl::AscTileDisjointTripsBase<DisjointTripsPass> {
  void runOnOperation() override {
    getOperation().walk([&](scf::ForOp loop) {
      auto parallel = loop->getAttrOfType<BoolAttr>("asctile.parallel");
      if (parallel && parallel.getValue())
        return; // declared by the kernel
      if (tripsAreDisjoint(loop))
        loop->setAttr(kDisjointTripsAttr, UnitAttr::get(loop.getContext()));
    });
  }
};

} // namespace
