// RUN: asc2-opt %s -asctile-batch-rows | FileCheck %s
// RUN: asc2-opt %s -asctile-batch-rows=max-rows=2 | FileCheck %s --check-prefix=TWO

!row = !asctile.tile<1x256xf32, UB>

// Row softmax, one [1, 256] row per trip -> 8 consecutive rows per trip:
// the loop starts at block_idx * 8 and steps block_num * 8, the row
// reductions keep a [8, 1] column and the splats of them become broadcasts.
// CHECK-LABEL: func.func @softmax
// CHECK: %[[K:.*]] = arith.constant 8 : index
// CHECK: %[[LB:.*]] = arith.muli %{{.*}}, %[[K]]
// CHECK: %[[STEP:.*]] = arith.muli %{{.*}}, %[[K]]
// CHECK: scf.for %[[ROW:.*]] = %[[LB]] to %{{.*}} step %[[STEP]]
// CHECK: %[[X:.*]] = asctile.load %{{.*}}[%[[ROW]], %{{.*}}] {{.*}} -> !asctile.tile<8x256xf32, UB>
// CHECK: %[[M:.*]] = asctile.reduce max %[[X]] dims [1] keep_dims : !asctile.tile<8x256xf32, UB> -> !asctile.tile<8x1xf32, UB>
// CHECK: %[[MB:.*]] = asctile.broadcast %[[M]] : !asctile.tile<8x1xf32, UB> -> !asctile.tile<8x256xf32, UB>
// CHECK: arith.subf %[[X]], %[[MB]] : !asctile.tile<8x256xf32, UB>
// CHECK: asctile.reduce sum {{.*}} -> !asctile.tile<8x1xf32, UB>
// CHECK: asctile.store {{.*}}[%[[ROW]], %{{.*}}] : !asctile.tile<8x256xf32, UB>
// CHECK: asctile.rows_per_trip = 8
// TWO: asctile.rows_per_trip = 2
func.func @softmax(%xp: !asctile.ptr<f32>, %op: !asctile.ptr<f32>, %rows: index, %cols: index) {
  %c0 = arith.constant 0 : index
  %x = asctile.tensor %xp[%rows, %cols] : !asctile.ptr<f32> -> !asctile.tensor<?x?xf32>
  %o = asctile.tensor %op[%rows, %cols] : !asctile.ptr<f32> -> !asctile.tensor<?x?xf32>
  %lb = asctile.block_idx
  %step = asctile.block_num
  scf.for %r = %lb to %rows step %step {
    %t = asctile.load %x[%r, %c0] {pad_value = 0xFF800000 : f32} : !asctile.tensor<?x?xf32> -> !row
    %m = asctile.reduce max %t dims [0, 1] : !row -> f32
    %ms = asctile.splat %m : f32 -> !row
    %d = arith.subf %t, %ms : !row
    %e = math.exp %d : !row
    %s = asctile.reduce sum %e dims [0, 1] : !row -> f32
    %ss = asctile.splat %s : f32 -> !row
    %y = arith.divf %e, %ss : !row
    asctile.store %y, %o[%r, %c0] : !row, !asctile.tensor<?x?xf32>
  } {asctile.parallel = true, asctile.unroll_factor = 1 : i64}
  return
}

// Scalar arithmetic on a row's sum becomes [k, 1] tile arithmetic; a
// loop-invariant [1, N] row (gamma) is broadcast to the k rows once, before
// the loop, like the splat of the loop-invariant scalar.
// CHECK-LABEL: func.func @scaled_rows
// CHECK: %[[N:.*]] = asctile.splat %{{.*}} : f32 -> !asctile.tile<8x1xf32, UB>
// CHECK: %[[G:.*]] = asctile.broadcast %{{.*}} : !asctile.tile<1x256xf32, UB> -> !asctile.tile<8x256xf32, UB>
// CHECK: scf.for
// CHECK: %[[S:.*]] = asctile.reduce sum {{.*}} -> !asctile.tile<8x1xf32, UB>
// CHECK: arith.divf %[[S]], %[[N]] : !asctile.tile<8x1xf32, UB>
// CHECK: arith.mulf %{{.*}}, %[[G]] : !asctile.tile<8x256xf32, UB>
func.func @scaled_rows(%xp: !asctile.ptr<f32>, %gp: !asctile.ptr<f32>, %rows: index, %n: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %x = asctile.tensor %xp[%rows, %c256] : !asctile.ptr<f32> -> !asctile.tensor<?x?xf32>
  %g = asctile.tensor %gp[%c1, %c256] : !asctile.ptr<f32> -> !asctile.tensor<?x?xf32>
  %gamma = asctile.load %g[%c0, %c0] : !asctile.tensor<?x?xf32> -> !row
  %lb = asctile.block_idx
  %step = asctile.block_num
  scf.for %r = %lb to %rows step %step {
    %t = asctile.load %x[%r, %c0] : !asctile.tensor<?x?xf32> -> !row
    %s = asctile.reduce sum %t dims [0, 1] : !row -> f32
    %mean = arith.divf %s, %n : f32
    %ms = asctile.splat %mean : f32 -> !row
    %c = arith.subf %t, %ms : !row
    %y = arith.mulf %c, %gamma : !row
    asctile.store %y, %x[%r, %c0] : !row, !asctile.tensor<?x?xf32>
  } {asctile.parallel = true, asctile.unroll_factor = 1 : i64}
  return
}

// Not parallel, or the row used in index arithmetic: left alone.
// CHECK-LABEL: func.func @not_parallel
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: -> !asctile.tile<1x256xf32, UB>
// CHECK-NOT: rows_per_trip
func.func @not_parallel(%xp: !asctile.ptr<f32>, %rows: index, %cols: index) {
  %c0 = arith.constant 0 : index
  %x = asctile.tensor %xp[%rows, %cols] : !asctile.ptr<f32> -> !asctile.tensor<?x?xf32>
  %lb = asctile.block_idx
  %step = asctile.block_num
  scf.for %r = %lb to %rows step %step {
    %t = asctile.load %x[%r, %c0] : !asctile.tensor<?x?xf32> -> !row
    %e = math.exp %t : !row
    asctile.store %e, %x[%r, %c0] : !row, !asctile.tensor<?x?xf32>
  } {asctile.parallel = false, asctile.unroll_factor = 1 : i64}
  return
}
