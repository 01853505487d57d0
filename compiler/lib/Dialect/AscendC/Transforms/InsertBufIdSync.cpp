//===- InsertBufIdSync.cpp - buffer-id sync (get_buf/rls_buf) --------------===//
//
// A buffer id is a hardware lock granted in issue order: get_buf on pipe P
// holds P until the previous holder (on another pipe) released the id, and
// rls_buf releases it once P's earlier work is done. Bracketing every access
// to a buffer with the id of that buffer therefore runs the accesses in
// program order across pipes, whatever the hazard (RAW, WAR, WAW) and
// whether it is carried around a loop, with no per-hazard bookkeeping.
//
// Resources: local buffers whose planned bytes overlap (reuse, in-place
// results) are one resource, since a hazard may cross from one to the other.
// A resource accessed by two or more pipes other than S gets an id, taken
// by each op with an access that conflicts with another pipe's; the
// scalar unit's loads and stores keep flags (CANN's GetBuf/RlsBuf take ids on
// the MTE2/V/MTE3 positions only). Ids are given in order of first use; when
// they run out, a resource shares the id whose resources were last used
// earliest, which is free by then in straight-line code.
//
// Everything else (GM hazards, the scalar unit, cross-core flags of MIX
// kernels, same-pipe pipe_barriers) goes through the flag inserter of
// ascendc-insert-sync, told that the id-guarded hazards are ordered.
//
//===----------------------------------------------------------------------===//
#include "asc2/Support/PassOptions.h"
#include "FlagSync.h"
#include "asc2/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

#include <numeric>
#include <set>

#define DEBUG_TYPE "ascendc-insert-buf-id-sync"

namespace asc2::ascendc {
#define GEN_PASS_DEF_ASCENDCINSERTBUFIDSYNC
#include "asc2/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace asc2::ascendc

using namespace mlir;
using namespace asc2::ascendc;

namespace {

/// Whether an access takes part in buffer-id sync: a pipe's access to its
/// own core's local memory (ids are a core's own; a write into the other
/// core's memory is ordered by cross-core flags).
bool lockable(const Access &a) {
  return a.res.isLocal() && a.pipe != Pipe::S && !crossesCores(a);
}

/// Local buffers grouped into resources, and the id of each guarded one.
class BufIdPlan {
public:
  BufIdPlan(func::FuncOp func, int64_t numIds);

  /// The id guarding `a`, or -1.
  int idOf(const Access &a) const {
    if (!lockable(a))
      return -1;
    auto it = resourceOfBuffer.find(a.res.value);
    return it == resourceOfBuffer.end() ? -1 : resources[it->second].id;
  }
  /// Whether `a` conflicts with an access of another pipe to its resource:
  /// only then must its op take the id. An op whose accesses conflict only
  /// with its own pipe (reads of a buffer only it writes) stays out of the
  /// id's order; every conflicting pair still holds the id on both sides.
  bool needsId(const Access &a) const {
    if (idOf(a) < 0)
      return false;
    for (const Access &b : resources[resourceOfBuffer.lookup(a.res.value)].accesses)
      if (b.pipe != a.pipe && (a.write || b.write) && a.res.overlaps(b.res))
        return true;
    return false;
  }
  /// Why `leaf` takes `id`: the buffers and the ops that share the id.
  std::string reason(Operation *leaf, int id) const;

