module {
  func.func @layer_norm(%arg0: !asctile.ptr<f32>, %arg1: !asctile.ptr<f32>, %arg2: !asctile.ptr<f32>, %arg3: !asctile.ptr<f32>, %arg4: index, %arg5: f32) attributes {asctile.arg_names = ["x_ptr", "gamma_ptr", "beta_ptr", "out_ptr", "rows", "eps"], asctile.kernel} {
    %0 = asctile.tensor %arg0[%arg4] : !asctile.ptr<f32> -> !asctile.tensor<?x256xf32>
    %1 = asctile.tensor %arg1[] : !asctile.ptr<f32> -> !asctile.tensor<1x256xf32>
    %2 = asctile.tensor %arg2[] : !asctile.ptr<f32> -> !asctile.tensor<1x256xf32>
    %3 = asctile.tensor %arg3[%arg4] : !asctile.ptr<f32> -> !asctile.tensor<?x256xf32>
    %c0 = arith.constant 0 : index
    %4 = asctile.load %1[%c0, %c0] : !asctile.tensor<1x256xf32> -> !asctile.tile<1x256xf32, UB>
    %5 = asctile.load %2[%c0, %c0] : !asctile.tensor<1x256xf32> -> !asctile.tile<1x256xf32, UB>
    %6 = asctile.block_idx
    %7 = asctile.block_num
    scf.for %arg6 = %6 to %arg4 step %7 {
      %8 = asctile.load %0[%arg6, %c0] : !asctile.tensor<?x256xf32> -> !asctile.tile<1x256xf32, UB>
      %9 = asctile.reduce sum %8 dims [0, 1] : !asctile.tile<1x256xf32, UB> -> f32
      %cst = arith.constant 2.560000e+02 : f32
      %10 = arith.divf %9, %cst : f32
      %11 = asctile.splat %10 : f32 -> !asctile.tile<1x256xf32, UB>
      %12 = arith.subf %8, %11 : !asctile.tile<1x256xf32, UB>
      %13 = arith.mulf %12, %12 : !asctile.tile<1x256xf32, UB>
      %14 = asctile.reduce sum %13 dims [0, 1] : !asctile.tile<1x256xf32, UB> -> f32
      %15 = arith.divf %14, %cst : f32
      %16 = arith.addf %15, %arg5 : f32
      %17 = asctile.splat %16 : f32 -> !asctile.tile<1x256xf32, UB>
      %18 = math.rsqrt %17 : !asctile.tile<1x256xf32, UB>
      %19 = arith.mulf %12, %18 : !asctile.tile<1x256xf32, UB>
      %20 = arith.mulf %19, %4 : !asctile.tile<1x256xf32, UB>
      %21 = arith.addf %20, %5 : !asctile.tile<1x256xf32, UB>
      asctile.store %21, %3[%arg6, %c0] : !asctile.tile<1x256xf32, UB>, !asctile.tensor<?x256xf32>
    } {asctile.parallel = true, asctile.unroll_factor = 1 : i64}
    return
  }
}
