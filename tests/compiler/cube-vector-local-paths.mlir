// RUN: asc2-opt %s -convert-asctile-to-ascendc="soc-version=c310" -split-input-file -verify-diagnostics | FileCheck %s
// RUN: asc2-opt %s -split-input-file -verify-diagnostics -convert-asctile-to-ascendc="soc-version=c310" -canonicalize -ascendc-hoist-local-alloc -ascendc-plan-memory -ascendc-detect-kernel-type -ascendc-insert-sync -ascendc-verify-sync | FileCheck %s --check-prefix=SYNC
// RUN: asc2-opt %s -split-input-file -verify-diagnostics -convert-asctile-to-ascendc="soc-version=c310" -canonicalize -ascendc-hoist-local-alloc -ascendc-plan-memory -ascendc-detect-kernel-type -ascendc-insert-buf-id-sync -ascendc-verify-sync | FileCheck %s --check-prefix=BUFID

// Ascend950's paths between the cube and the vector core: the fixpipe writes a
// matmul result into the vector core's UB (FIX on the cube core), and the
// vector core copies a UB tile into the cube core's L1 (MTE3). Every hazard
// between the two cores is a cross-core flag, with flag or buffer-id sync.

// CHECK-LABEL: func.func @l0c_to_ub
// CHECK: %[[C:.*]] = ascendc.alloc_local {name = "matmul"} : !ascendc.local<32x64xf32, CO1>
// CHECK: ascendc.mmad %[[C]]
// CHECK: %[[U:.*]] = ascendc.alloc_local {name = "fixpiped"} : !ascendc.local<32x64xf16, {{VEC[A-Z]+}}>
// CHECK: ascendc.fixpipe_ub %[[U]], %[[C]] {relu} : !ascendc.local<32x64xf16, VECCALC>, !ascendc.local<32x64xf32, CO1>
// CHECK: ascendc.add
// SYNC-LABEL: func.func @l0c_to_ub
// SYNC-SAME: ascendc.kernel_type = "MIX"
// SYNC: ascendc.fixpipe_ub %
// SYNC-NEXT: ascendc.set_flag FIX -> V, {{[0-9]+}} {core = "cube", cross_core
// SYNC: ascendc.wait_flag FIX -> V, {{[0-9]+}} {core = "vector", cross_core
// SYNC-NEXT: ascendc.add %
// The UB buffer's id orders the vector core's accesses only; the cube core's
// write into it holds no id of it (ids are per core) and is ordered by flags.
// BUFID-LABEL: func.func @l0c_to_ub
// BUFID-NOT: id {{[0-9]+}} on fixpiped{{.*}}fixpipe_ub
// BUFID: ascendc.fixpipe_ub %
// BUFID-NOT: id {{[0-9]+}} on fixpiped{{.*}}fixpipe_ub
// BUFID: ascendc.set_flag FIX -> V, {{[0-9]+}} {core = "cube", cross_core
// BUFID-NOT: id {{[0-9]+}} on fixpiped{{.*}}fixpipe_ub
// BUFID: ascendc.wait_flag FIX -> V, {{[0-9]+}} {core = "vector", cross_core
// BUFID-NOT: id {{[0-9]+}} on fixpiped{{.*}}fixpipe_ub
// BUFID: return
func.func @l0c_to_ub(%a: !asctile.ptr<f16>, %b: !asctile.ptr<f16>, %c: !asctile.ptr<f16>) attributes {asctile.kernel} {
  %ta = asctile.tensor %a[] : !asctile.ptr<f16> -> !asctile.tensor<32x32xf16>
  %tb = asctile.tensor %b[] : !asctile.ptr<f16> -> !asctile.tensor<32x64xf16>
  %tc = asctile.tensor %c[] : !asctile.ptr<f16> -> !asctile.tensor<32x64xf16>
  %c0 = arith.constant 0 : index
  %x = asctile.load %ta[%c0, %c0] : !asctile.tensor<32x32xf16> -> !asctile.tile<32x32xf16, L0A>
  %y = asctile.load %tb[%c0, %c0] : !asctile.tensor<32x64xf16> -> !asctile.tile<32x64xf16, L0B>
  %p = asctile.matmul %x, %y : !asctile.tile<32x32xf16, L0A>, !asctile.tile<32x64xf16, L0B> -> !asctile.tile<32x64xf32, L0C>
  %zero = arith.constant dense<0.0> : tensor<1xf32>
  %z = arith.constant 0.0 : f32
  %zt = asctile.splat %z : f32 -> !asctile.tile<32x64xf32, L0C>
  %r = arith.maximumf %p, %zt : !asctile.tile<32x64xf32, L0C>
  %h = asctile.cast %r round rint : !asctile.tile<32x64xf32, L0C> -> !asctile.tile<32x64xf16, L0C>
  %u = asctile.move %h offsets [0, 0] : !asctile.tile<32x64xf16, L0C> -> !asctile.tile<32x64xf16, UB>
  %s = arith.addf %u, %u : !asctile.tile<32x64xf16, UB>
  asctile.store %s, %tc[%c0, %c0] : !asctile.tile<32x64xf16, UB>, !asctile.tensor<32x64xf16>
  return
}

