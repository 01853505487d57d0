// RUN: asc2-opt %s -convert-asctile-to-ascendc -split-input-file -verify-diagnostics | FileCheck %s
// RUN: asc2-opt %s -split-input-file -verify-diagnostics -convert-asctile-to-ascendc -canonicalize -ascendc-hoist-local-alloc -ascendc-plan-memory -ascendc-detect-kernel-type -ascendc-insert-sync -ascendc-verify-sync | FileCheck %s --check-prefix=SYNC

// A load into L0A stages through L1 (MTE2: GM ND -> L1 NZ, always rows x cols), then MTE1;
// matmul is an mmad that overwrites a fresh L0C buffer; the store is a fixpipe.
// CHECK-LABEL: func.func @matmul
// CHECK: %[[A1:.*]] = ascendc.alloc_local {name = "a"} : !ascendc.local<32x64xf16, A1>
// CHECK: ascendc.data_copy_in %[[A1]], %{{.*}}[%{{.*}}], %{{.*}} rows %{{.*}} stride %{{.*}} {pad_value = 0.000000e+00 : f16}
// CHECK: %[[A2:.*]] = ascendc.alloc_local {name = "a_1"} : !ascendc.local<32x64xf16, A2>
// CHECK: ascendc.load_data %[[A2]], %[[A1]]
// CHECK: %[[B1:.*]] = ascendc.alloc_local {name = "b"} : !ascendc.local<64x48xf16, B1>
// CHECK: %[[B2:.*]] = ascendc.alloc_local {name = "b_1"} : !ascendc.local<64x48xf16, B2>
// CHECK: ascendc.load_data %[[B2]], %[[B1]]
// CHECK: %[[C:.*]] = ascendc.alloc_local {name = "matmul"} : !ascendc.local<32x48xf32, CO1>
// CHECK: ascendc.mmad %[[C]], %[[A2]], %[[B2]], %true
// CHECK: ascendc.fixpipe %{{.*}}[%{{.*}}], %[[C]], %{{.*}} rows %{{.*}} stride %{{.*}} {relu} : !ascendc.gm<f16>, !ascendc.local<32x48xf32, CO1>
// SYNC-LABEL: func.func @matmul
// SYNC-SAME: ascendc.kernel_type = "AIC_ONLY"
// SYNC: ascendc.set_flag MTE2 -> MTE1
// SYNC: ascendc.load_data %
// SYNC: ascendc.set_flag MTE1 -> M
// SYNC: ascendc.mmad %
// SYNC: ascendc.set_flag M -> FIX
// SYNC: ascendc.wait_flag M -> FIX
// SYNC-NEXT: ascendc.fixpipe %
func.func @matmul(%a: !asctile.ptr<f16>, %b: !asctile.ptr<f16>, %c: !asctile.ptr<f16>) attributes {asctile.kernel, asctile.arg_names = ["a", "b", "c"]} {
  %ta = asctile.tensor %a[] : !asctile.ptr<f16> -> !asctile.tensor<32x64xf16>
  %tb = asctile.tensor %b[] : !asctile.ptr<f16> -> !asctile.tensor<64x48xf16>
  %tc = asctile.tensor %c[] : !asctile.ptr<f16> -> !asctile.tensor<32x48xf16>
  %c0 = arith.constant 0 : index
  %x = asctile.load %ta[%c0, %c0] : !asctile.tensor<32x64xf16> -> !asctile.tile<32x64xf16, L0A>
  %y = asctile.load %tb[%c0, %c0] : !asctile.tensor<64x48xf16> -> !asctile.tile<64x48xf16, L0B>
  %p = asctile.matmul %x, %y : !asctile.tile<32x64xf16, L0A>, !asctile.tile<64x48xf16, L0B> -> !asctile.tile<32x48xf32, L0C>
  // relu (max with a zero splat) and the f32 -> f16 cast fold into the fixpipe
  %zero = arith.constant 0.0 : f32
  %z = asctile.splat %zero : f32 -> !asctile.tile<32x48xf32, L0C>
  %r = arith.maximumf %p, %z : !asctile.tile<32x48xf32, L0C>
  %h = asctile.cast %r round rint : !asctile.tile<32x48xf32, L0C> -> !asctile.tile<32x48xf16, L0C>
  asctile.store %h, %tc[%c0, %c0] : !asctile.tile<32x48xf16, L0C>, !asctile.tensor<32x48xf16>
  return
}

