module {
  func.func @softmax(%arg0: !asctile.ptr<f32>, %arg1: !asctile.ptr<f32>, %arg2: index, %arg3: index) attributes {asctile.arg_names = ["x_ptr", "out_ptr", "rows", "cols"], asctile.kernel} {
    %0 = asctile.tensor %arg0[%arg2, %arg3] : !asctile.ptr<f32> -> !asctile.tensor<?x?xf32>
    %1 = asctile.tensor %arg1[%arg2, %arg3] : !asctile.ptr<f32> -> !asctile.tensor<?x?xf32>
    %2 = asctile.block_idx
    %3 = asctile.block_num
    scf.for %arg4 = %2 to %arg2 step %3 {
      %c0 = arith.constant 0 : index
      %4 = asctile.load %0[%arg4, %c0] {pad_value = 0xFF800000 : f32} : !asctile.tensor<?x?xf32> -> !asctile.tile<1x256xf32, UB>
      %5 = asctile.reduce max %4 dims [0, 1] : !asctile.tile<1x256xf32, UB> -> f32
      %6 = asctile.splat %5 : f32 -> !asctile.tile<1x256xf32, UB>
      %7 = arith.subf %4, %6 : !asctile.tile<1x256xf32, UB>
      %8 = math.exp %7 : !asctile.tile<1x256xf32, UB>
      %9 = asctile.reduce sum %8 dims [0, 1] : !asctile.tile<1x256xf32, UB> -> f32
      %10 = asctile.splat %9 : f32 -> !asctile.tile<1x256xf32, UB>
      %11 = arith.divf %8, %10 : !asctile.tile<1x256xf32, UB>
      asctile.store %11, %1[%arg4, %c0] : !asctile.tile<1x256xf32, UB>, !asctile.tensor<?x?xf32>
    } {asctile.parallel = true, asctile.unroll_factor = 1 : i64}
    return
  }
}
