// RUN: asc2-opt %s -asctile-multi-buffer -split-input-file | FileCheck %s
// RUN: asc2-opt %s -asctile-multi-buffer=ub-capacity=4096 -split-input-file | FileCheck %s --check-prefix=SMALL
// RUN: asc2-opt %s -asctile-multi-buffer=num-stages=3 -split-input-file | FileCheck %s --check-prefix=THREE

// A loop that loads tiles gets two copies when they fit; three on request;
// none when two copies of its 3 KiB of tiles exceed the budget.
// CHECK-LABEL: func.func @loads
// CHECK: asctile.multi_buffer, asctile.unroll_factor = 2
// SMALL-LABEL: func.func @loads
// SMALL-NOT: asctile.multi_buffer
// THREE-LABEL: func.func @loads
// THREE: asctile.unroll_factor = 3
func.func @loads(%p: !asctile.ptr<f32>, %n: index) {
  %t = asctile.tensor %p[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = asctile.load %t[%i] : !asctile.tensor<?xf32> -> !asctile.tile<256xf32, UB>
    %b = asctile.load %t[%i] : !asctile.tensor<?xf32> -> !asctile.tile<256xf32, UB>
    %s = arith.addf %a, %b : !asctile.tile<256xf32, UB>
    asctile.store %s, %t[%i] : !asctile.tile<256xf32, UB>, !asctile.tensor<?xf32>
  }
  return
}

// -----

// The user's unroll factor already gives several buffers.
// CHECK-LABEL: func.func @user_unroll
// CHECK-NOT: asctile.multi_buffer
// CHECK: asctile.unroll_factor = 4
func.func @user_unroll(%p: !asctile.ptr<f32>, %n: index) {
  %t = asctile.tensor %p[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = asctile.load %t[%i] : !asctile.tensor<?xf32> -> !asctile.tile<256xf32, UB>
    asctile.store %a, %t[%i] : !asctile.tile<256xf32, UB>, !asctile.tensor<?xf32>
  } {asctile.unroll_factor = 4 : i64}
  return
}

// -----

// asc2.inline runs between PIPE_ALL barriers, which leave the copies nothing
// to overlap, and two copies of its code would declare its names twice: the
// loop keeps one buffer per tile. A file-scope inline (before_function) or an
// inline_vf (a vector op) does not stop it.
// CHECK-LABEL: func.func @raw_code
// CHECK-NOT: asctile.multi_buffer
// SMALL-LABEL: func.func @raw_code
// THREE-LABEL: func.func @raw_code
// CHECK-LABEL: func.func @file_scope_and_vector_function
// CHECK: asctile.multi_buffer, asctile.unroll_factor = 2
func.func @raw_code(%p: !asctile.ptr<f32>, %n: index) {
  %t = asctile.tensor %p[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = asctile.load %t[%i] : !asctile.tensor<?xf32> -> !asctile.tile<256xf32, UB>
    asctile.inline "constexpr int32_t K = 2;"
    asctile.store %a, %t[%i] : !asctile.tile<256xf32, UB>, !asctile.tensor<?xf32>
  }
  return
}
func.func @file_scope_and_vector_function(%p: !asctile.ptr<f32>, %n: index) {
  %t = asctile.tensor %p[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = asctile.load %t[%i] : !asctile.tensor<?xf32> -> !asctile.tile<256xf32, UB>
    asctile.inline "constexpr int32_t K = 2;" {before_function}
    %b = asctile.inline_vf "$0 = $1;"(%a : !asctile.tile<256xf32, UB>) -> !asctile.tile<256xf32, UB>
    asctile.store %b, %t[%i] : !asctile.tile<256xf32, UB>, !asctile.tensor<?xf32>
  }
  return
}

// -----

// A reshape of a loaded tile (the frontend's form of a load whose whole
// dimensions it merged, and of a transposing load) is the loaded bytes: two
// copies of the 64 KiB tile fit 184 KiB. A reshape of a computed tile is a
// working tile like any other: 2 x (64 + 64) KiB do not.
// CHECK-LABEL: func.func @reshaped_load
// CHECK: asctile.multi_buffer, asctile.unroll_factor = 2
// CHECK-LABEL: func.func @reshaped_result
// CHECK-NOT: asctile.multi_buffer
func.func @reshaped_load(%p: !asctile.ptr<f32>, %n: index) {
  %t = asctile.tensor %p[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = asctile.load %t[%i] : !asctile.tensor<?xf32> -> !asctile.tile<16384xf32, UB>
    %b = asctile.reshape %a : !asctile.tile<16384xf32, UB> -> !asctile.tile<2x16x512xf32, UB>
    %c = asctile.reshape %b : !asctile.tile<2x16x512xf32, UB> -> !asctile.tile<16384xf32, UB>
    asctile.store %c, %t[%i] : !asctile.tile<16384xf32, UB>, !asctile.tensor<?xf32>
  }
  return
}
func.func @reshaped_result(%p: !asctile.ptr<f32>, %n: index) {
  %t = asctile.tensor %p[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = asctile.load %t[%i] : !asctile.tensor<?xf32> -> !asctile.tile<16384xf32, UB>
    %s = arith.addf %a, %a : !asctile.tile<16384xf32, UB>
    %b = asctile.reshape %s : !asctile.tile<16384xf32, UB> -> !asctile.tile<2x16x512xf32, UB>
    %c = asctile.reshape %b : !asctile.tile<2x16x512xf32, UB> -> !asctile.tile<16384xf32, UB>
    asctile.store %c, %t[%i] : !asctile.tile<16384xf32, UB>, !asctile.tensor<?xf32>
  }
  return
}