// -----

// A K loop carrying a zero accumulator: one L0C buffer, updated in place; the first trip
// overwrites it (init = iv == lower bound); L1 -> L0A/L0B sub-tile moves keep their origin.
// CHECK-LABEL: func.func @k_loop
// CHECK: %[[ACC:.*]] = ascendc.alloc_local {name = "acc"} : !ascendc.local<32x32xf32, CO1>
// CHECK: scf.for %[[K:.*]] = %[[LB:.*]] to
// CHECK: ascendc.load_data %{{.*}}, %{{.*}} {col = 32 : i64}
// CHECK: ascendc.load_data %{{.*}}, %{{.*}} {row = 32 : i64}
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[K]], %[[LB]] : index
// CHECK: ascendc.mmad %[[ACC]], %{{.*}}, %{{.*}}, %[[FIRST]]
// CHECK: ascendc.fixpipe %{{.*}}, %[[ACC]]
// SYNC-LABEL: func.func @k_loop
// SYNC: scf.for
// SYNC: ascendc.wait_flag M -> MTE1, {{[0-9]+}} {reason = "WAR on {{.*}}(loop-carried)"}
// SYNC: ascendc.mmad %
func.func @k_loop(%a: !asctile.ptr<f16>, %b: !asctile.ptr<f16>, %c: !asctile.ptr<f32>) attributes {asctile.kernel, asctile.arg_names = ["a", "b", "c"]} {
  %ta = asctile.tensor %a[] : !asctile.ptr<f16> -> !asctile.tensor<32x256xf16>
  %tb = asctile.tensor %b[] : !asctile.ptr<f16> -> !asctile.tensor<256x32xf16>
  %tc = asctile.tensor %c[] : !asctile.ptr<f32> -> !asctile.tensor<32x32xf32>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %acc0 = asctile.accumulator : !asctile.tile<32x32xf32, L0C>
  %acc = scf.for %k = %c0 to %c256 step %c64 iter_args(%acc1 = %acc0) -> (!asctile.tile<32x32xf32, L0C>) {
    %a1 = asctile.load %ta[%c0, %k] : !asctile.tensor<32x256xf16> -> !asctile.tile<32x64xf16, L1>
    %b1 = asctile.load %tb[%k, %c0] : !asctile.tensor<256x32xf16> -> !asctile.tile<64x32xf16, L1>
    %a0 = asctile.move %a1 offsets [0, 32] : !asctile.tile<32x64xf16, L1> -> !asctile.tile<32x32xf16, L0A>
    %b0 = asctile.move %b1 offsets [32, 0] : !asctile.tile<64x32xf16, L1> -> !asctile.tile<32x32xf16, L0B>
    %next = asctile.matmul_acc %acc1, %a0, %b0 : !asctile.tile<32x32xf32, L0C>, !asctile.tile<32x32xf16, L0A>, !asctile.tile<32x32xf16, L0B>
    scf.yield %next : !asctile.tile<32x32xf32, L0C>
  }
  asctile.store %acc, %tc[%c0, %c0] : !asctile.tile<32x32xf32, L0C>, !asctile.tensor<32x32xf32>
  return
}

// -----

