// Hand-written baseline for samples/matmul_ktiled.py with BM = BN = 128, BK = 64 (float16 inputs,
// float32 output), written the way an Ascend C expert writes a K-tiled cube kernel: two L1 slots
// and two L0A/L0B slots (ping = 0, pong = 1), the K loop unrolled by the two slots, the L0C
// accumulator initialised by the first mmad (cmatrixInitVal) and stored by the fixpipe.
// Arguments: a (M x K), b (K x N), c (M x N), M, N, K; M, N multiples of 128, K of 128.
//
// Flags (one event id per slot and direction):
//   MTE2 -> MTE1 s : A/B of slot s are in L1          MTE1 -> MTE2 s : L1 slot s free (primed, drained)
//   MTE1 -> M    s : A/B of slot s are in L0A/L0B     M -> MTE1    s : L0 slot s free (primed, drained)
//   M -> FIX     0 : the block's accumulator is done  FIX -> M     0 : the accumulator is free again
module {
  func.func @matmul_ktiled(%a: !ascendc.gm<f16>, %b: !ascendc.gm<f16>, %c: !ascendc.gm<f32>, %M: index,
                           %N: index, %K: index) attributes {asctile.arg_names = ["a_ptr", "b_ptr", "c_ptr", "M", "N", "K"], asctile.kernel} {
    %a1_0 = ascendc.alloc_local {name = "a_l1_ping", offset = 0 : i64} : !ascendc.local<128x64xf16, A1>
    %b1_0 = ascendc.alloc_local {name = "b_l1_ping", offset = 16384 : i64} : !ascendc.local<64x128xf16, B1>
    %a1_1 = ascendc.alloc_local {name = "a_l1_pong", offset = 32768 : i64} : !ascendc.local<128x64xf16, A1>
    %b1_1 = ascendc.alloc_local {name = "b_l1_pong", offset = 49152 : i64} : !ascendc.local<64x128xf16, B1>
    %a0_0 = ascendc.alloc_local {name = "a_l0_ping", offset = 0 : i64} : !ascendc.local<128x64xf16, A2>
    %a0_1 = ascendc.alloc_local {name = "a_l0_pong", offset = 16384 : i64} : !ascendc.local<128x64xf16, A2>
    %b0_0 = ascendc.alloc_local {name = "b_l0_ping", offset = 0 : i64} : !ascendc.local<64x128xf16, B2>
    %b0_1 = ascendc.alloc_local {name = "b_l0_pong", offset = 16384 : i64} : !ascendc.local<64x128xf16, B2>
    %acc = ascendc.alloc_local {name = "acc", offset = 0 : i64} : !ascendc.local<128x128xf32, CO1>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %true = arith.constant true
    %false = arith.constant false
    %blk = ascendc.get_block_idx
    %nblk = ascendc.get_block_num
    %bm = arith.divsi %M, %c128 : index
    %bn = arith.divsi %N, %c128 : index
    %tiles = arith.muli %bm, %bn : index
    ascendc.set_flag MTE1 -> MTE2, 0
    ascendc.set_flag MTE1 -> MTE2, 1
    ascendc.set_flag M -> MTE1, 0
    ascendc.set_flag M -> MTE1, 1
    ascendc.set_flag FIX -> M, 0
    scf.for %t = %blk to %tiles step %nblk {
      %ti = arith.divsi %t, %bn : index
      %tj = arith.remsi %t, %bn : index
      %m0 = arith.muli %ti, %c128 : index
      %n0 = arith.muli %tj, %c128 : index
      %arow = arith.muli %m0, %K : index
      ascendc.wait_flag FIX -> M, 0
      scf.for %k = %c0 to %K step %c128 {
        // ping: K columns [k, k + 64)
        %aoff0 = arith.addi %arow, %k : index
        %krow0 = arith.muli %k, %N : index
        %boff0 = arith.addi %krow0, %n0 : index
        ascendc.wait_flag MTE1 -> MTE2, 0
        ascendc.data_copy_in %a1_0, %a[%aoff0], %c64 rows %c128 stride %K : !ascendc.local<128x64xf16, A1>, !ascendc.gm<f16>
        ascendc.data_copy_in %b1_0, %b[%boff0], %c128 rows %c64 stride %N : !ascendc.local<64x128xf16, B1>, !ascendc.gm<f16>
        ascendc.set_flag MTE2 -> MTE1, 0
        ascendc.wait_flag MTE2 -> MTE1, 0
        ascendc.wait_flag M -> MTE1, 0
        ascendc.load_data %a0_0, %a1_0 : !ascendc.local<128x64xf16, A2>, !ascendc.local<128x64xf16, A1>
        ascendc.load_data %b0_0, %b1_0 : !ascendc.local<64x128xf16, B2>, !ascendc.local<64x128xf16, B1>
        ascendc.set_flag MTE1 -> MTE2, 0
        ascendc.set_flag MTE1 -> M, 0
        ascendc.wait_flag MTE1 -> M, 0
        %first = arith.cmpi eq, %k, %c0 : index
        ascendc.mmad %acc, %a0_0, %b0_0, %first : !ascendc.local<128x128xf32, CO1>, !ascendc.local<128x64xf16, A2>, !ascendc.local<64x128xf16, B2>
        ascendc.set_flag M -> MTE1, 0
        // pong: K columns [k + 64, k + 128)
        %k1 = arith.addi %k, %c64 : index
        %aoff1 = arith.addi %arow, %k1 : index
        %krow1 = arith.muli %k1, %N : index
        %boff1 = arith.addi %krow1, %n0 : index
        ascendc.wait_flag MTE1 -> MTE2, 1
        ascendc.data_copy_in %a1_1, %a[%aoff1], %c64 rows %c128 stride %K : !ascendc.local<128x64xf16, A1>, !ascendc.gm<f16>
        ascendc.data_copy_in %b1_1, %b[%boff1], %c128 rows %c64 stride %N : !ascendc.local<64x128xf16, B1>, !ascendc.gm<f16>
        ascendc.set_flag MTE2 -> MTE1, 1
        ascendc.wait_flag MTE2 -> MTE1, 1
        ascendc.wait_flag M -> MTE1, 1
        ascendc.load_data %a0_1, %a1_1 : !ascendc.local<128x64xf16, A2>, !ascendc.local<128x64xf16, A1>
        ascendc.load_data %b0_1, %b1_1 : !ascendc.local<64x128xf16, B2>, !ascendc.local<64x128xf16, B1>
        ascendc.set_flag MTE1 -> MTE2, 1
        ascendc.set_flag MTE1 -> M, 1
        ascendc.wait_flag MTE1 -> M, 1
        ascendc.pipe_barrier M
        ascendc.mmad %acc, %a0_1, %b0_1, %false : !ascendc.local<128x128xf32, CO1>, !ascendc.local<128x64xf16, A2>, !ascendc.local<64x128xf16, B2>
        ascendc.set_flag M -> MTE1, 1
        ascendc.pipe_barrier M
      }
      ascendc.set_flag M -> FIX, 0
      ascendc.wait_flag M -> FIX, 0
      %coff0 = arith.muli %m0, %N : index
      %coff = arith.addi %coff0, %n0 : index
      ascendc.fixpipe %c[%coff], %acc, %c128 rows %c128 stride %N : !ascendc.gm<f32>, !ascendc.local<128x128xf32, CO1>
      ascendc.set_flag FIX -> M, 0
    }
    ascendc.wait_flag MTE1 -> MTE2, 0
    ascendc.wait_flag MTE1 -> MTE2, 1
    ascendc.wait_flag M -> MTE1, 0
    ascendc.wait_flag M -> MTE1, 1
    ascendc.wait_flag FIX -> M, 0
    return
  }
}
