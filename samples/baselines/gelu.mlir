// Hand-written baseline for samples/gelu.py (same arguments: x, out, size; TILE = 4096 float32),
// the way an Ascend C expert writes it: TQue depth 2 (ping = slot 0, pong = slot 1, the pong
// half guarded), tiles strided over the cores like the sample, and the tanh form rewritten with
//     0.5 * (1 + tanh(u)) = 1 / (1 + exp(-2u)),   u = sqrt(2/pi) * (x + 0.044715 x^3)
// so gelu(x) = x / (1 + exp(x * (a * x^2 + b))), a = -2 sqrt(2/pi) 0.044715, b = -2 sqrt(2/pi):
// seven vector instructions per tile (Mul, Muls, Adds, Mul, Exp, Adds, Div) and one scratch tile.
//
// Flags per slot s: MTE2->V s (x loaded), V->MTE2 s (x free; primed, drained),
// V->MTE3 s (y ready), MTE3->V s (y free; primed, drained).  V->V RAW: pipe_barrier V.
module {
  func.func @gelu(%x: !ascendc.gm<f32>, %out: !ascendc.gm<f32>, %size: index) attributes {asctile.arg_names = ["x_ptr", "out_ptr", "size"], asctile.kernel} {
    %x0 = ascendc.alloc_local {name = "x_ping", offset = 0 : i64} : !ascendc.local<4096xf32, VECIN>
    %y0 = ascendc.alloc_local {name = "y_ping", offset = 16384 : i64} : !ascendc.local<4096xf32, VECOUT>
    %x1 = ascendc.alloc_local {name = "x_pong", offset = 32768 : i64} : !ascendc.local<4096xf32, VECIN>
    %y1 = ascendc.alloc_local {name = "y_pong", offset = 49152 : i64} : !ascendc.local<4096xf32, VECOUT>
    %t = ascendc.alloc_local {name = "tmp", offset = 65536 : i64} : !ascendc.local<4096xf32, VECCALC>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %tile = arith.constant 4096 : index
    %a = arith.constant -0.0713548162726 : f32
    %b = arith.constant -1.5957691216057308 : f32
    %one = arith.constant 1.0 : f32
    %block = ascendc.get_block_idx
    %cores = ascendc.get_block_num
    %tiles = arith.ceildivsi %size, %tile : index
    %step = arith.addi %cores, %cores : index
    ascendc.set_flag V -> MTE2, 0
    ascendc.set_flag V -> MTE2, 1
    ascendc.set_flag MTE3 -> V, 0
    ascendc.set_flag MTE3 -> V, 1
    scf.for %i = %block to %tiles step %step {
      // ping: tile i
      %off0 = arith.muli %i, %tile : index
      %left0 = arith.subi %size, %off0 : index
      %n0 = arith.minsi %left0, %tile : index
      ascendc.wait_flag V -> MTE2, 0
      ascendc.data_copy_in %x0, %x[%off0], %n0 : !ascendc.local<4096xf32, VECIN>, !ascendc.gm<f32>
      ascendc.set_flag MTE2 -> V, 0
      ascendc.wait_flag MTE2 -> V, 0
      ascendc.mul %t, %x0, %x0, %tile : !ascendc.local<4096xf32, VECCALC>, !ascendc.local<4096xf32, VECIN>, !ascendc.local<4096xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.muls %t, %t, %a, %tile : !ascendc.local<4096xf32, VECCALC>, !ascendc.local<4096xf32, VECCALC>, f32
      ascendc.pipe_barrier V
      ascendc.adds %t, %t, %b, %tile : !ascendc.local<4096xf32, VECCALC>, !ascendc.local<4096xf32, VECCALC>, f32
      ascendc.pipe_barrier V
      ascendc.mul %t, %t, %x0, %tile : !ascendc.local<4096xf32, VECCALC>, !ascendc.local<4096xf32, VECCALC>, !ascendc.local<4096xf32, VECIN>
      ascendc.pipe_barrier V
      ascendc.exp %t, %t, %tile : !ascendc.local<4096xf32, VECCALC>, !ascendc.local<4096xf32, VECCALC>
      ascendc.pipe_barrier V
      ascendc.adds %t, %t, %one, %tile : !ascendc.local<4096xf32, VECCALC>, !ascendc.local<4096xf32, VECCALC>, f32
      ascendc.pipe_barrier V
      ascendc.wait_flag MTE3 -> V, 0
      ascendc.div %y0, %x0, %t, %tile : !ascendc.local<4096xf32, VECOUT>, !ascendc.local<4096xf32, VECIN>, !ascendc.local<4096xf32, VECCALC>
      ascendc.set_flag V -> MTE2, 0
      ascendc.set_flag V -> MTE3, 0
      ascendc.wait_flag V -> MTE3, 0
      ascendc.data_copy_out %out[%off0], %y0, %n0 : !ascendc.gm<f32>, !ascendc.local<4096xf32, VECOUT>
      ascendc.set_flag MTE3 -> V, 0
      // pong: tile i + block_num, when there is one
      %i1 = arith.addi %i, %cores : index
      %has1 = arith.cmpi slt, %i1, %tiles : index
      scf.if %has1 {
        %off1 = arith.muli %i1, %tile : index
        %left1 = arith.subi %size, %off1 : index
        %n1 = arith.minsi %left1, %tile : index
        ascendc.wait_flag V -> MTE2, 1
        ascendc.data_copy_in %x1, %x[%off1], %n1 : !ascendc.local<4096xf32, VECIN>, !ascendc.gm<f32>
        ascendc.set_flag MTE2 -> V, 1
        ascendc.wait_flag MTE2 -> V, 1
        ascendc.pipe_barrier V
        ascendc.mul %t, %x1, %x1, %tile : !ascendc.local<4096xf32, VECCALC>, !ascendc.local<4096xf32, VECIN>, !ascendc.local<4096xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.muls %t, %t, %a, %tile : !ascendc.local<4096xf32, VECCALC>, !ascendc.local<4096xf32, VECCALC>, f32
        ascendc.pipe_barrier V
        ascendc.adds %t, %t, %b, %tile : !ascendc.local<4096xf32, VECCALC>, !ascendc.local<4096xf32, VECCALC>, f32
        ascendc.pipe_barrier V
        ascendc.mul %t, %t, %x1, %tile : !ascendc.local<4096xf32, VECCALC>, !ascendc.local<4096xf32, VECCALC>, !ascendc.local<4096xf32, VECIN>
        ascendc.pipe_barrier V
        ascendc.exp %t, %t, %tile : !ascendc.local<4096xf32, VECCALC>, !ascendc.local<4096xf32, VECCALC>
        ascendc.pipe_barrier V
        ascendc.adds %t, %t, %one, %tile : !ascendc.local<4096xf32, VECCALC>, !ascendc.local<4096xf32, VECCALC>, f32
        ascendc.pipe_barrier V
        ascendc.wait_flag MTE3 -> V, 1
        ascendc.div %y1, %x1, %t, %tile : !ascendc.local<4096xf32, VECOUT>, !ascendc.local<4096xf32, VECIN>, !ascendc.local<4096xf32, VECCALC>
        ascendc.set_flag V -> MTE2, 1
        ascendc.set_flag V -> MTE3, 1
        ascendc.wait_flag V -> MTE3, 1
        ascendc.data_copy_out %out[%off1], %y1, %n1 : !ascendc.gm<f32>, !ascendc.local<4096xf32, VECOUT>
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