// -----

// CHECK-LABEL: func.func @ub_to_l1
// CHECK: %[[A:.*]] = ascendc.alloc_local {name = "{{.*}}"} : !ascendc.local<32x64xf16, {{VEC[A-Z]+}}>
// CHECK: ascendc.data_copy_in %[[A]]
// CHECK: scf.for
// CHECK: %[[L1:.*]] = ascendc.alloc_local {name = "from_ub"} : !ascendc.local<32x32xf16, A1>
// CHECK-NEXT: ascendc.copy_ub_to_l1 %[[L1]], %[[A]][%{{.*}}] : !ascendc.local<32x32xf16, A1>, !ascendc.local<32x64xf16, {{VEC[A-Z]+}}>
// CHECK: ascendc.load_data %{{.*}}, %[[L1]]
// SYNC-LABEL: func.func @ub_to_l1
// SYNC: ascendc.data_copy_in %
// SYNC: scf.for
// SYNC: ascendc.copy_ub_to_l1 %
// SYNC-NEXT: ascendc.set_flag MTE3 -> MTE1, {{[0-9]+}} {core = "vector", cross_core
// SYNC: ascendc.wait_flag MTE3 -> MTE1, {{[0-9]+}} {core = "cube", cross_core
// SYNC-NEXT: ascendc.wait_flag M -> MTE1
// SYNC-NEXT: ascendc.load_data %
// The next trip's copy overwrites the L1 tile the cube core read: MTE1 -> MTE3 across cores.
// SYNC: ascendc.set_flag MTE1 -> MTE3, {{[0-9]+}} {core = "cube", cross_core
// BUFID-LABEL: func.func @ub_to_l1
// BUFID-NOT: id {{[0-9]+}} on from_ub{{.*}}copy_ub_to_l1
// BUFID: ascendc.copy_ub_to_l1 %
// BUFID-NOT: id {{[0-9]+}} on from_ub{{.*}}copy_ub_to_l1
// BUFID: ascendc.set_flag MTE3 -> MTE1, {{[0-9]+}} {core = "vector", cross_core
// BUFID-NOT: id {{[0-9]+}} on from_ub{{.*}}copy_ub_to_l1
// BUFID: return
func.func @ub_to_l1(%a: !asctile.ptr<f16>, %b: !asctile.ptr<f16>, %c: !asctile.ptr<f32>) attributes {asctile.kernel} {
  %ta = asctile.tensor %a[] : !asctile.ptr<f16> -> !asctile.tensor<32x64xf16>
  %tb = asctile.tensor %b[] : !asctile.ptr<f16> -> !asctile.tensor<64x32xf16>
  %tc = asctile.tensor %c[] : !asctile.ptr<f32> -> !asctile.tensor<32x32xf32>
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %x = asctile.load %ta[%c0, %c0] : !asctile.tensor<32x64xf16> -> !asctile.tile<32x64xf16, UB>
  %acc = asctile.accumulator : !asctile.tile<32x32xf32, L0C>
  %r = scf.for %k = %c0 to %c64 step %c32 iter_args(%acc0 = %acc) -> (!asctile.tile<32x32xf32, L0C>) {
    %l1 = asctile.move %x offsets [0, 0] dynamic [%c0, %k] : !asctile.tile<32x64xf16, UB> -> !asctile.tile<32x32xf16, L1>
    %l0a = asctile.move %l1 offsets [0, 0] : !asctile.tile<32x32xf16, L1> -> !asctile.tile<32x32xf16, L0A>
    %l0b = asctile.load %tb[%k, %c0] : !asctile.tensor<64x32xf16> -> !asctile.tile<32x32xf16, L0B>
    %acc1 = asctile.matmul_acc %acc0, %l0a, %l0b : !asctile.tile<32x32xf32, L0C>, !asctile.tile<32x32xf16, L0A>, !asctile.tile<32x32xf16, L0B>
    scf.yield %acc1 : !asctile.tile<32x32xf32, L0C>
  }
  asctile.store %r, %tc[%c0, %c0] : !asctile.tile<32x32xf32, L0C>, !asctile.tensor<32x32xf32>
  return
}

