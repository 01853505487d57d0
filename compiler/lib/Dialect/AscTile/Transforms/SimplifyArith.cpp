//===- SimplifyArith.cpp - fewer vector ops for scalar-heavy tile math -----===//
//
// Every tile op is one vector instruction (a pass over the whole tile), so
// an expression costs what it has ops. Two rewrites on float tiles:
//
// * Polynomials in one tile x (adds, subs and muls of x and splat constants,
//   each intermediate used once) are collected into their coefficients and
//   rebuilt in Horner form over x^2 when only odd or only even powers occur:
//   s * (x + c x^3) is x * (s + s c x^2), four ops instead of five or more.
//   Rebuilt only when that takes fewer ops than the expression had.
// * (x * a) * (b / d) is (x / d) * (a b), and just x / d when a b = 1 (the
//   0.5 x (1 + tanh) of GELU once tanh is rewritten): two ops fewer.
// * Elementwise ops on a broadcast act on its source, broadcast after:
//   rsqrt(broadcast(s) / n + eps) costs three ops on the [rows, 1] sums, not
//   on [rows, cols] tiles; a cast of a broadcast casts the source.
//
//===----------------------------------------------------------------------===//
#include "asc2/Dialect/AscTile/Transforms/Passes.h"
#include "asc2/Dialect/AscTile/Transforms/TileBuilder.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <map>
#include <optional>

#define DEBUG_TYPE "asctile-simplify-arith"

namespace asc2::asctile {
#define GEN_PASS_DEF_ASCTILESIMPLIFYARITH
#include "asc2/Dialect/AscTile/Transforms/Passes.h.inc"
} // namespace asc2::asctile

using namespace mlir;
using namespace asc2::asctile;

namespace {

using Poly = std::map<int, double>; // power -> coefficient

constexpr int kMaxDegree = 8;
/// Deepest chain of adds/subs/muls one polynomial is collected from: bounds
/// the recursion (a 40,000-op chain overflowed the stack) and the work per
/// root; a longer chain is left as it is.
constexpr int kMaxDepth = 64;

/// A polynomial in one tile `x` and the ops that compute it.
struct PolyCollector {
  Value x;
  SmallVector<Operation *> ops;

