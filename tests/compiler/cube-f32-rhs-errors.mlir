// RUN: asc2-opt %s -convert-asctile-to-ascendc -split-input-file -verify-diagnostics
// float32 moves Atlas A2/A3 cannot do with LoadData (b16-only transposes) are refused by name.

// The same ZZ tile cannot also feed L0A or a transposed move.
func.func @zz_tile_reused(%b: !asctile.ptr<f32>, %c: !asctile.ptr<f32>) attributes {asctile.kernel} {
  %tb = asctile.tensor %b[] : !asctile.ptr<f32> -> !asctile.tensor<32x32xf32>
  %tc = asctile.tensor %c[] : !asctile.ptr<f32> -> !asctile.tensor<32x32xf32>
  %c0 = arith.constant 0 : index
  %b1 = asctile.load %tb[%c0, %c0] : !asctile.tensor<32x32xf32> -> !asctile.tile<32x32xf32, L1>
  // expected-error @+1 {{cannot also be moved without that transpose}}
  %x = asctile.move %b1 offsets [0, 0] : !asctile.tile<32x32xf32, L1> -> !asctile.tile<32x32xf32, L0A>
  %y = asctile.move %b1 offsets [0, 0] : !asctile.tile<32x32xf32, L1> -> !asctile.tile<32x32xf32, L0B>
  %p = asctile.matmul %x, %y : !asctile.tile<32x32xf32, L0A>, !asctile.tile<32x32xf32, L0B> -> !asctile.tile<32x32xf32, L0C>
  asctile.store %p, %tc[%c0, %c0] : !asctile.tile<32x32xf32, L0C>, !asctile.tensor<32x32xf32>
  return
}

// -----

// A float32 matmul result staged in L1 (NZ, by the fixpipe) cannot go to L0B as stored.
func.func @staged_f32_to_l0b(%a: !asctile.ptr<f32>, %c: !asctile.ptr<f32>) attributes {asctile.kernel} {
  %ta = asctile.tensor %a[] : !asctile.ptr<f32> -> !asctile.tensor<32x32xf32>
  %tc = asctile.tensor %c[] : !asctile.ptr<f32> -> !asctile.tensor<32x32xf32>
  %c0 = arith.constant 0 : index
  %x = asctile.load %ta[%c0, %c0] : !asctile.tensor<32x32xf32> -> !asctile.tile<32x32xf32, L0A>
  %y = asctile.load %ta[%c0, %c0] : !asctile.tensor<32x32xf32> -> !asctile.tile<32x32xf32, L0B>
  %p = asctile.matmul %x, %y : !asctile.tile<32x32xf32, L0A>, !asctile.tile<32x32xf32, L0B> -> !asctile.tile<32x32xf32, L0C>
  %h = asctile.move %p offsets [0, 0] : !asctile.tile<32x32xf32, L0C> -> !asctile.tile<32x32xf32, L1>
  // expected-error @+1 {{this float32 L1 tile cannot be moved to L0B as stored on Atlas A2/A3}}
  %h0 = asctile.move %h offsets [0, 0] : !asctile.tile<32x32xf32, L1> -> !asctile.tile<32x32xf32, L0B>
  %q = asctile.matmul %x, %h0 : !asctile.tile<32x32xf32, L0A>, !asctile.tile<32x32xf32, L0B> -> !asctile.tile<32x32xf32, L0C>
  asctile.store %q, %tc[%c0, %c0] : !asctile.tile<32x32xf32, L0C>, !asctile.tensor<32x32xf32>
  return
}