// A MIX kernel: the fixpipe writes GM on the cube core, the vector core reads it back; the
// RAW between them is a cross-core flag, every sync names its core.
// SYNC-LABEL: func.func @mix
// SYNC-SAME: ascendc.kernel_type = "MIX"
// SYNC: ascendc.fixpipe %
// SYNC-NEXT: ascendc.set_flag FIX -> MTE2, {{[0-9]+}} {core = "cube", cross_core, reason = "RAW on arg2
// SYNC: ascendc.wait_flag FIX -> MTE2, {{[0-9]+}} {core = "vector", cross_core, reason = "RAW on arg2
// SYNC-NEXT: ascendc.data_copy_in %
// SYNC: ascendc.muls %
func.func @mix(%a: !asctile.ptr<f16>, %b: !asctile.ptr<f16>, %w: !asctile.ptr<f32>, %o: !asctile.ptr<f32>) attributes {asctile.kernel} {
  %ta = asctile.tensor %a[] : !asctile.ptr<f16> -> !asctile.tensor<32x32xf16>
  %tb = asctile.tensor %b[] : !asctile.ptr<f16> -> !asctile.tensor<32x32xf16>
  %tw = asctile.tensor %w[] : !asctile.ptr<f32> -> !asctile.tensor<32x32xf32>
  %to = asctile.tensor %o[] : !asctile.ptr<f32> -> !asctile.tensor<32x32xf32>
  %c0 = arith.constant 0 : index
  %x = asctile.load %ta[%c0, %c0] : !asctile.tensor<32x32xf16> -> !asctile.tile<32x32xf16, L0A>
  %y = asctile.load %tb[%c0, %c0] : !asctile.tensor<32x32xf16> -> !asctile.tile<32x32xf16, L0B>
  %p = asctile.matmul %x, %y : !asctile.tile<32x32xf16, L0A>, !asctile.tile<32x32xf16, L0B> -> !asctile.tile<32x32xf32, L0C>
  asctile.store %p, %tw[%c0, %c0] : !asctile.tile<32x32xf32, L0C>, !asctile.tensor<32x32xf32>
  %v = asctile.load %tw[%c0, %c0] : !asctile.tensor<32x32xf32> -> !asctile.tile<32x32xf32, UB>
  %two = arith.constant 2.0 : f32
  %s = asctile.splat %two : f32 -> !asctile.tile<32x32xf32, UB>
  %r = arith.mulf %v, %s : !asctile.tile<32x32xf32, UB>
  asctile.store %r, %to[%c0, %c0] : !asctile.tile<32x32xf32, UB>, !asctile.tensor<32x32xf32>
  return
}

// -----

func.func @acc_read_after_update(%a: !asctile.ptr<f16>, %c: !asctile.ptr<f32>) attributes {asctile.kernel} {
  %ta = asctile.tensor %a[] : !asctile.ptr<f16> -> !asctile.tensor<32x32xf16>
  %tc = asctile.tensor %c[] : !asctile.ptr<f32> -> !asctile.tensor<64x32xf32>
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %x = asctile.load %ta[%c0, %c0] : !asctile.tensor<32x32xf16> -> !asctile.tile<32x32xf16, L0A>
  %y = asctile.load %ta[%c0, %c0] : !asctile.tensor<32x32xf16> -> !asctile.tile<32x32xf16, L0B>
  %p = asctile.matmul %x, %y : !asctile.tile<32x32xf16, L0A>, !asctile.tile<32x32xf16, L0B> -> !asctile.tile<32x32xf32, L0C>
  // expected-error @+1 {{updates its accumulator in place, but the accumulator is used again afterwards}}
  %q = asctile.matmul_acc %p, %x, %y : !asctile.tile<32x32xf32, L0C>, !asctile.tile<32x32xf16, L0A>, !asctile.tile<32x32xf16, L0B>
  asctile.store %p, %tc[%c0, %c0] : !asctile.tile<32x32xf32, L0C>, !asctile.tensor<64x32xf32>
  asctile.store %q, %tc[%c32, %c0] : !asctile.tile<32x32xf32, L0C>, !asctile.tensor<64x32xf32>
  return
}

// -----

func.func @bad_operands(%x: !asctile.tile<32x32xf16, L0B>, %y: !asctile.tile<32x32xf16, L0B>) {
  // expected-error @+1 {{expects an L0A left operand and an L0B right operand, got L0B and L0B}}
  %p = asctile.matmul %x, %y : !asctile.tile<32x32xf16, L0B>, !asctile.tile<32x32xf16, L0B> -> !asctile.tile<32x32xf32, L0C>
  return
}