// -----

// A 1-D UB row copied to L1 as it is (a bias row for the bias table).
// CHECK-LABEL: func.func @ub_row_to_l1
// CHECK: ascendc.copy_ub_to_l1 %{{.*}}, %{{.*}}[%{{.*}}] : !ascendc.local<64xf32, A1>, !ascendc.local<64xf32, {{VEC[A-Z]+}}>
// CHECK: ascendc.copy_bias
func.func @ub_row_to_l1(%a: !asctile.ptr<f16>, %b: !asctile.ptr<f16>, %bias: !asctile.ptr<f32>, %c: !asctile.ptr<f32>) attributes {asctile.kernel} {
  %ta = asctile.tensor %a[] : !asctile.ptr<f16> -> !asctile.tensor<16x32xf16>
  %tb = asctile.tensor %b[] : !asctile.ptr<f16> -> !asctile.tensor<32x64xf16>
  %tbias = asctile.tensor %bias[] : !asctile.ptr<f32> -> !asctile.tensor<64xf32>
  %tc = asctile.tensor %c[] : !asctile.ptr<f32> -> !asctile.tensor<16x64xf32>
  %c0 = arith.constant 0 : index
  %row = asctile.load %tbias[%c0] : !asctile.tensor<64xf32> -> !asctile.tile<64xf32, UB>
  %l1 = asctile.move %row offsets [0] : !asctile.tile<64xf32, UB> -> !asctile.tile<64xf32, L1>
  %bt = asctile.move %l1 offsets [0] : !asctile.tile<64xf32, L1> -> !asctile.tile<64xf32, BT>
  %x = asctile.load %ta[%c0, %c0] : !asctile.tensor<16x32xf16> -> !asctile.tile<16x32xf16, L0A>
  %y = asctile.load %tb[%c0, %c0] : !asctile.tensor<32x64xf16> -> !asctile.tile<32x64xf16, L0B>
  %p = asctile.matmul %x, %y bias %bt : !asctile.tile<16x32xf16, L0A>, !asctile.tile<32x64xf16, L0B>, !asctile.tile<64xf32, BT> -> !asctile.tile<16x64xf32, L0C>
  asctile.store %p, %tc[%c0, %c0] : !asctile.tile<16x64xf32, L0C>, !asctile.tensor<16x64xf32>
  return
}

// -----

func.func @ub_to_l1_misaligned(%a: !asctile.ptr<f16>) attributes {asctile.kernel} {
  %ta = asctile.tensor %a[] : !asctile.ptr<f16> -> !asctile.tensor<32x64xf16>
  %c0 = arith.constant 0 : index
  %x = asctile.load %ta[%c0, %c0] : !asctile.tensor<32x64xf16> -> !asctile.tile<32x64xf16, UB>
  // expected-error @+1 {{UB -> L1 copies start on a 32-byte block: column offset 8 of 'f16' is 16 bytes}}
  %l1 = asctile.move %x offsets [0, 8] : !asctile.tile<32x64xf16, UB> -> !asctile.tile<32x32xf16, L1>
  %l0a = asctile.move %l1 offsets [0, 0] : !asctile.tile<32x32xf16, L1> -> !asctile.tile<32x32xf16, L0A>
  return
}

