// Hand-written baseline for samples/layer_norm.py `layer_norm` (same arguments: x, gamma, beta,
// out, rows, eps; written for COLS = 1024 float32), the way an Ascend C expert writes it: gamma
// and beta are loaded and broadcast to 4 x COLS tiles once, before the loop; blocks of 4 rows are
// strided over the cores, with TQue depth 2 (ping = slot 0, pong = slot 1, the pong half
// guarded); mean and 1/std stay in a 4-element tile on the vector unit (no scalar GetValue per
// row), the input tile is reused as scratch for (x - mean)^2 and rstd before it is freed, and the
// output tile holds x - mean, so four 16 KB tiles plus gamma/beta fit UB with room to spare.
//
// Flags per slot s: MTE2->V s (x loaded), V->MTE2 s (x free; primed, drained), V->MTE3 s
// (y ready), MTE3->V s (y free; primed, drained); MTE2->V 2 for gamma and beta.
// V->V RAW: pipe_barrier V.
module {
  func.func @layer_norm(%x: !ascendc.gm<f32>, %gamma: !ascendc.gm<f32>, %beta: !ascendc.gm<f32>, %out: !ascendc.gm<f32>, %rows: index, %eps: f32) attributes {asctile.arg_names = ["x_ptr", "gamma_ptr", "beta_ptr", "out_ptr", "rows", "eps"], asctile.kernel} {
    %gb = ascendc.alloc_local {name = "gamma_rows", offset = 0 : i64} : !ascendc.local<4x1024xf32, VECCALC>
    %bb = ascendc.alloc_local {name = "beta_rows", offset = 16384 : i64} : !ascendc.local<4x1024xf32, VECCALC>
    %x0 = ascendc.alloc_local {name = "x_ping", offset = 32768 : i64} : !ascendc.local<4x1024xf32, VECIN>
    %y0 = ascendc.alloc_local {name = "y_ping", offset = 49152 : i64} : !ascendc.local<4x1024xf32, VECOUT>
    %x1 = ascendc.alloc_local {name = "x_pong", offset = 65536 : i64} : !ascendc.local<4x1024xf32, VECIN>
    %y1 = ascendc.alloc_local {name = "y_pong", offset = 81920 : i64} : !ascendc.local<4x1024xf32, VECOUT>
    %g = ascendc.alloc_local {name = "gamma", offset = 98304 : i64} : !ascendc.local<1x1024xf32, VECIN>
    %be = ascendc.alloc_local {name = "beta", offset = 102400 : i64} : !ascendc.local<1x1024xf32, VECIN>
    %stat = ascendc.alloc_local {name = "row_stat", offset = 106496 : i64} : !ascendc.local<4xf32, VECCALC>
    %fold = ascendc.alloc_local {name = "reduce_fold", offset = 106528 : i64} : !ascendc.local<4x64xf32, VECCALC>
    %bt = ascendc.alloc_local {name = "brcb", offset = 107552 : i64} : !ascendc.local<64xf32, VECCALC>
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1024 = arith.constant 1024 : index
    %elems = arith.constant 4096 : index
    %inv_cols = arith.constant 9.765625e-04 : f32
    ascendc.data_copy_in %g, %gamma[%c0], %c1024 : !ascendc.local<1x1024xf32, VECIN>, !ascendc.gm<f32>
    ascendc.data_copy_in %be, %beta[%c0], %c1024 : !ascendc.local<1x1024xf32, VECIN>, !ascendc.gm<f32>
    ascendc.set_flag MTE2 -> V, 2
    ascendc.wait_flag MTE2 -> V, 2
    // Broadcast of a row: one Copy of the row per destination row.
    ascendc.copy %gb, %g {dst_offset = 0 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_repeat_size = 8 : i64, src_stride = 1 : i64} : !ascendc.local<4x1024xf32, VECCALC>, !ascendc.local<1x1024xf32, VECIN>
    ascendc.copy %gb, %g {dst_offset = 1024 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_repeat_size = 8 : i64, src_stride = 1 : i64} : !ascendc.local<4x1024xf32, VECCALC>, !ascendc.local<1x1024xf32, VECIN>
    ascendc.copy %gb, %g {dst_offset = 2048 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_repeat_size = 8 : i64, src_stride = 1 : i64} : !ascendc.local<4x1024xf32, VECCALC>, !ascendc.local<1x1024xf32, VECIN>
    ascendc.copy %gb, %g {dst_offset = 3072 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_repeat_size = 8 : i64, src_stride = 1 : i64} : !ascendc.local<4x1024xf32, VECCALC>, !ascendc.local<1x1024xf32, VECIN>
    // Broadcast of a row: one Copy of the row per destination row.
    ascendc.copy %bb, %be {dst_offset = 0 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_repeat_size = 8 : i64, src_stride = 1 : i64} : !ascendc.local<4x1024xf32, VECCALC>, !ascendc.local<1x1024xf32, VECIN>
    ascendc.copy %bb, %be {dst_offset = 1024 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_repeat_size = 8 : i64, src_stride = 1 : i64} : !ascendc.local<4x1024xf32, VECCALC>, !ascendc.local<1x1024xf32, VECIN>
    ascendc.copy %bb, %be {dst_offset = 2048 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_repeat_size = 8 : i64, src_stride = 1 : i64} : !ascendc.local<4x1024xf32, VECCALC>, !ascendc.local<1x1024xf32, VECIN>
    ascendc.copy %bb, %be {dst_offset = 3072 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_repeat_size = 8 : i64, src_stride = 1 : i64} : !ascendc.local<4x1024xf32, VECCALC>, !ascendc.local<1x1024xf32, VECIN>
    %block = ascendc.get_block_idx
    %cores = ascendc.get_block_num
    %blocks = arith.ceildivsi %rows, %c4 : index
    %step = arith.addi %cores, %cores : index
    ascendc.set_flag V -> MTE2, 0
    ascendc.set_flag V -> MTE2, 1
    ascendc.set_flag MTE3 -> V, 0
    ascendc.set_flag MTE3 -> V, 1
    scf.for %b0 = %block to %blocks step %step {
      // ping: rows [4b, 4b + 4)
      %r0 = arith.muli %b0, %c4 : index
      %left0 = arith.subi %rows, %r0 : index
      %k0 = arith.minsi %left0, %c4 : index
      %n0 = arith.muli %k0, %c1024 : index
      %off0 = arith.muli %r0, %c1024 : index
      ascendc.wait_flag V -> MTE2, 0
      ascendc.data_copy_in %x0, %x[%off0], %n0 : !ascendc.local<4x1024xf32, VECIN>, !ascendc.gm<f32>
      ascendc.set_flag MTE2 -> V, 0
      ascendc.wait_flag MTE2 -> V, 0
      ascendc.wait_flag MTE3 -> V, 0
      ascendc.pipe_barrier V
      // SUM of each row: fold the 16 chunks of 64 into one repeat per row, then WholeReduce
      ascendc.binary_repeat Add %fold, %x0, %x0 mask 64 repeat 4 params [1, 1, 1, 8, 128, 128] {src1_offset = 64 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>, !ascendc.local<4x1024xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %x0 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 128 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %x0 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 192 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %x0 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 256 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %x0 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 320 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %x0 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 384 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %x0 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 448 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %x0 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 512 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %x0 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 576 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %x0 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 640 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %x0 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 704 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %x0 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 768 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %x0 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 832 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %x0 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 896 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %x0 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 960 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.whole_reduce SUM %stat, %fold mask 64 repeat 4 strides(1, 1, 8) : !ascendc.local<4xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>
      ascendc.pipe_barrier V
      ascendc.muls %stat, %stat, %inv_cols, %c4 : !ascendc.local<4xf32, VECCALC>, !ascendc.local<4xf32, VECCALC>, f32
      ascendc.pipe_barrier V
      // Broadcast of a column: Brcb puts row r's value in block r, Copy repeats it along row r.
      ascendc.brcb %bt, %stat {dst_blk_stride = 1 : i64, dst_rep_stride = 8 : i64, repeat_time = 1 : i64} : !ascendc.local<64xf32, VECCALC>, !ascendc.local<4xf32, VECCALC>
      ascendc.pipe_barrier V
      ascendc.copy %y0, %bt {dst_offset = 0 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 0 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<4x1024xf32, VECOUT>, !ascendc.local<64xf32, VECCALC>
      ascendc.copy %y0, %bt {dst_offset = 1024 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 8 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<4x1024xf32, VECOUT>, !ascendc.local<64xf32, VECCALC>
      ascendc.copy %y0, %bt {dst_offset = 2048 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 16 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<4x1024xf32, VECOUT>, !ascendc.local<64xf32, VECCALC>
      ascendc.copy %y0, %bt {dst_offset = 3072 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 24 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<4x1024xf32, VECOUT>, !ascendc.local<64xf32, VECCALC>
      ascendc.pipe_barrier V
      ascendc.sub %y0, %x0, %y0, %elems : !ascendc.local<4x1024xf32, VECOUT>, !ascendc.local<4x1024xf32, VECIN>, !ascendc.local<4x1024xf32, VECOUT>
      ascendc.pipe_barrier V
      ascendc.mul %x0, %y0, %y0, %elems : !ascendc.local<4x1024xf32, VECIN>, !ascendc.local<4x1024xf32, VECOUT>, !ascendc.local<4x1024xf32, VECOUT>
      ascendc.pipe_barrier V
      // SUM of each row: fold the 16 chunks of 64 into one repeat per row, then WholeReduce
      ascendc.binary_repeat Add %fold, %x0, %x0 mask 64 repeat 4 params [1, 1, 1, 8, 128, 128] {src1_offset = 64 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>, !ascendc.local<4x1024xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %x0 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 128 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %x0 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 192 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %x0 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 256 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %x0 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 320 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %x0 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 384 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %x0 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 448 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %x0 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 512 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %x0 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 576 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %x0 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 640 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %x0 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 704 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %x0 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 768 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %x0 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 832 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %x0 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 896 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %x0 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 960 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.whole_reduce SUM %stat, %fold mask 64 repeat 4 strides(1, 1, 8) : !ascendc.local<4xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>
      ascendc.pipe_barrier V
      ascendc.muls %stat, %stat, %inv_cols, %c4 : !ascendc.local<4xf32, VECCALC>, !ascendc.local<4xf32, VECCALC>, f32
      ascendc.pipe_barrier V
      ascendc.adds %stat, %stat, %eps, %c4 : !ascendc.local<4xf32, VECCALC>, !ascendc.local<4xf32, VECCALC>, f32
      ascendc.pipe_barrier V
      ascendc.rsqrt %stat, %stat, %c4 : !ascendc.local<4xf32, VECCALC>, !ascendc.local<4xf32, VECCALC>
      ascendc.pipe_barrier V
      // Broadcast of a column: Brcb puts row r's value in block r, Copy repeats it along row r.
      ascendc.brcb %bt, %stat {dst_blk_stride = 1 : i64, dst_rep_stride = 8 : i64, repeat_time = 1 : i64} : !ascendc.local<64xf32, VECCALC>, !ascendc.local<4xf32, VECCALC>
      ascendc.pipe_barrier V
      ascendc.copy %x0, %bt {dst_offset = 0 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 0 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<4x1024xf32, VECIN>, !ascendc.local<64xf32, VECCALC>
      ascendc.copy %x0, %bt {dst_offset = 1024 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 8 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<4x1024xf32, VECIN>, !ascendc.local<64xf32, VECCALC>
      ascendc.copy %x0, %bt {dst_offset = 2048 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 16 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<4x1024xf32, VECIN>, !ascendc.local<64xf32, VECCALC>
      ascendc.copy %x0, %bt {dst_offset = 3072 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 24 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<4x1024xf32, VECIN>, !ascendc.local<64xf32, VECCALC>
      ascendc.pipe_barrier V
      ascendc.mul %y0, %y0, %x0, %elems : !ascendc.local<4x1024xf32, VECOUT>, !ascendc.local<4x1024xf32, VECOUT>, !ascendc.local<4x1024xf32, VECIN>
      ascendc.set_flag V -> MTE2, 0
      ascendc.pipe_barrier V
      ascendc.mul %y0, %y0, %gb, %elems : !ascendc.local<4x1024xf32, VECOUT>, !ascendc.local<4x1024xf32, VECOUT>, !ascendc.local<4x1024xf32, VECCALC>
      ascendc.pipe_barrier V
      ascendc.add %y0, %y0, %bb, %elems : !ascendc.local<4x1024xf32, VECOUT>, !ascendc.local<4x1024xf32, VECOUT>, !ascendc.local<4x1024xf32, VECCALC>
      ascendc.set_flag V -> MTE3, 0
      ascendc.wait_flag V -> MTE3, 0
      ascendc.data_copy_out %out[%off0], %y0, %n0 : !ascendc.gm<f32>, !ascendc.local<4x1024xf32, VECOUT>
      ascendc.set_flag MTE3 -> V, 0
      // pong: block b + block_num, when there is one
      %b1 = arith.addi %b0, %cores : index
      %has1 = arith.cmpi slt, %b1, %blocks : index
      scf.if %has1 {
        %r1 = arith.muli %b1, %c4 : index
        %left1 = arith.subi %rows, %r1 : index
        %k1 = arith.minsi %left1, %c4 : index
        %n1 = arith.muli %k1, %c1024 : index
        %off1 = arith.muli %r1, %c1024 : index
        ascendc.wait_flag V -> MTE2, 1
        ascendc.data_copy_in %x1, %x[%off1], %n1 : !ascendc.local<4x1024xf32, VECIN>, !ascendc.gm<f32>
        ascendc.set_flag MTE2 -> V, 1
        ascendc.wait_flag MTE2 -> V, 1
        ascendc.wait_flag MTE3 -> V, 1
        ascendc.pipe_barrier V
        // SUM of each row: fold the 16 chunks of 64 into one repeat per row, then WholeReduce
        ascendc.binary_repeat Add %fold, %x1, %x1 mask 64 repeat 4 params [1, 1, 1, 8, 128, 128] {src1_offset = 64 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>, !ascendc.local<4x1024xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %x1 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 128 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %x1 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 192 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %x1 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 256 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %x1 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 320 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %x1 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 384 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %x1 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 448 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %x1 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 512 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %x1 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 576 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %x1 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 640 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %x1 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 704 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %x1 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 768 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %x1 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 832 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %x1 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 896 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %x1 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 960 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.whole_reduce SUM %stat, %fold mask 64 repeat 4 strides(1, 1, 8) : !ascendc.local<4xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>
        ascendc.pipe_barrier V
        ascendc.muls %stat, %stat, %inv_cols, %c4 : !ascendc.local<4xf32, VECCALC>, !ascendc.local<4xf32, VECCALC>, f32
        ascendc.pipe_barrier V
        // Broadcast of a column: Brcb puts row r's value in block r, Copy repeats it along row r.
        ascendc.brcb %bt, %stat {dst_blk_stride = 1 : i64, dst_rep_stride = 8 : i64, repeat_time = 1 : i64} : !ascendc.local<64xf32, VECCALC>, !ascendc.local<4xf32, VECCALC>
        ascendc.pipe_barrier V
        ascendc.copy %y1, %bt {dst_offset = 0 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 0 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<4x1024xf32, VECOUT>, !ascendc.local<64xf32, VECCALC>
        ascendc.copy %y1, %bt {dst_offset = 1024 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 8 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<4x1024xf32, VECOUT>, !ascendc.local<64xf32, VECCALC>
        ascendc.copy %y1, %bt {dst_offset = 2048 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 16 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<4x1024xf32, VECOUT>, !ascendc.local<64xf32, VECCALC>
        ascendc.copy %y1, %bt {dst_offset = 3072 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 24 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<4x1024xf32, VECOUT>, !ascendc.local<64xf32, VECCALC>
        ascendc.pipe_barrier V
        ascendc.sub %y1, %x1, %y1, %elems : !ascendc.local<4x1024xf32, VECOUT>, !ascendc.local<4x1024xf32, VECIN>, !ascendc.local<4x1024xf32, VECOUT>
        ascendc.pipe_barrier V
        ascendc.mul %x1, %y1, %y1, %elems : !ascendc.local<4x1024xf32, VECIN>, !ascendc.local<4x1024xf32, VECOUT>, !ascendc.local<4x1024xf32, VECOUT>
        ascendc.pipe_barrier V
        // SUM of each row: fold the 16 chunks of 64 into one repeat per row, then WholeReduce
        ascendc.binary_repeat Add %fold, %x1, %x1 mask 64 repeat 4 params [1, 1, 1, 8, 128, 128] {src1_offset = 64 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>, !ascendc.local<4x1024xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %x1 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 128 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %x1 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 192 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %x1 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 256 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %x1 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 320 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %x1 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 384 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %x1 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 448 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %x1 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 512 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %x1 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 576 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %x1 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 640 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %x1 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 704 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %x1 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 768 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %x1 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 832 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %x1 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 896 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %x1 mask 64 repeat 4 params [1, 1, 1, 8, 8, 128] {src1_offset = 960 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x1024xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.whole_reduce SUM %stat, %fold mask 64 repeat 4 strides(1, 1, 8) : !ascendc.local<4xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>
        ascendc.pipe_barrier V
        ascendc.muls %stat, %stat, %inv_cols, %c4 : !ascendc.local<4xf32, VECCALC>, !ascendc.local<4xf32, VECCALC>, f32
        ascendc.pipe_barrier V
        ascendc.adds %stat, %stat, %eps, %c4 : !ascendc.local<4xf32, VECCALC>, !ascendc.local<4xf32, VECCALC>, f32
        ascendc.pipe_barrier V
        ascendc.rsqrt %stat, %stat, %c4 : !ascendc.local<4xf32, VECCALC>, !ascendc.local<4xf32, VECCALC>
        ascendc.pipe_barrier V
        // Broadcast of a column: Brcb puts row r's value in block r, Copy repeats it along row r.
        ascendc.brcb %bt, %stat {dst_blk_stride = 1 : i64, dst_rep_stride = 8 : i64, repeat_time = 1 : i64} : !ascendc.local<64xf32, VECCALC>, !ascendc.local<4xf32, VECCALC>
        ascendc.pipe_barrier V
        ascendc.copy %x1, %bt {dst_offset = 0 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 0 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<4x1024xf32, VECIN>, !ascendc.local<64xf32, VECCALC>
        ascendc.copy %x1, %bt {dst_offset = 1024 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 8 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<4x1024xf32, VECIN>, !ascendc.local<64xf32, VECCALC>
        ascendc.copy %x1, %bt {dst_offset = 2048 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 16 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<4x1024xf32, VECIN>, !ascendc.local<64xf32, VECCALC>
        ascendc.copy %x1, %bt {dst_offset = 3072 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 24 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<4x1024xf32, VECIN>, !ascendc.local<64xf32, VECCALC>
        ascendc.pipe_barrier V
        ascendc.mul %y1, %y1, %x1, %elems : !ascendc.local<4x1024xf32, VECOUT>, !ascendc.local<4x1024xf32, VECOUT>, !ascendc.local<4x1024xf32, VECIN>
        ascendc.set_flag V -> MTE2, 1
        ascendc.pipe_barrier V
        ascendc.mul %y1, %y1, %gb, %elems : !ascendc.local<4x1024xf32, VECOUT>, !ascendc.local<4x1024xf32, VECOUT>, !ascendc.local<4x1024xf32, VECCALC>
        ascendc.pipe_barrier V
        ascendc.add %y1, %y1, %bb, %elems : !ascendc.local<4x1024xf32, VECOUT>, !ascendc.local<4x1024xf32, VECOUT>, !ascendc.local<4x1024xf32, VECCALC>
        ascendc.set_flag V -> MTE3, 1
        ascendc.wait_flag V -> MTE3, 1
        ascendc.data_copy_out %out[%off1], %y1, %n1 : !ascendc.gm<f32>, !ascendc.local<4x1024xf32, VECOUT>
        ascendc.set_flag MTE3 -> V, 1
      }
      ascendc.pipe_barrier V
    }
    ascendc.wait_flag V -> MTE2, 0
    ascendc.wait_flag V -> MTE2, 1
    ascendc.wait_flag MTE3 -> V, 0
    ascendc.wait_flag MTE3 -> V, 1
    return
  }
}