// -----

// Upstream matmul forms: a zero accumulator with a bias carried into nested K loops (the mmad
// overwrites from the bias on the first trip of both loops), sub-tiles at runtime offsets, an
// operand transposed on its way to L0B, HF32, and an f16 bias row widened into the bias table.
// CHECK-LABEL: func.func @nested_k
// The f16 row is widened in 64-byte bursts of its 16-bit source (32 values), so its bias-table
// buffer is 32 floats, of which the copy's 16 are read.
// CHECK: %[[BT:.*]] = ascendc.alloc_local {name = "bias_1"} : !ascendc.local<32xf32, C2>
// CHECK: ascendc.copy_bias %[[BT]], %{{.*}} {count = 16 : i64} : !ascendc.local<32xf32, C2>, !ascendc.local<16xf16, A1>
// CHECK: scf.for %[[I:.*]] = %[[LBI:[^ ]*]] to
// CHECK: scf.for %[[J:.*]] = %[[LBJ:[^ ]*]] to
// CHECK: ascendc.load_data %{{.*}}, %{{.*}} at[%{{.*}}, %{{.*}}] : !ascendc.local<16x16xf32, A2>
// CHECK: ascendc.load_data %{{.*}}, %{{.*}} at[%{{.*}}, %{{.*}}] {transpose} : !ascendc.local<16x16xf32, B2>, !ascendc.local<16x32xf32, A1>
// CHECK: %[[FI:.*]] = arith.cmpi eq, %[[J]], %[[LBJ]] : index
// CHECK: %[[FO:.*]] = arith.cmpi eq, %[[I]], %[[LBI]] : index
// CHECK: %[[FIRST:.*]] = arith.andi %[[FI]], %[[FO]] : i1
// CHECK: ascendc.mmad %{{.*}}, %{{.*}}, %{{.*}}, %[[FIRST]] bias %[[BT]] {hf32}
func.func @nested_k(%a: !asctile.ptr<f32>, %b: !asctile.ptr<f32>, %bias: !asctile.ptr<f16>, %c: !asctile.ptr<f32>) attributes {asctile.kernel, asctile.arg_names = ["a", "b", "bias", "c"]} {
  %ta = asctile.tensor %a[] : !asctile.ptr<f32> -> !asctile.tensor<16x64xf32>
  %tb = asctile.tensor %b[] : !asctile.ptr<f32> -> !asctile.tensor<16x64xf32>
  %tbias = asctile.tensor %bias[] : !asctile.ptr<f16> -> !asctile.tensor<16xf16>
  %tc = asctile.tensor %c[] : !asctile.ptr<f32> -> !asctile.tensor<16x16xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %bt = asctile.load %tbias[%c0] : !asctile.tensor<16xf16> -> !asctile.tile<16xf16, BT>
  %acc0 = asctile.accumulator bias(%bt : !asctile.tile<16xf16, BT>) : !asctile.tile<16x16xf32, L0C>
  %acc = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc1 = %acc0) -> (!asctile.tile<16x16xf32, L0C>) {
    %k = arith.muli %i, %c32 : index
    %a1 = asctile.load %ta[%c0, %k] : !asctile.tensor<16x64xf32> -> !asctile.tile<16x32xf32, L1>
    %b1 = asctile.load %tb[%c0, %k] : !asctile.tensor<16x64xf32> -> !asctile.tile<16x32xf32, L1>
    %inner = scf.for %j = %c0 to %c2 step %c1 iter_args(%acc2 = %acc1) -> (!asctile.tile<16x16xf32, L0C>) {
      %kk = arith.muli %j, %c16 : index
      %a0 = asctile.move %a1 offsets [0, 0] dynamic [%c0, %kk] : !asctile.tile<16x32xf32, L1> -> !asctile.tile<16x16xf32, L0A>
      %b0 = asctile.move %b1 offsets [0, 0] dynamic [%c0, %kk] {transpose} : !asctile.tile<16x32xf32, L1> -> !asctile.tile<16x16xf32, L0B>
      %next = asctile.matmul_acc %acc2, %a0, %b0 {hf32} : !asctile.tile<16x16xf32, L0C>, !asctile.tile<16x16xf32, L0A>, !asctile.tile<16x16xf32, L0B>
      scf.yield %next : !asctile.tile<16x16xf32, L0C>
    }
    scf.yield %inner : !asctile.tile<16x16xf32, L0C>
  }
  asctile.store %acc, %tc[%c0, %c0] : !asctile.tile<16x16xf32, L0C>, !asctile.tensor<16x16xf32>
  return
}

