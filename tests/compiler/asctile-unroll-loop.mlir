// RUN: asc2-opt %s -asctile-unroll-loop -split-input-file | FileCheck %s

// Unrolled by 2: the step doubles, the second copy runs only while still
// inside the original bounds (any trip count), scalars flow through the if.
// CHECK-LABEL: func.func @unroll2
// CHECK: %[[STEP:.*]] = arith.muli %[[S:.*]], %c2
// CHECK: %[[R:.*]] = scf.for %[[I:.*]] = %{{.*}} to %[[UB:.*]] step %[[STEP]] iter_args(%[[ACC:.*]] = %{{.*}}) -> (index)
// CHECK:   %[[A:.*]] = arith.addi %[[ACC]], %[[I]]
// CHECK:   %[[I1:.*]] = arith.addi %[[I]], %{{.*}}
// CHECK:   %[[IN:.*]] = arith.cmpi slt, %[[I1]], %[[UB]]
// CHECK:   %[[B:.*]] = scf.if %[[IN]] -> (index)
// CHECK:     %[[C:.*]] = arith.addi %[[A]], %[[I1]]
// CHECK:     scf.yield %[[C]]
// CHECK:   else
// CHECK:     scf.yield %[[A]]
// CHECK:   scf.yield %[[B]]
// CHECK: asctile.unrolled_by = 2
func.func @unroll2(%lb: index, %ub: index, %s: index) -> index {
  %c0 = arith.constant 0 : index
  %r = scf.for %i = %lb to %ub step %s iter_args(%acc = %c0) -> (index) {
    %n = arith.addi %acc, %i : index
    scf.yield %n : index
  } {asctile.unroll_factor = 2 : i64}
  return %r : index
}

// -----

// Loops carrying tiles are left alone.
// CHECK-LABEL: func.func @carried_tile
// CHECK: asctile.unroll_factor = 2
// CHECK-NOT: scf.if
func.func @carried_tile(%t: !asctile.tile<64xf32, UB>, %n: index) -> !asctile.tile<64xf32, UB> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %t) -> (!asctile.tile<64xf32, UB>) {
    %s = arith.addf %acc, %t : !asctile.tile<64xf32, UB>
    scf.yield %s : !asctile.tile<64xf32, UB>
  } {asctile.unroll_factor = 2 : i64}
  return %r : !asctile.tile<64xf32, UB>
}

// -----

// Static bounds with a whole number of unrolled trips (0..1024 step 256: 4
// trips, 2 per unrolled trip): every copy runs, so none is guarded.
// CHECK-LABEL: func.func @whole_trips
// CHECK: scf.for
// CHECK-NOT: scf.if
// CHECK: asctile.unrolled_by = 2
func.func @whole_trips() -> index {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %c1024 = arith.constant 1024 : index
  %r = scf.for %i = %c0 to %c1024 step %c256 iter_args(%acc = %c0) -> (index) {
    %n = arith.addi %acc, %i : index
    scf.yield %n : index
  } {asctile.unroll_factor = 2 : i64}
  return %r : index
}

// -----

// Static bounds with an odd trip count (0..768 step 256: 3 trips): the
// second copy of the last unrolled trip must not run, so it stays guarded.
// CHECK-LABEL: func.func @odd_trips
// CHECK: scf.for
// CHECK: scf.if
func.func @odd_trips() -> index {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %c768 = arith.constant 768 : index
  %r = scf.for %i = %c0 to %c768 step %c256 iter_args(%acc = %c0) -> (index) {
    %n = arith.addi %acc, %i : index
    scf.yield %n : index
  } {asctile.unroll_factor = 2 : i64}
  return %r : index
}
