module {
  func.func @reduce_sum(%arg0: !asctile.ptr<f32>, %arg1: !asctile.ptr<f32>, %arg2: index) attributes {asctile.arg_names = ["x_ptr", "partial_ptr", "size"], asctile.kernel} {
    %0 = asctile.tensor %arg0[%arg2] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
    %1 = asctile.tensor %arg1[] : !asctile.ptr<f32> -> !asctile.tensor<256xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %2 = asctile.splat %cst : f32 -> !asctile.tile<256xf32, UB>
    %3 = asctile.block_idx
    %c256 = arith.constant 256 : index
    %4 = arith.ceildivsi %arg2, %c256 : index
    %5 = asctile.block_num
    %6 = scf.for %arg3 = %3 to %4 step %5 iter_args(%arg4 = %2) -> (!asctile.tile<256xf32, UB>) {
      %7 = arith.muli %arg3, %c256 : index
      %8 = asctile.load %0[%7] {pad_value = 0.000000e+00 : f32} : !asctile.tensor<?xf32> -> !asctile.tile<256xf32, UB>
      %9 = arith.addf %arg4, %8 : !asctile.tile<256xf32, UB>
      scf.yield %9 : !asctile.tile<256xf32, UB>
    } {asctile.parallel = false, asctile.unroll_factor = 1 : i64}
    %c0 = arith.constant 0 : index
    asctile.atomic_rmw add, %6, %1[%c0] : !asctile.tile<256xf32, UB>, !asctile.tensor<256xf32>
    return
  }
}
