// RUN: asc2-opt %s -convert-asctile-to-ascendc -split-input-file -verify-diagnostics

// Atlas A2/A3 (c220) have neither of Ascend950's local paths between the cube
// and the vector core: the lowering refuses them, naming the way through GM.

func.func @l0c_to_ub(%a: !asctile.ptr<f16>, %b: !asctile.ptr<f16>) attributes {asctile.kernel} {
  %ta = asctile.tensor %a[] : !asctile.ptr<f16> -> !asctile.tensor<16x16xf16>
  %tb = asctile.tensor %b[] : !asctile.ptr<f16> -> !asctile.tensor<16x16xf16>
  %c0 = arith.constant 0 : index
  %x = asctile.load %ta[%c0, %c0] : !asctile.tensor<16x16xf16> -> !asctile.tile<16x16xf16, L0A>
  %y = asctile.load %tb[%c0, %c0] : !asctile.tensor<16x16xf16> -> !asctile.tile<16x16xf16, L0B>
  %p = asctile.matmul %x, %y : !asctile.tile<16x16xf16, L0A>, !asctile.tile<16x16xf16, L0B> -> !asctile.tile<16x16xf32, L0C>
  // expected-error @+1 {{L0C -> UB has no data path on Atlas A2/A3 (only Ascend950 moves L0C -> UB): store the accumulator with copy_out (fixpipe)}}
  %u = asctile.move %p offsets [0, 0] : !asctile.tile<16x16xf32, L0C> -> !asctile.tile<16x16xf32, UB>
  %s = arith.addf %u, %u : !asctile.tile<16x16xf32, UB>
  return
}

// -----

func.func @ub_to_l1(%a: !asctile.ptr<f16>) attributes {asctile.kernel} {
  %ta = asctile.tensor %a[] : !asctile.ptr<f16> -> !asctile.tensor<16x16xf16>
  %c0 = arith.constant 0 : index
  %x = asctile.load %ta[%c0, %c0] : !asctile.tensor<16x16xf16> -> !asctile.tile<16x16xf16, UB>
  // expected-error @+1 {{UB -> L1 has no data path on Atlas A2/A3 (only Ascend950 copies UB -> L1): copy_out the tile and copy_in it to L1}}
  %l1 = asctile.move %x offsets [0, 0] : !asctile.tile<16x16xf16, UB> -> !asctile.tile<16x16xf16, L1>
  %l0a = asctile.move %l1 offsets [0, 0] : !asctile.tile<16x16xf16, L1> -> !asctile.tile<16x16xf16, L0A>
  return
}