  int numIds = 0, numGuarded = 0;

private:
  struct GuardedResource {
    llvm::SetVector<Value> buffers;
    llvm::SetVector<Operation *> users; // leaves, in program order
    SmallVector<Access> accesses;
    std::set<Pipe> pipes;
    int first = 0, last = 0; // program order of the first and last use
    int id = -1;
  };
  std::vector<GuardedResource> resources;
  DenseMap<Value, int> resourceOfBuffer;
};

BufIdPlan::BufIdPlan(func::FuncOp func, int64_t maxIds) {
  SmallVector<Access> accesses;
  collectAccesses(func, func, accesses);

  // Buffers whose bytes overlap are one resource (union-find over buffers).
  SmallVector<Resource> buffers;
  DenseSet<Value> seen;
  for (const Access &a : accesses)
    if (a.res.isLocal() && seen.insert(a.res.value).second)
      buffers.push_back(a.res);
  SmallVector<int> parent(buffers.size());
  std::iota(parent.begin(), parent.end(), 0);
  auto root = [&](int i) {
    while (parent[i] != i)
      i = parent[i] = parent[parent[i]];
    return i;
  };
  for (size_t i = 0; i < buffers.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (buffers[i].overlaps(buffers[j]))
        parent[root(i)] = root(j);
  DenseMap<Value, int> index;
  DenseMap<int, int> resourceOfRoot;
  for (size_t i = 0; i < buffers.size(); ++i) {
    auto [it, added] = resourceOfRoot.try_emplace(root(i), resources.size());
    if (added)
      resources.emplace_back();
    index[buffers[i].value] = it->second;
  }

  // Who uses each resource, in program order (the walk is pre-order).
  DenseMap<Operation *, int> order;
  for (const Access &a : accesses) {
    if (!lockable(a))
      continue;
    int o = order.try_emplace(a.leaf, order.size()).first->second;
    GuardedResource &r = resources[index[a.res.value]];
    if (r.users.empty())
      r.first = o;
    r.last = o;
    r.buffers.insert(a.res.value);
    r.users.insert(a.leaf);
    r.accesses.push_back(a);
    r.pipes.insert(a.pipe);
  }

  // Ids in order of first use; out of ids, the one free the longest.
  SmallVector<int> guarded;
  for (int r = 0; r < (int)resources.size(); ++r)
    if (resources[r].pipes.size() >= 2)
      guarded.push_back(r);
  llvm::sort(guarded, [&](int a, int b) { return resources[a].first < resources[b].first; });
  SmallVector<int> lastUseOfId;
  for (int r : guarded) {
    GuardedResource &res = resources[r];
    if ((int64_t)lastUseOfId.size() < maxIds) {
      res.id = lastUseOfId.size();
      lastUseOfId.push_back(res.last);
    } else {
      res.id = std::min_element(lastUseOfId.begin(), lastUseOfId.end()) - lastUseOfId.begin();
      lastUseOfId[res.id] = std::max(lastUseOfId[res.id], res.last);
    }
    for (Value v : res.buffers)
      resourceOfBuffer[v] = r;
  }
  numIds = lastUseOfId.size();
  numGuarded = guarded.size();
}

std::string opText(Operation *op) {
  auto pipe = cast<PipeOpInterface>(op).getPipe();
  return (op->getName().getStringRef() + " (" + stringifyPipe(pipe) + ", " +
          lineOf(op) + ")")
      .str();
}

std::string BufIdPlan::reason(Operation *leaf, int id) const {
  std::string names, others;
  int listed = 0, unlisted = 0;
  for (const GuardedResource &r : resources) {
    if (r.id != id)
      continue;
    for (Value v : r.buffers)
      names += (names.empty() ? "" : ", ") + describe(resourceOf(v));
    for (Operation *user : r.users) {
      bool takesId = llvm::any_of(r.accesses, [&](const Access &a) {
        return a.leaf == user && needsId(a);
      });
      if (user == leaf || !takesId)
        continue;
      if (listed++ < 4)
        others += (others.empty() ? "" : ", ") + opText(user);
      else
        ++unlisted;
    }
  }
  if (unlisted)
    others += ", " + std::to_string(unlisted) + " more";
  return "id " + std::to_string(id) + " on " + names + ": " + opText(leaf) +
         " shares it with " + others;
}

struct InsertBufIdSyncPass
    : public asc2::ascendc::impl::AscendCInsertBufIdSyncBase<InsertBufIdSyncPass> {
  using AscendCInsertBufIdSyncBase::AscendCInsertBufIdSyncBase;

  void runOnOperation() override {
    if (failed(asc2::checkOption(getOperation(), "ascendc-insert-buf-id-sync", "buf-ids", bufIds, 1)) ||
        failed(asc2::checkOption(getOperation(), "ascendc-insert-buf-id-sync", "event-ids", eventIds, 1)))
      return signalPassFailure();
    func::FuncOp func = getOperation();
    BufIdPlan plan(func, bufIds);
    FlagSyncStats flags = insertFlagSync(
        func, eventIds, [&](const Access &later, const Access &earlier) {
          int id = plan.idOf(later);
          return id >= 0 && id == plan.idOf(earlier);
        });
    if (failed(checkCrossCoreIds(func, flags)))
      return signalPassFailure();
    numPairs += flags.pairs;
    numBarriers += flags.barriers;
    numIds += plan.numIds;
    numResources += plan.numGuarded;

    // Bracket every leaf that touches a guarded resource.
    bool mix = detectKernelType(func) == "MIX";
    SmallVector<std::pair<Operation *, std::set<int>>> leaves;
    func.walk([&](Operation *op) {
      if (op->getNumRegions())
        return;
      SmallVector<Access> accesses;
      collectAccesses(op, op, accesses);
      std::set<int> ids;
      for (const Access &a : accesses)
        if (plan.needsId(a))
          ids.insert(plan.idOf(a));
      if (!ids.empty())
        leaves.push_back({op, std::move(ids)});
    });
    OpBuilder builder(&getContext());
    for (auto &[leaf, ids] : leaves) {
      Pipe pipe = cast<PipeOpInterface>(leaf).getPipe();
      CoreKind core = coreKindOf(leaf);
      auto tag = [&](Operation *sync) {
        if (mix && core != CoreKind::Either)
          sync->setAttr("core", builder.getStringAttr(core == CoreKind::Cube ? "cube" : "vector"));
      };
      for (int id : ids) {
        auto why = builder.getStringAttr(plan.reason(leaf, id));
        builder.setInsertionPoint(leaf);
        tag(builder.create<GetBufOp>(leaf->getLoc(), pipe, id, why));
      }
      for (int id : ids) { // each right after the leaf: released in reverse
        auto why = builder.getStringAttr(plan.reason(leaf, id));
        builder.setInsertionPointAfter(leaf);
        tag(builder.create<RlsBufOp>(leaf->getLoc(), pipe, id, why));
      }
      numGets += ids.size();
    }
  }
};

} // namespace
