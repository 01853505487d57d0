// RUN: asc2-opt %s -convert-asctile-to-ascendc -split-input-file -verify-diagnostics
// float32 moves Atlas A2/A3 cannot do with LoadData (b16-only transposes) are refused by name.

// The same ZZ tile cannot also feed L0A or a transposed move.
func.func @zz_tile_reused(%b: !asctile.ptr<f32>, %c: !asctile.ptr<f32>) attributes {asctile.kernel} {
  %tb = asctile.tensor %b[] : !asctile.ptr<f32> -> !asctile.tensor<32x32xf32>
  %tc = asctile.tensor %c[] : !asctile.ptr<f32> -> !asctile.tensor<32x32xf32>
  %c0 = arith.constant 0 : index
  %b1 = asctile.load %tb[%c0, %c0] : !asctile.tensor<32x32xf32> -> !asctile.tile<32x32xf32, L1>
  // expected-error @+1 {{cannot also be moved to L0A or transposed}}
  %x = asctile.move %b1 offsets [0, 0] : !asctile.tile<32x32xf32, L1> -> !asctile.tile<32x32xf32, L0A>
  %y = asctile.move %b1 offsets [0, 0] : !asctile.tile<32x32xf32, L1> -> !asctile.tile<32x32xf32, L0B>
  %p = asctile.matmul %x, %y : !asctile.tile<32x32xf32, L0A>, !asctile.tile<32x32xf32, L0B> -> !asctile.tile<32x32xf32, L0C>
  asctile.store %p, %tc[%c0, %c0] : !asctile.tile<32x32xf32, L0C>, !asctile.tensor<32x32xf32>
  return
}

// -----

// A transposed float32 move to L0A would need a b32 LoadData transpose.
func.func @f32_l0a_transposed(%a: !asctile.ptr<f32>, %b: !asctile.ptr<f32>, %c: !asctile.ptr<f32>) attributes {asctile.kernel} {
  %ta = asctile.tensor %a[] : !asctile.ptr<f32> -> !asctile.tensor<32x32xf32>
  %tb = asctile.tensor %b[] : !asctile.ptr<f32> -> !asctile.tensor<32x32xf32>
  %tc = asctile.tensor %c[] : !asctile.ptr<f32> -> !asctile.tensor<32x32xf32>
  %c0 = arith.constant 0 : index
  %a1 = asctile.load %ta[%c0, %c0] : !asctile.tensor<32x32xf32> -> !asctile.tile<32x32xf32, L1>
  // expected-error @+1 {{a transposed float32 move to L0A is not supported on Atlas A2/A3}}
  %x = asctile.move %a1 offsets [0, 0] {transpose} : !asctile.tile<32x32xf32, L1> -> !asctile.tile<32x32xf32, L0A>
  %y = asctile.load %tb[%c0, %c0] : !asctile.tensor<32x32xf32> -> !asctile.tile<32x32xf32, L0B>
  %p = asctile.matmul %x, %y : !asctile.tile<32x32xf32, L0A>, !asctile.tile<32x32xf32, L0B> -> !asctile.tile<32x32xf32, L0C>
  asctile.store %p, %tc[%c0, %c0] : !asctile.tile<32x32xf32, L0C>, !asctile.tensor<32x32xf32>
  return
}
