module {
  func.func @matmul_kernel(%arg0: !asctile.ptr<f32>, %arg1: !asctile.ptr<f32>, %arg2: !asctile.ptr<f32>) attributes {asctile.arg_names = ["a_ptr", "b_ptr", "c_ptr"], asctile.kernel} {
    %0 = asctile.tensor %arg0[] : !asctile.ptr<f32> -> !asctile.tensor<32x128xf32>
    %1 = asctile.tensor %arg1[] : !asctile.ptr<f32> -> !asctile.tensor<128x96xf32>
    %2 = asctile.tensor %arg2[] : !asctile.ptr<f32> -> !asctile.tensor<32x96xf32>
    %c0 = arith.constant 0 : index
    %3 = asctile.load %0[%c0, %c0] : !asctile.tensor<32x128xf32> -> !asctile.tile<32x128xf32, L0A>
    %4 = asctile.load %1[%c0, %c0] : !asctile.tensor<128x96xf32> -> !asctile.tile<128x96xf32, L0B>
    %5 = asctile.matmul %3, %4 : !asctile.tile<32x128xf32, L0A>, !asctile.tile<128x96xf32, L0B> -> !asctile.tile<32x96xf32, L0C>
    asctile.store %5, %2[%c0, %c0] : !asctile.tile<32x96xf32, L0C>, !asctile.tensor<32x96xf32>
    return
  }
}