  std::optional<Poly> collect(Value v, bool root, int depth = 0) {
    if (depth > kMaxDepth)
      return std::nullopt;
    if (auto c = splatConstant(v))
      return Poly{{0, *c}};
    Operation *def = v.getDefiningOp();
    bool arith = def && isa<arith::AddFOp, arith::SubFOp, arith::MulFOp>(def);
    // An intermediate used elsewhere must stay: it is a leaf, i.e. x.
    if (!arith || (!root && !v.hasOneUse())) {
      if (x && x != v)
        return std::nullopt;
      x = v;
      return Poly{{1, 1.0}};
    }
    auto lhs = collect(def->getOperand(0), false, depth + 1);
    if (!lhs)
      return std::nullopt;
    auto rhs = collect(def->getOperand(1), false, depth + 1);
    if (!rhs)
      return std::nullopt;
    ops.push_back(def);
    Poly r;
    if (isa<arith::MulFOp>(def)) {
      for (auto [i, a] : *lhs)
        for (auto [j, b] : *rhs)
          r[i + j] += a * b;
    } else {
      double sign = isa<arith::SubFOp>(def) ? -1.0 : 1.0;
      r = *lhs;
      for (auto [j, b] : *rhs)
        r[j] += sign * b;
    }
    for (auto it = r.begin(); it != r.end();)
      it = it->second == 0.0 ? r.erase(it) : std::next(it);
    if (!r.empty() && r.rbegin()->first > kMaxDegree)
      return std::nullopt;
    return r;
  }
};

/// Ops of the Horner form of `p` over y = x^2 (odd: times x at the end).
int hornerCost(const Poly &p, bool odd) {
  int top = (p.rbegin()->first - (odd ? 1 : 0)) / 2; // degree in y
  int cost = top > 0 ? 1 : 0;                         // y = x * x
  if (top > 0) {
    cost += p.rbegin()->second != 1.0 ? 1 : 0; // c_top * y
    for (int k = top - 1; k >= 0; --k) {
      int power = 2 * k + (odd ? 1 : 0);
      cost += p.count(power) ? 1 : 0; // + c_k
      cost += k > 0 ? 1 : 0;          // * y
    }
    return cost + (odd ? 1 : 0);
  }
  return odd && p.begin()->second != 1.0 ? 1 : 0; // c * x, or a constant
}

Value buildHorner(TileBuilder &t, const Poly &p, Value x, bool odd) {
  auto coeff = [&](int k) {
    auto it = p.find(2 * k + (odd ? 1 : 0));
    return it == p.end() ? 0.0 : it->second;
  };
  int top = (p.rbegin()->first - (odd ? 1 : 0)) / 2;
  if (top == 0) {
    double c = coeff(0);
    if (!odd)
      return t.splat(t.typeOf(x), c);
    return c == 1.0 ? x : t.mul(x, c);
  }
  Value y = t.mul(x, x);
  Value acc = coeff(top) == 1.0 ? y : t.mul(y, coeff(top));
  for (int k = top - 1; k >= 0; --k) {
    if (coeff(k) != 0.0)
      acc = t.add(acc, coeff(k));
    if (k > 0)
      acc = t.mul(acc, y);
  }
  return odd ? t.mul(acc, x) : acc;
}

void eraseDead(ArrayRef<Operation *> ops) {
  // Users come after their operands' definitions: erase from the root down.
  for (Operation *op : llvm::reverse(ops))
    if (op->use_empty())
      op->erase();
}

/// Rebuilds the polynomial rooted at `root` in Horner form when cheaper.
bool rewritePolynomial(Operation *root) {
  PolyCollector c;
  auto p = c.collect(root->getResult(0), /*root=*/true);
  if (!p || p->empty() || !c.x || c.x.getType() != root->getResult(0).getType())
    return false;
  bool allOdd = llvm::all_of(*p, [](auto &e) { return e.first % 2 == 1; });
  bool allEven = llvm::all_of(*p, [](auto &e) { return e.first % 2 == 0; });
  if (!allOdd && !allEven)
    return false;
  if (hornerCost(*p, allOdd) >= int(c.ops.size()))
    return false;
  OpBuilder b(root);
  TileBuilder t(b, root->getLoc());
  Value r = buildHorner(t, *p, c.x, allOdd);
  root->getResult(0).replaceAllUsesWith(r);
  eraseDead(c.ops);
  return true;
}

/// (x * a) * (b / d) -> (x / d) * (a b).
bool rewriteScaledQuotient(arith::MulFOp mul) {
  for (int side = 0; side < 2; ++side) {
    auto scaled = mul->getOperand(side).getDefiningOp<arith::MulFOp>();
    auto quotient = mul->getOperand(1 - side).getDefiningOp<arith::DivFOp>();
    if (!scaled || !quotient || !scaled->hasOneUse() || !quotient->hasOneUse())
      continue;
    auto b = splatConstant(quotient.getLhs());
    if (!b)
      continue;
    for (int s = 0; s < 2; ++s) {
      auto a = splatConstant(scaled->getOperand(s));
      if (!a)
        continue;
      Value x = scaled->getOperand(1 - s);
      OpBuilder builder(mul);
      TileBuilder t(builder, mul.getLoc());
      Value r = t.div(x, quotient.getRhs());
      double k = *a * *b;
      if (k != 1.0)
        r = t.mul(r, k);
      mul.getResult().replaceAllUsesWith(r);
      mul->erase();
      scaled->erase();
      quotient->erase();
      return true;
    }
  }
  return false;
}

/// op(broadcast(s), ...) -> broadcast(op(s, ...)) for an elementwise op
/// whose other operands are splats or broadcasts of the same shape.
bool sinkBroadcast(Operation *op) {
  if (!isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
           arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp, arith::MinNumFOp,
           arith::NegFOp, math::ExpOp, math::LogOp, math::SqrtOp, math::RsqrtOp,
           math::AbsFOp, CastOp>(op) ||
      !isa<func::FuncOp, scf::ForOp, scf::IfOp>(op->getParentOp()))
    return false; // a masked op computes only some lanes: leave it
  TileType source;
  for (Value v : op->getOperands())
    if (auto b = v.getDefiningOp<BroadcastOp>()) {
      TileType t = b.getSource().getType();
      if (!b->hasOneUse() || (source && source != t))
        return false;
      source = t;
    } else if (!v.getDefiningOp<SplatOp>()) {
      return false;
    }
  auto result = cast<TileType>(op->getResult(0).getType());
  // A cast changes the element type (gamma's cast to float32: cast the row,
  // then broadcast it); every other op keeps it.
  if (!source || (!isa<CastOp>(op) && source.getElementType() != result.getElementType()))
    return false;
  auto narrowType = cast<TileType>(source.cloneWith(source.getShape(), result.getElementType()));
  OpBuilder b(op);
  SmallVector<Value> operands;
  for (Value v : op->getOperands()) {
    if (auto bc = v.getDefiningOp<BroadcastOp>())
      operands.push_back(bc.getSource());
    else
      operands.push_back(b.create<SplatOp>(op->getLoc(), source,
                                           v.getDefiningOp<SplatOp>().getValue()));
  }
  Operation *narrow = b.clone(*op);
  narrow->setOperands(operands);
  narrow->getResult(0).setType(narrowType);
  auto wide = b.create<BroadcastOp>(op->getLoc(), op->getResult(0).getType(),
                                    narrow->getResult(0));
  SmallVector<Operation *> broadcasts;
  for (Value v : op->getOperands())
    if (auto bc = v.getDefiningOp<BroadcastOp>())
      broadcasts.push_back(bc);
  op->getResult(0).replaceAllUsesWith(wide.getResult());
  op->erase();
  for (Operation *bc : broadcasts)
    if (bc->use_empty())
      bc->erase();
  return true;
}

struct SimplifyArithPass
    : public asc2::asctile::impl::AscTileSimplifyArithBase<SimplifyArithPass> {
  void runOnOperation() override {
    auto isFloatTile = [](Operation *op) {
      auto t = dyn_cast<TileType>(op->getResult(0).getType());
      return t && isa<FloatType>(t.getElementType());
    };
    SmallVector<Operation *> elementwise;
    getOperation().walk([&](Operation *op) {
      if (op->getNumResults() == 1 && isa<TileType>(op->getResult(0).getType()))
        elementwise.push_back(op);
    });
    for (Operation *op : elementwise) // in program order: chains sink whole
      (void)sinkBroadcast(op);

    SmallVector<arith::MulFOp> muls;
    getOperation().walk([&](arith::MulFOp op) {
      if (isFloatTile(op))
        muls.push_back(op);
    });
    for (arith::MulFOp op : muls)
      (void)rewriteScaledQuotient(op);

    // Roots: polynomial ops whose result is not itself folded into a larger
    // polynomial (used by anything else, or more than once).
    SmallVector<Operation *> roots;
    getOperation().walk([&](Operation *op) {
      if (!isa<arith::AddFOp, arith::SubFOp, arith::MulFOp>(op) || !isFloatTile(op))
        return;
      Value v = op->getResult(0);
      bool inner = v.hasOneUse() &&
                   isa<arith::AddFOp, arith::SubFOp, arith::MulFOp>(*v.getUsers().begin());
      if (!inner)
        roots.push_back(op);
    });
    for (Operation *root : roots)
      (void)rewritePolynomial(root);
  }
};

} // namespace