// -----

// A bias row staged in L1 (1-D, as it is): each part goes to the bias table from a runtime offset.
// CHECK-LABEL: func.func @bias_row
// CHECK: ascendc.data_copy_in %[[ROW:.*]], %{{.*}}[%{{.*}}], %{{.*}} {nd, pad_value
// CHECK: scf.for %[[J:.*]] =
// CHECK: %[[OFF:.*]] = arith.muli %[[J]]
// CHECK: ascendc.copy_bias %[[BT:.*]], %[[ROW]][%[[OFF]]] {count = 32 : i64} : !ascendc.local<32xf32, C2>, !ascendc.local<64xf16, A1>
// CHECK: ascendc.mmad %{{.*}}, %{{.*}}, %{{.*}}, %true bias %[[BT]]
func.func @bias_row(%a: !asctile.ptr<f16>, %bias: !asctile.ptr<f16>, %c: !asctile.ptr<f32>) attributes {asctile.kernel} {
  %ta = asctile.tensor %a[] : !asctile.ptr<f16> -> !asctile.tensor<32x64xf16>
  %tbias = asctile.tensor %bias[] : !asctile.ptr<f16> -> !asctile.tensor<64xf16>
  %tc = asctile.tensor %c[] : !asctile.ptr<f32> -> !asctile.tensor<32x64xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %row = asctile.load %tbias[%c0] : !asctile.tensor<64xf16> -> !asctile.tile<64xf16, L1>
  %x = asctile.load %ta[%c0, %c0] : !asctile.tensor<32x64xf16> -> !asctile.tile<32x32xf16, L0A>
  scf.for %j = %c0 to %c2 step %c1 {
    %off = arith.muli %j, %c32 : index
    %bt = asctile.move %row offsets [0] dynamic [%off] : !asctile.tile<64xf16, L1> -> !asctile.tile<32xf16, BT>
    %y = asctile.load %ta[%c0, %off] : !asctile.tensor<32x64xf16> -> !asctile.tile<32x32xf16, L0B>
    %p = asctile.matmul %x, %y bias %bt : !asctile.tile<32x32xf16, L0A>, !asctile.tile<32x32xf16, L0B>, !asctile.tile<32xf16, BT> -> !asctile.tile<32x32xf32, L0C>
    asctile.store %p, %tc[%c0, %off] : !asctile.tile<32x32xf32, L0C>, !asctile.tensor<32x64xf32>
  }
  return
}

// -----

func.func @bad_transpose(%x: !asctile.tile<32x64xf16, UB>) {
  // expected-error @+1 {{transposes are for L1 -> L0A/L0B moves, runtime offsets for L1 -> L0A/L0B/BT and UB -> L1 moves}}
  %y = asctile.move %x offsets [0, 0] {transpose} : !asctile.tile<32x64xf16, UB> -> !asctile.tile<32x32xf16, UB>
  return
}

// -----

func.func @bad_bias(%b: !asctile.tile<32xf32, BT>) {
  // expected-error @+1 {{bias must be a BT tile of 16 f32/f16/bf16 elements (one row)}}
  %acc = asctile.accumulator bias(%b : !asctile.tile<32xf32, BT>) : !asctile.tile<16x16xf32, L0C>
  return
}
