module {
  func.func @layer_norm_fused(%arg0: !asctile.ptr<f32>, %arg1: !asctile.ptr<f32>, %arg2: !asctile.ptr<f32>, %arg3: !asctile.ptr<f32>, %arg4: index) attributes {asctile.arg_names = ["x_ptr", "gamma_ptr", "beta_ptr", "out_ptr", "rows"], asctile.kernel} {
    %0 = asctile.tensor %arg0[%arg4] : !asctile.ptr<f32> -> !asctile.tensor<?x256xf32>
    %1 = asctile.tensor %arg1[] : !asctile.ptr<f32> -> !asctile.tensor<256xf32>
    %2 = asctile.tensor %arg2[] : !asctile.ptr<f32> -> !asctile.tensor<256xf32>
    %3 = asctile.tensor %arg3[%arg4] : !asctile.ptr<f32> -> !asctile.tensor<?x256xf32>
    %c0 = arith.constant 0 : index
    %4 = asctile.load %1[%c0] : !asctile.tensor<256xf32> -> !asctile.tile<256xf32, UB>
    %5 = asctile.load %2[%c0] : !asctile.tensor<256xf32> -> !asctile.tile<256xf32, UB>
    %6 = asctile.block_idx
    %7 = asctile.block_num
    scf.for %arg5 = %6 to %arg4 step %7 {
      %8 = asctile.load %0[%arg5, %c0] : !asctile.tensor<?x256xf32> -> !asctile.tile<1x256xf32, UB>
      %9 = asctile.reshape %4 : !asctile.tile<256xf32, UB> -> !asctile.tile<1x256xf32, UB>
      %10 = asctile.reshape %5 : !asctile.tile<256xf32, UB> -> !asctile.tile<1x256xf32, UB>
      %11 = asctile.reduce sum %8 dims [1] keep_dims : !asctile.tile<1x256xf32, UB> -> !asctile.tile<1x1xf32, UB>
      %cst = arith.constant 2.560000e+02 : f32
      %12 = asctile.splat %cst : f32 -> !asctile.tile<1x1xf32, UB>
      %13 = arith.divf %11, %12 : !asctile.tile<1x1xf32, UB>
      %14 = asctile.broadcast %13 : !asctile.tile<1x1xf32, UB> -> !asctile.tile<1x256xf32, UB>
      %15 = arith.subf %8, %14 : !asctile.tile<1x256xf32, UB>
      %16 = arith.mulf %15, %15 : !asctile.tile<1x256xf32, UB>
      %17 = asctile.reduce sum %16 dims [1] keep_dims : !asctile.tile<1x256xf32, UB> -> !asctile.tile<1x1xf32, UB>
      %18 = asctile.splat %cst : f32 -> !asctile.tile<1x1xf32, UB>
      %19 = arith.divf %17, %18 : !asctile.tile<1x1xf32, UB>
      %cst_0 = arith.constant 9.99999974E-6 : f32
      %20 = asctile.splat %cst_0 : f32 -> !asctile.tile<1x1xf32, UB>
      %21 = arith.addf %19, %20 : !asctile.tile<1x1xf32, UB>
      %22 = math.rsqrt %21 : !asctile.tile<1x1xf32, UB>
      %23 = asctile.layer_norm %8, %9, %10 eps 1.000000e-05 : !asctile.tile<1x256xf32, UB>, !asctile.tile<1x256xf32, UB>, !asctile.tile<1x256xf32, UB>
      %24 = asctile.reshape %13 : !asctile.tile<1x1xf32, UB> -> !asctile.tile<1xf32, UB>
      %25 = asctile.reshape %19 : !asctile.tile<1x1xf32, UB> -> !asctile.tile<1xf32, UB>
      asctile.store %23, %3[%arg5, %c0] : !asctile.tile<1x256xf32, UB>, !asctile.tensor<?x256xf32>
    } {asctile.parallel = true, asctile.unroll_factor = 1 : i64}
    return
  }
}
