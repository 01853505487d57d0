module {
  func.func @select(%arg0: !asctile.ptr<f32>, %arg1: !asctile.ptr<f32>, %arg2: !asctile.ptr<f32>, %arg3: !asctile.ptr<f32>, %arg4: index, %arg5: f32) attributes {asctile.arg_names = ["x_ptr", "y_ptr", "out_ptr", "clamped_ptr", "size", "limit"], asctile.kernel} {
    %0 = asctile.tensor %arg0[%arg4] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
    %1 = asctile.tensor %arg1[%arg4] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
    %2 = asctile.tensor %arg2[%arg4] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
    %3 = asctile.tensor %arg3[%arg4] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
    %4 = asctile.block_idx
    %c256 = arith.constant 256 : index
    %5 = arith.ceildivsi %arg4, %c256 : index
    %6 = asctile.block_num
    scf.for %arg6 = %4 to %5 step %6 {
      %7 = arith.muli %arg6, %c256 : index
      %8 = asctile.load %0[%7] : !asctile.tensor<?xf32> -> !asctile.tile<256xf32, UB>
      %9 = arith.muli %arg6, %c256 : index
      %10 = asctile.load %1[%9] : !asctile.tensor<?xf32> -> !asctile.tile<256xf32, UB>
      %11 = asctile.cmp gt, %8, %10 : !asctile.tile<256xf32, UB> -> !asctile.tile<256xi1, UB>
      %12 = arith.subf %8, %10 : !asctile.tile<256xf32, UB>
      %cst = arith.constant 5.000000e-01 : f32
      %13 = asctile.splat %cst : f32 -> !asctile.tile<256xf32, UB>
      %14 = arith.mulf %13, %10 : !asctile.tile<256xf32, UB>
      %15 = asctile.select %11, %12, %14 : !asctile.tile<256xi1, UB>, !asctile.tile<256xf32, UB>
      %16 = arith.muli %arg6, %c256 : index
      asctile.store %15, %2[%16] : !asctile.tile<256xf32, UB>, !asctile.tensor<?xf32>
      %17 = asctile.splat %arg5 : f32 -> !asctile.tile<256xf32, UB>
      %18 = asctile.cmp gt, %8, %17 : !asctile.tile<256xf32, UB> -> !asctile.tile<256xi1, UB>
      %19 = asctile.splat %arg5 : f32 -> !asctile.tile<256xf32, UB>
      %20 = asctile.select %18, %19, %8 : !asctile.tile<256xi1, UB>, !asctile.tile<256xf32, UB>
      %21 = arith.negf %arg5 : f32
      %22 = asctile.splat %21 : f32 -> !asctile.tile<256xf32, UB>
      %23 = asctile.cmp lt, %20, %22 : !asctile.tile<256xf32, UB> -> !asctile.tile<256xi1, UB>
      %24 = arith.negf %arg5 : f32
      %25 = asctile.splat %24 : f32 -> !asctile.tile<256xf32, UB>
      %26 = asctile.select %23, %25, %20 : !asctile.tile<256xi1, UB>, !asctile.tile<256xf32, UB>
      %27 = arith.muli %arg6, %c256 : index
      asctile.store %26, %3[%27] : !asctile.tile<256xf32, UB>, !asctile.tensor<?xf32>
    } {asctile.parallel = false, asctile.unroll_factor = 1 : i64}
    return
  }
}
