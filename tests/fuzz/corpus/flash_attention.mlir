module {
  func.func @flash_attention(%arg0: !asctile.ptr<f16>, %arg1: !asctile.ptr<f16>, %arg2: !asctile.ptr<f16>, %arg3: !asctile.ptr<f32>, %arg4: !asctile.ptr<f16>, %arg5: !asctile.ptr<f32>, %arg6: !asctile.ptr<f32>) attributes {asctile.arg_names = ["q_ptr", "kt_ptr", "v_ptr", "s_ws_ptr", "p_ws_ptr", "o_ws_ptr", "out_ptr"], asctile.kernel} {
    %0 = asctile.tensor %arg0[] : !asctile.ptr<f16> -> !asctile.tensor<256x64xf16>
    %1 = asctile.tensor %arg1[] : !asctile.ptr<f16> -> !asctile.tensor<64x256xf16>
    %2 = asctile.tensor %arg2[] : !asctile.ptr<f16> -> !asctile.tensor<256x64xf16>
    %3 = asctile.tensor %arg3[] : !asctile.ptr<f32> -> !asctile.tensor<256x64xf32>
    %4 = asctile.tensor %arg4[] : !asctile.ptr<f16> -> !asctile.tensor<256x64xf16>
    %5 = asctile.tensor %arg5[] : !asctile.ptr<f32> -> !asctile.tensor<256x64xf32>
    %6 = asctile.tensor %arg6[] : !asctile.ptr<f32> -> !asctile.tensor<256x64xf32>
    %7 = asctile.block_idx
    %8 = asctile.block_num
    %c4 = arith.constant 4 : index
    scf.for %arg7 = %7 to %c4 step %8 {
      %c64 = arith.constant 64 : index
      %9 = arith.muli %arg7, %c64 : index
      %cst = arith.constant -1.000000e+30 : f32
      %10 = asctile.splat %cst : f32 -> !asctile.tile<64x1xf32, UB>
      %cst_0 = arith.constant 0.000000e+00 : f32
      %11 = asctile.splat %cst_0 : f32 -> !asctile.tile<64x1xf32, UB>
      %12 = asctile.splat %cst_0 : f32 -> !asctile.tile<64x64xf32, UB>
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %13:3 = scf.for %arg8 = %c0 to %c256 step %c64 iter_args(%arg9 = %10, %arg10 = %11, %arg11 = %12) -> (!asctile.tile<64x1xf32, UB>, !asctile.tile<64x1xf32, UB>, !asctile.tile<64x64xf32, UB>) {
        %16 = asctile.load %0[%9, %c0] : !asctile.tensor<256x64xf16> -> !asctile.tile<64x64xf16, L0A>
        %17 = asctile.load %1[%c0, %arg8] : !asctile.tensor<64x256xf16> -> !asctile.tile<64x64xf16, L0B>
        %18 = asctile.matmul %16, %17 : !asctile.tile<64x64xf16, L0A>, !asctile.tile<64x64xf16, L0B> -> !asctile.tile<64x64xf32, L0C>
        asctile.store %18, %3[%9, %c0] : !asctile.tile<64x64xf32, L0C>, !asctile.tensor<256x64xf32>
        %19 = asctile.load %3[%9, %c0] : !asctile.tensor<256x64xf32> -> !asctile.tile<64x64xf32, UB>
        %cst_1 = arith.constant 1.250000e-01 : f32
        %20 = asctile.splat %cst_1 : f32 -> !asctile.tile<64x64xf32, UB>
        %21 = arith.mulf %19, %20 : !asctile.tile<64x64xf32, UB>
        %22 = asctile.reduce max %21 dims [1] keep_dims : !asctile.tile<64x64xf32, UB> -> !asctile.tile<64x1xf32, UB>
        %23 = arith.maximumf %arg9, %22 : !asctile.tile<64x1xf32, UB>
        %24 = asctile.broadcast %23 : !asctile.tile<64x1xf32, UB> -> !asctile.tile<64x64xf32, UB>
        %25 = arith.subf %21, %24 : !asctile.tile<64x64xf32, UB>
        %26 = math.exp %25 : !asctile.tile<64x64xf32, UB>
        %27 = arith.subf %arg9, %23 : !asctile.tile<64x1xf32, UB>
        %28 = math.exp %27 : !asctile.tile<64x1xf32, UB>
        %29 = arith.mulf %arg10, %28 : !asctile.tile<64x1xf32, UB>
        %30 = asctile.reduce sum %26 dims [1] keep_dims : !asctile.tile<64x64xf32, UB> -> !asctile.tile<64x1xf32, UB>
        %31 = arith.addf %29, %30 : !asctile.tile<64x1xf32, UB>
        %32 = asctile.cast %26 round none : !asctile.tile<64x64xf32, UB> -> !asctile.tile<64x64xf16, UB>
        asctile.store %32, %4[%9, %c0] : !asctile.tile<64x64xf16, UB>, !asctile.tensor<256x64xf16>
        %33 = asctile.load %4[%9, %c0] : !asctile.tensor<256x64xf16> -> !asctile.tile<64x64xf16, L0A>
        %34 = asctile.load %2[%arg8, %c0] : !asctile.tensor<256x64xf16> -> !asctile.tile<64x64xf16, L0B>
        %35 = asctile.matmul %33, %34 : !asctile.tile<64x64xf16, L0A>, !asctile.tile<64x64xf16, L0B> -> !asctile.tile<64x64xf32, L0C>
        asctile.store %35, %5[%9, %c0] : !asctile.tile<64x64xf32, L0C>, !asctile.tensor<256x64xf32>
        %36 = asctile.broadcast %28 : !asctile.tile<64x1xf32, UB> -> !asctile.tile<64x64xf32, UB>
        %37 = arith.mulf %arg11, %36 : !asctile.tile<64x64xf32, UB>
        %38 = asctile.load %5[%9, %c0] : !asctile.tensor<256x64xf32> -> !asctile.tile<64x64xf32, UB>
        %39 = arith.addf %37, %38 : !asctile.tile<64x64xf32, UB>
        scf.yield %23, %31, %39 : !asctile.tile<64x1xf32, UB>, !asctile.tile<64x1xf32, UB>, !asctile.tile<64x64xf32, UB>
      } {asctile.parallel = false, asctile.unroll_factor = 1 : i64}
      %14 = asctile.broadcast %13#1 : !asctile.tile<64x1xf32, UB> -> !asctile.tile<64x64xf32, UB>
      %15 = arith.divf %13#2, %14 : !asctile.tile<64x64xf32, UB>
      asctile.store %15, %6[%9, %c0] : !asctile.tile<64x64xf32, UB>, !asctile.tensor<256x64xf32>
    } {asctile.parallel = false, asctile.unroll_factor = 1 : i64}
    return
  }
}