// -----

// A band of the accumulator's rows (from a 16-row fractal boundary, all
// columns) moves on its own: the fixpipe starts at that row.
// CHECK-LABEL: func.func @l0c_band_to_ub
// CHECK: %[[C:.*]] = ascendc.alloc_local {name = "matmul"} : !ascendc.local<64x32xf32, CO1>
// CHECK: ascendc.fixpipe_ub %{{.*}}, %[[C]] {row = 32 : i64} : !ascendc.local<16x32xf32, VECCALC>, !ascendc.local<64x32xf32, CO1>
// SYNC-LABEL: func.func @l0c_band_to_ub
// SYNC: ascendc.fixpipe_ub %{{.*}} {row = 32 : i64}
// SYNC-NEXT: ascendc.set_flag FIX -> V, {{[0-9]+}} {core = "cube", cross_core
// BUFID-LABEL: func.func @l0c_band_to_ub
// BUFID: ascendc.fixpipe_ub %{{.*}} {row = 32 : i64}
func.func @l0c_band_to_ub(%a: !asctile.ptr<f16>, %b: !asctile.ptr<f16>, %c: !asctile.ptr<f32>) attributes {asctile.kernel} {
  %ta = asctile.tensor %a[] : !asctile.ptr<f16> -> !asctile.tensor<64x32xf16>
  %tb = asctile.tensor %b[] : !asctile.ptr<f16> -> !asctile.tensor<32x32xf16>
  %tc = asctile.tensor %c[] : !asctile.ptr<f32> -> !asctile.tensor<64x32xf32>
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %x = asctile.load %ta[%c0, %c0] : !asctile.tensor<64x32xf16> -> !asctile.tile<64x32xf16, L0A>
  %y = asctile.load %tb[%c0, %c0] : !asctile.tensor<32x32xf16> -> !asctile.tile<32x32xf16, L0B>
  %p = asctile.matmul %x, %y : !asctile.tile<64x32xf16, L0A>, !asctile.tile<32x32xf16, L0B> -> !asctile.tile<64x32xf32, L0C>
  %u = asctile.move %p offsets [32, 0] : !asctile.tile<64x32xf32, L0C> -> !asctile.tile<16x32xf32, UB>
  %s = arith.addf %u, %u : !asctile.tile<16x32xf32, UB>
  asctile.store %s, %tc[%c32, %c0] : !asctile.tile<16x32xf32, UB>, !asctile.tensor<64x32xf32>
  return
}

// -----

func.func @l0c_band_off_a_fractal_row(%a: !asctile.ptr<f16>, %b: !asctile.ptr<f16>, %c: !asctile.ptr<f32>) attributes {asctile.kernel} {
  %ta = asctile.tensor %a[] : !asctile.ptr<f16> -> !asctile.tensor<64x32xf16>
  %tb = asctile.tensor %b[] : !asctile.ptr<f16> -> !asctile.tensor<32x32xf16>
  %tc = asctile.tensor %c[] : !asctile.ptr<f32> -> !asctile.tensor<64x32xf32>
  %c0 = arith.constant 0 : index
  %x = asctile.load %ta[%c0, %c0] : !asctile.tensor<64x32xf16> -> !asctile.tile<64x32xf16, L0A>
  %y = asctile.load %tb[%c0, %c0] : !asctile.tensor<32x32xf16> -> !asctile.tile<32x32xf16, L0B>
  %p = asctile.matmul %x, %y : !asctile.tile<64x32xf16, L0A>, !asctile.tile<32x32xf16, L0B> -> !asctile.tile<64x32xf32, L0C>
  // expected-error @+1 {{L0C -> UB moves rows from a 16-row fractal boundary, not from row 8}}
  %u = asctile.move %p offsets [8, 0] : !asctile.tile<64x32xf32, L0C> -> !asctile.tile<16x32xf32, UB>
  asctile.store %u, %tc[%c0, %c0] : !asctile.tile<16x32xf32, UB>, !asctile.tensor<64x32xf32>
  return
}
