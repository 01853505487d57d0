module {
  func.func @vadd(%arg0: !asctile.ptr<f32>, %arg1: !asctile.ptr<f32>, %arg2: !asctile.ptr<f32>, %arg3: index, %arg4: index) attributes {asctile.arg_names = ["x_ptr", "y_ptr", "out_ptr", "size", "tiles_per_block"], asctile.kernel} {
    %0 = asctile.tensor %arg0[%arg3] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
    %1 = asctile.tensor %arg1[%arg3] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
    %2 = asctile.tensor %arg2[%arg3] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
    %3 = asctile.block_idx
    %4 = arith.muli %3, %arg4 : index
    %c256 = arith.constant 256 : index
    %5 = arith.muli %4, %c256 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %arg5 = %c0 to %arg4 step %c1 {
      %6 = arith.muli %arg5, %c256 : index
      %7 = arith.addi %5, %6 : index
      %8 = asctile.load %0[%7] : !asctile.tensor<?xf32> -> !asctile.tile<256xf32, UB>
      %9 = asctile.load %1[%7] : !asctile.tensor<?xf32> -> !asctile.tile<256xf32, UB>
      %10 = arith.addf %8, %9 : !asctile.tile<256xf32, UB>
      asctile.store %10, %2[%7] : !asctile.tile<256xf32, UB>, !asctile.tensor<?xf32>
    } {asctile.parallel = false, asctile.unroll_factor = 1 : i64}
    return
  }
}
