// Hand-written baseline for samples/rms_norm.py (same arguments: x, gamma, out, rows; written for
// ROWS = 8, COLS = 1024 float32, eps = 1e-6), the way an Ascend C expert writes it: gamma is
// loaded and broadcast to a ROWS x COLS tile once, before the loop; blocks of 8 rows are strided
// over the cores like the sample, with TQue depth 2 (ping = slot 0, pong = slot 1, the pong half
// guarded); the row statistics stay in an 8-element tile (Muls/Adds/Rsqrt on 8 elements) and the
// output tile doubles as the x*x scratch, so there is no extra full-size buffer.
//
// Flags per slot s: MTE2->V s (x loaded), V->MTE2 s (x free; primed, drained), V->MTE3 s
// (y ready), MTE3->V s (y free; primed, drained); MTE2->V 2 for gamma.  V->V RAW: pipe_barrier V.
module {
  func.func @rms_norm(%x: !ascendc.gm<f32>, %gamma: !ascendc.gm<f32>, %out: !ascendc.gm<f32>, %rows: index) attributes {asctile.arg_names = ["x_ptr", "gamma_ptr", "out_ptr", "rows"], asctile.kernel} {
    %gb = ascendc.alloc_local {name = "gamma_rows", offset = 0 : i64} : !ascendc.local<8x1024xf32, VECCALC>
    %x0 = ascendc.alloc_local {name = "x_ping", offset = 32768 : i64} : !ascendc.local<8x1024xf32, VECIN>
    %y0 = ascendc.alloc_local {name = "y_ping", offset = 65536 : i64} : !ascendc.local<8x1024xf32, VECOUT>
    %x1 = ascendc.alloc_local {name = "x_pong", offset = 98304 : i64} : !ascendc.local<8x1024xf32, VECIN>
    %y1 = ascendc.alloc_local {name = "y_pong", offset = 131072 : i64} : !ascendc.local<8x1024xf32, VECOUT>
    %g = ascendc.alloc_local {name = "gamma", offset = 163840 : i64} : !ascendc.local<1x1024xf32, VECIN>
    %r = ascendc.alloc_local {name = "row_stat", offset = 167936 : i64} : !ascendc.local<8xf32, VECCALC>
    %fold = ascendc.alloc_local {name = "reduce_fold", offset = 167968 : i64} : !ascendc.local<8x64xf32, VECCALC>
    %bt = ascendc.alloc_local {name = "brcb", offset = 170016 : i64} : !ascendc.local<64xf32, VECCALC>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c1024 = arith.constant 1024 : index
    %elems = arith.constant 8192 : index
    %inv_cols = arith.constant 9.765625e-04 : f32
    %eps = arith.constant 1.0e-06 : f32
    ascendc.data_copy_in %g, %gamma[%c0], %c1024 : !ascendc.local<1x1024xf32, VECIN>, !ascendc.gm<f32>
    ascendc.set_flag MTE2 -> V, 2
    ascendc.wait_flag MTE2 -> V, 2
    // Broadcast of a row: one Copy of the row per destination row.
    ascendc.copy %gb, %g {dst_offset = 0 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_repeat_size = 8 : i64, src_stride = 1 : i64} : !ascendc.local<8x1024xf32, VECCALC>, !ascendc.local<1x1024xf32, VECIN>
    ascendc.copy %gb, %g {dst_offset = 1024 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_repeat_size = 8 : i64, src_stride = 1 : i64} : !ascendc.local<8x1024xf32, VECCALC>, !ascendc.local<1x1024xf32, VECIN>
    ascendc.copy %gb, %g {dst_offset = 2048 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_repeat_size = 8 : i64, src_stride = 1 : i64} : !ascendc.local<8x1024xf32, VECCALC>, !ascendc.local<1x1024xf32, VECIN>
    ascendc.copy %gb, %g {dst_offset = 3072 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_repeat_size = 8 : i64, src_stride = 1 : i64} : !ascendc.local<8x1024xf32, VECCALC>, !ascendc.local<1x1024xf32, VECIN>
    ascendc.copy %gb, %g {dst_offset = 4096 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_repeat_size = 8 : i64, src_stride = 1 : i64} : !ascendc.local<8x1024xf32, VECCALC>, !ascendc.local<1x1024xf32, VECIN>
    ascendc.copy %gb, %g {dst_offset = 5120 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_repeat_size = 8 : i64, src_stride = 1 : i64} : !ascendc.local<8x1024xf32, VECCALC>, !ascendc.local<1x1024xf32, VECIN>
    ascendc.copy %gb, %g {dst_offset = 6144 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_repeat_size = 8 : i64, src_stride = 1 : i64} : !ascendc.local<8x1024xf32, VECCALC>, !ascendc.local<1x1024xf32, VECIN>
    ascendc.copy %gb, %g {dst_offset = 7168 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_repeat_size = 8 : i64, src_stride = 1 : i64} : !ascendc.local<8x1024xf32, VECCALC>, !ascendc.local<1x1024xf32, VECIN>
    %block = ascendc.get_block_idx
    %cores = ascendc.get_block_num
    %blocks = arith.ceildivsi %rows, %c8 : index
    %step = arith.addi %cores, %cores : index
    ascendc.set_flag V -> MTE2, 0
    ascendc.set_flag V -> MTE2, 1
    ascendc.set_flag MTE3 -> V, 0
    ascendc.set_flag MTE3 -> V, 1
    ascendc.pipe_barrier V
    scf.for %b = %block to %blocks step %step {
      // ping: rows [8b, 8b + 8)
      %r0 = arith.muli %b, %c8 : index
      %left0 = arith.subi %rows, %r0 : index
      %k0 = arith.minsi %left0, %c8 : index
      %n0 = arith.muli %k0, %c1024 : index
      %off0 = arith.muli %r0, %c1024 : index
      ascendc.wait_flag V -> MTE2, 0
      ascendc.data_copy_in %x0, %x[%off0], %n0 : !ascendc.local<8x1024xf32, VECIN>, !ascendc.gm<f32>
      ascendc.set_flag MTE2 -> V, 0
      ascendc.wait_flag MTE2 -> V, 0
      ascendc.wait_flag MTE3 -> V, 0
      ascendc.mul %y0, %x0, %x0, %elems : !ascendc.local<8x1024xf32, VECOUT>, !ascendc.local<8x1024xf32, VECIN>, !ascendc.local<8x1024xf32, VECIN>
      ascendc.pipe_barrier V
      // SUM of each row: fold the 16 chunks of 64 into one repeat per row, then WholeReduce
      ascendc.binary_repeat Add %fold, %y0, %y0 mask 64 repeat 8 params [1, 1, 1, 8, 128, 128] {src1_offset = 64 : i64} : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x1024xf32, VECOUT>, !ascendc.local<8x1024xf32, VECOUT>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %y0 mask 64 repeat 8 params [1, 1, 1, 8, 8, 128] {src1_offset = 128 : i64} : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x1024xf32, VECOUT>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %y0 mask 64 repeat 8 params [1, 1, 1, 8, 8, 128] {src1_offset = 192 : i64} : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x1024xf32, VECOUT>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %y0 mask 64 repeat 8 params [1, 1, 1, 8, 8, 128] {src1_offset = 256 : i64} : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x1024xf32, VECOUT>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %y0 mask 64 repeat 8 params [1, 1, 1, 8, 8, 128] {src1_offset = 320 : i64} : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x1024xf32, VECOUT>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %y0 mask 64 repeat 8 params [1, 1, 1, 8, 8, 128] {src1_offset = 384 : i64} : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x1024xf32, VECOUT>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %y0 mask 64 repeat 8 params [1, 1, 1, 8, 8, 128] {src1_offset = 448 : i64} : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x1024xf32, VECOUT>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %y0 mask 64 repeat 8 params [1, 1, 1, 8, 8, 128] {src1_offset = 512 : i64} : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x1024xf32, VECOUT>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %y0 mask 64 repeat 8 params [1, 1, 1, 8, 8, 128] {src1_offset = 576 : i64} : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x1024xf32, VECOUT>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %y0 mask 64 repeat 8 params [1, 1, 1, 8, 8, 128] {src1_offset = 640 : i64} : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x1024xf32, VECOUT>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %y0 mask 64 repeat 8 params [1, 1, 1, 8, 8, 128] {src1_offset = 704 : i64} : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x1024xf32, VECOUT>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %y0 mask 64 repeat 8 params [1, 1, 1, 8, 8, 128] {src1_offset = 768 : i64} : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x1024xf32, VECOUT>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %y0 mask 64 repeat 8 params [1, 1, 1, 8, 8, 128] {src1_offset = 832 : i64} : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x1024xf32, VECOUT>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %y0 mask 64 repeat 8 params [1, 1, 1, 8, 8, 128] {src1_offset = 896 : i64} : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x1024xf32, VECOUT>
      ascendc.pipe_barrier V
      ascendc.binary_repeat Add %fold, %fold, %y0 mask 64 repeat 8 params [1, 1, 1, 8, 8, 128] {src1_offset = 960 : i64} : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x1024xf32, VECOUT>
      ascendc.pipe_barrier V
      ascendc.whole_reduce SUM %r, %fold mask 64 repeat 8 strides(1, 1, 8) : !ascendc.local<8xf32, VECCALC>, !ascendc.local<8x64xf32, VECCALC>
      ascendc.pipe_barrier V
      ascendc.muls %r, %r, %inv_cols, %c8 : !ascendc.local<8xf32, VECCALC>, !ascendc.local<8xf32, VECCALC>, f32
      ascendc.pipe_barrier V
      ascendc.adds %r, %r, %eps, %c8 : !ascendc.local<8xf32, VECCALC>, !ascendc.local<8xf32, VECCALC>, f32
      ascendc.pipe_barrier V
      ascendc.rsqrt %r, %r, %c8 : !ascendc.local<8xf32, VECCALC>, !ascendc.local<8xf32, VECCALC>
      ascendc.pipe_barrier V
      // Broadcast of a column: Brcb puts row r's value in block r, Copy repeats it along row r.
      ascendc.brcb %bt, %r {dst_blk_stride = 1 : i64, dst_rep_stride = 8 : i64, repeat_time = 1 : i64} : !ascendc.local<64xf32, VECCALC>, !ascendc.local<8xf32, VECCALC>
      ascendc.pipe_barrier V
      ascendc.copy %y0, %bt {dst_offset = 0 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 0 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<8x1024xf32, VECOUT>, !ascendc.local<64xf32, VECCALC>
      ascendc.copy %y0, %bt {dst_offset = 1024 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 8 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<8x1024xf32, VECOUT>, !ascendc.local<64xf32, VECCALC>
      ascendc.copy %y0, %bt {dst_offset = 2048 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 16 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<8x1024xf32, VECOUT>, !ascendc.local<64xf32, VECCALC>
      ascendc.copy %y0, %bt {dst_offset = 3072 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 24 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<8x1024xf32, VECOUT>, !ascendc.local<64xf32, VECCALC>
      ascendc.copy %y0, %bt {dst_offset = 4096 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 32 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<8x1024xf32, VECOUT>, !ascendc.local<64xf32, VECCALC>
      ascendc.copy %y0, %bt {dst_offset = 5120 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 40 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<8x1024xf32, VECOUT>, !ascendc.local<64xf32, VECCALC>
      ascendc.copy %y0, %bt {dst_offset = 6144 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 48 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<8x1024xf32, VECOUT>, !ascendc.local<64xf32, VECCALC>
      ascendc.copy %y0, %bt {dst_offset = 7168 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 56 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<8x1024xf32, VECOUT>, !ascendc.local<64xf32, VECCALC>
      ascendc.pipe_barrier V
      ascendc.mul %y0, %x0, %y0, %elems : !ascendc.local<8x1024xf32, VECOUT>, !ascendc.local<8x1024xf32, VECIN>, !ascendc.local<8x1024xf32, VECOUT>
      ascendc.set_flag V -> MTE2, 0
      ascendc.pipe_barrier V
      ascendc.mul %y0, %y0, %gb, %elems : !ascendc.local<8x1024xf32, VECOUT>, !ascendc.local<8x1024xf32, VECOUT>, !ascendc.local<8x1024xf32, VECCALC>
      ascendc.set_flag V -> MTE3, 0
      ascendc.wait_flag V -> MTE3, 0
      ascendc.data_copy_out %out[%off0], %y0, %n0 : !ascendc.gm<f32>, !ascendc.local<8x1024xf32, VECOUT>
      ascendc.set_flag MTE3 -> V, 0
      // pong: block b + block_num, when there is one
      %b1 = arith.addi %b, %cores : index
      %has1 = arith.cmpi slt, %b1, %blocks : index
      scf.if %has1 {
        %r1 = arith.muli %b1, %c8 : index
        %left1 = arith.subi %rows, %r1 : index
        %k1 = arith.minsi %left1, %c8 : index
        %n1 = arith.muli %k1, %c1024 : index
        %off1 = arith.muli %r1, %c1024 : index
        ascendc.wait_flag V -> MTE2, 1
        ascendc.data_copy_in %x1, %x[%off1], %n1 : !ascendc.local<8x1024xf32, VECIN>, !ascendc.gm<f32>
        ascendc.set_flag MTE2 -> V, 1
        ascendc.wait_flag MTE2 -> V, 1
        ascendc.wait_flag MTE3 -> V, 1
        ascendc.pipe_barrier V
        ascendc.mul %y1, %x1, %x1, %elems : !ascendc.local<8x1024xf32, VECOUT>, !ascendc.local<8x1024xf32, VECIN>, !ascendc.local<8x1024xf32, VECIN>
        ascendc.pipe_barrier V
        // SUM of each row: fold the 16 chunks of 64 into one repeat per row, then WholeReduce
        ascendc.binary_repeat Add %fold, %y1, %y1 mask 64 repeat 8 params [1, 1, 1, 8, 128, 128] {src1_offset = 64 : i64} : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x1024xf32, VECOUT>, !ascendc.local<8x1024xf32, VECOUT>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %y1 mask 64 repeat 8 params [1, 1, 1, 8, 8, 128] {src1_offset = 128 : i64} : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x1024xf32, VECOUT>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %y1 mask 64 repeat 8 params [1, 1, 1, 8, 8, 128] {src1_offset = 192 : i64} : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x1024xf32, VECOUT>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %y1 mask 64 repeat 8 params [1, 1, 1, 8, 8, 128] {src1_offset = 256 : i64} : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x1024xf32, VECOUT>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %y1 mask 64 repeat 8 params [1, 1, 1, 8, 8, 128] {src1_offset = 320 : i64} : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x1024xf32, VECOUT>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %y1 mask 64 repeat 8 params [1, 1, 1, 8, 8, 128] {src1_offset = 384 : i64} : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x1024xf32, VECOUT>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %y1 mask 64 repeat 8 params [1, 1, 1, 8, 8, 128] {src1_offset = 448 : i64} : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x1024xf32, VECOUT>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %y1 mask 64 repeat 8 params [1, 1, 1, 8, 8, 128] {src1_offset = 512 : i64} : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x1024xf32, VECOUT>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %y1 mask 64 repeat 8 params [1, 1, 1, 8, 8, 128] {src1_offset = 576 : i64} : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x1024xf32, VECOUT>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %y1 mask 64 repeat 8 params [1, 1, 1, 8, 8, 128] {src1_offset = 640 : i64} : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x1024xf32, VECOUT>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %y1 mask 64 repeat 8 params [1, 1, 1, 8, 8, 128] {src1_offset = 704 : i64} : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x1024xf32, VECOUT>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %y1 mask 64 repeat 8 params [1, 1, 1, 8, 8, 128] {src1_offset = 768 : i64} : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x1024xf32, VECOUT>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %y1 mask 64 repeat 8 params [1, 1, 1, 8, 8, 128] {src1_offset = 832 : i64} : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x1024xf32, VECOUT>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %y1 mask 64 repeat 8 params [1, 1, 1, 8, 8, 128] {src1_offset = 896 : i64} : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x1024xf32, VECOUT>
        ascendc.pipe_barrier V
        ascendc.binary_repeat Add %fold, %fold, %y1 mask 64 repeat 8 params [1, 1, 1, 8, 8, 128] {src1_offset = 960 : i64} : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8x1024xf32, VECOUT>
        ascendc.pipe_barrier V
        ascendc.whole_reduce SUM %r, %fold mask 64 repeat 8 strides(1, 1, 8) : !ascendc.local<8xf32, VECCALC>, !ascendc.local<8x64xf32, VECCALC>
        ascendc.pipe_barrier V
        ascendc.muls %r, %r, %inv_cols, %c8 : !ascendc.local<8xf32, VECCALC>, !ascendc.local<8xf32, VECCALC>, f32
        ascendc.pipe_barrier V
        ascendc.adds %r, %r, %eps, %c8 : !ascendc.local<8xf32, VECCALC>, !ascendc.local<8xf32, VECCALC>, f32
        ascendc.pipe_barrier V
        ascendc.rsqrt %r, %r, %c8 : !ascendc.local<8xf32, VECCALC>, !ascendc.local<8xf32, VECCALC>
        ascendc.pipe_barrier V
        // Broadcast of a column: Brcb puts row r's value in block r, Copy repeats it along row r.
        ascendc.brcb %bt, %r {dst_blk_stride = 1 : i64, dst_rep_stride = 8 : i64, repeat_time = 1 : i64} : !ascendc.local<64xf32, VECCALC>, !ascendc.local<8xf32, VECCALC>
        ascendc.pipe_barrier V
        ascendc.copy %y1, %bt {dst_offset = 0 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 0 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<8x1024xf32, VECOUT>, !ascendc.local<64xf32, VECCALC>
        ascendc.copy %y1, %bt {dst_offset = 1024 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 8 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<8x1024xf32, VECOUT>, !ascendc.local<64xf32, VECCALC>
        ascendc.copy %y1, %bt {dst_offset = 2048 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 16 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<8x1024xf32, VECOUT>, !ascendc.local<64xf32, VECCALC>
        ascendc.copy %y1, %bt {dst_offset = 3072 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 24 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<8x1024xf32, VECOUT>, !ascendc.local<64xf32, VECCALC>
        ascendc.copy %y1, %bt {dst_offset = 4096 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 32 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<8x1024xf32, VECOUT>, !ascendc.local<64xf32, VECCALC>
        ascendc.copy %y1, %bt {dst_offset = 5120 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 40 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<8x1024xf32, VECOUT>, !ascendc.local<64xf32, VECCALC>
        ascendc.copy %y1, %bt {dst_offset = 6144 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 48 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<8x1024xf32, VECOUT>, !ascendc.local<64xf32, VECCALC>
        ascendc.copy %y1, %bt {dst_offset = 7168 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 16 : i64, src_offset = 56 : i64, src_repeat_size = 0 : i64, src_stride = 0 : i64} : !ascendc.local<8x1024xf32, VECOUT>, !ascendc.local<64xf32, VECCALC>
        ascendc.pipe_barrier V
        ascendc.mul %y1, %x1, %y1, %elems : !ascendc.local<8x1024xf32, VECOUT>, !ascendc.local<8x1024xf32, VECIN>, !ascendc.local<8x1024xf32, VECOUT>
        ascendc.set_flag V -> MTE2, 1
        ascendc.pipe_barrier V
        ascendc.mul %y1, %y1, %gb, %elems : !ascendc.local<8x1024xf32, VECOUT>, !ascendc.local<8x1024xf32, VECOUT>, !ascendc.local<8x1024xf32, VECCALC>
        ascendc.set_flag V -> MTE3, 1
        ascendc.wait_flag V -> MTE3, 1
        ascendc.data_copy_out %out[%off1], %y1, %n1 : !ascendc.gm<f32>, !ascendc.local<8x1024xf32, VECOUT>
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
