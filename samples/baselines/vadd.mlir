// Hand-written baseline for samples/vadd.py (same arguments: x, y, out, size, tiles_per_block),
// written the way an Ascend C expert writes it with TQue<VECIN, 2> / TQue<VECOUT, 2>: two buffer
// sets (ping = slot 0, pong = slot 1), one event id per slot and direction, the loop unrolled by
// the two slots with the pong half guarded for an odd trip count.  TILE = 4096 float32.
//
// Flags per slot s (the TQue protocol):
//   MTE2 -> V   s : EnQue(x, y)   / DeQue       (tile loaded)
//   V -> MTE3   s : EnQue(z)      / DeQue       (sum ready)
//   V -> MTE2   s : FreeTensor(x, y) / AllocTensor (input slot free again; primed, drained)
//   MTE3 -> V   s : FreeTensor(z) / AllocTensor   (output slot free again; primed, drained)
module {
  func.func @vadd(%x: !ascendc.gm<f32>, %y: !ascendc.gm<f32>, %out: !ascendc.gm<f32>, %size: index,
                  %tiles_per_block: index) attributes {asctile.arg_names = ["x_ptr", "y_ptr", "out_ptr", "size", "tiles_per_block"], asctile.kernel} {
    %x0 = ascendc.alloc_local {name = "x_ping", offset = 0 : i64} : !ascendc.local<4096xf32, VECIN>
    %y0 = ascendc.alloc_local {name = "y_ping", offset = 16384 : i64} : !ascendc.local<4096xf32, VECIN>
    %z0 = ascendc.alloc_local {name = "z_ping", offset = 32768 : i64} : !ascendc.local<4096xf32, VECOUT>
    %x1 = ascendc.alloc_local {name = "x_pong", offset = 49152 : i64} : !ascendc.local<4096xf32, VECIN>
    %y1 = ascendc.alloc_local {name = "y_pong", offset = 65536 : i64} : !ascendc.local<4096xf32, VECIN>
    %z1 = ascendc.alloc_local {name = "z_pong", offset = 81920 : i64} : !ascendc.local<4096xf32, VECOUT>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %tile = arith.constant 4096 : index
    %block = ascendc.get_block_idx
    %first = arith.muli %block, %tiles_per_block : index
    %base = arith.muli %first, %tile : index
    ascendc.set_flag V -> MTE2, 0
    ascendc.set_flag V -> MTE2, 1
    ascendc.set_flag MTE3 -> V, 0
    ascendc.set_flag MTE3 -> V, 1
    scf.for %i = %c0 to %tiles_per_block step %c2 {
      // ping: tile i
      %i_elems = arith.muli %i, %tile : index
      %off0 = arith.addi %base, %i_elems : index
      %left0 = arith.subi %size, %off0 : index
      %lim0 = arith.minsi %left0, %tile : index
      %n0 = arith.maxsi %lim0, %c0 : index
      ascendc.wait_flag V -> MTE2, 0
      ascendc.data_copy_in %x0, %x[%off0], %n0 : !ascendc.local<4096xf32, VECIN>, !ascendc.gm<f32>
      ascendc.data_copy_in %y0, %y[%off0], %n0 : !ascendc.local<4096xf32, VECIN>, !ascendc.gm<f32>
      ascendc.set_flag MTE2 -> V, 0
      ascendc.wait_flag MTE2 -> V, 0
      ascendc.wait_flag MTE3 -> V, 0
      ascendc.add %z0, %x0, %y0, %tile : !ascendc.local<4096xf32, VECOUT>, !ascendc.local<4096xf32, VECIN>, !ascendc.local<4096xf32, VECIN>
      ascendc.set_flag V -> MTE2, 0
      ascendc.set_flag V -> MTE3, 0
      ascendc.wait_flag V -> MTE3, 0
      ascendc.data_copy_out %out[%off0], %z0, %n0 : !ascendc.gm<f32>, !ascendc.local<4096xf32, VECOUT>
      ascendc.set_flag MTE3 -> V, 0
      // pong: tile i + 1, when there is one
      %i1 = arith.addi %i, %c1 : index
      %has1 = arith.cmpi slt, %i1, %tiles_per_block : index
      scf.if %has1 {
        %off1 = arith.addi %off0, %tile : index
        %left1 = arith.subi %size, %off1 : index
        %lim1 = arith.minsi %left1, %tile : index
        %n1 = arith.maxsi %lim1, %c0 : index
        ascendc.wait_flag V -> MTE2, 1
        ascendc.data_copy_in %x1, %x[%off1], %n1 : !ascendc.local<4096xf32, VECIN>, !ascendc.gm<f32>
        ascendc.data_copy_in %y1, %y[%off1], %n1 : !ascendc.local<4096xf32, VECIN>, !ascendc.gm<f32>
        ascendc.set_flag MTE2 -> V, 1
        ascendc.wait_flag MTE2 -> V, 1
        ascendc.wait_flag MTE3 -> V, 1
        ascendc.add %z1, %x1, %y1, %tile : !ascendc.local<4096xf32, VECOUT>, !ascendc.local<4096xf32, VECIN>, !ascendc.local<4096xf32, VECIN>
        ascendc.set_flag V -> MTE2, 1
        ascendc.set_flag V -> MTE3, 1
        ascendc.wait_flag V -> MTE3, 1
        ascendc.data_copy_out %out[%off1], %z1, %n1 : !ascendc.gm<f32>, !ascendc.local<4096xf32, VECOUT>
        ascendc.set_flag MTE3 -> V, 1
      }
    }
    ascendc.wait_flag V -> MTE2, 0
    ascendc.wait_flag V -> MTE2, 1
    ascendc.wait_flag MTE3 -> V, 0
    ascendc.wait_flag MTE3 -> V, 1
    return
  }
}
