// RUN: asc2-opt %s -asctile-split-vector-work="vector-cores=1" -split-input-file -verify-diagnostics

// kernel_type=MIX_AIC_1_1 (one vector core per cube core) cannot carry Ascend950's moves between
// the cube and the vector core: they connect a cube core with the vector cores of its own AI core.
func.func @fixpipe_to_ub_on_one_vector_core(%a: !asctile.ptr<f16>, %c: !asctile.ptr<f32>) attributes {asctile.kernel} {
  %ta = asctile.tensor %a[] : !asctile.ptr<f16> -> !asctile.tensor<16x16xf16>
  %tc = asctile.tensor %c[] : !asctile.ptr<f32> -> !asctile.tensor<16x16xf32>
  %c0 = arith.constant 0 : index
  %x = asctile.load %ta[%c0, %c0] : !asctile.tensor<16x16xf16> -> !asctile.tile<16x16xf16, L0A>
  %y = asctile.load %ta[%c0, %c0] : !asctile.tensor<16x16xf16> -> !asctile.tile<16x16xf16, L0B>
  %p = asctile.matmul %x, %y : !asctile.tile<16x16xf16, L0A>, !asctile.tile<16x16xf16, L0B> -> !asctile.tile<16x16xf32, L0C>
  // expected-error @+1 {{kernel_type=MIX_AIC_1_1 asks for one vector core per cube core, but Ascend950's L0C -> UB path connects a cube core with the two vector cores of its own AI core}}
  %u = asctile.move %p offsets [0, 0] : !asctile.tile<16x16xf32, L0C> -> !asctile.tile<16x16xf32, UB>
  asctile.store %u, %tc[%c0, %c0] : !asctile.tile<16x16xf32, UB>, !asctile.tensor<16x16xf32>
  return
}
