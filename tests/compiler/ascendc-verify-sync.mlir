// RUN: asc2-opt %s -ascendc-insert-sync -ascendc-verify-sync -split-input-file -verify-diagnostics

// What insert-sync produces for a loop verifies: every flag balanced.
func.func @inserted(%x: !ascendc.gm<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %a = ascendc.alloc_local {offset = 0 : i64} : !ascendc.local<64xf32, VECIN>
  %b = ascendc.alloc_local {offset = 256 : i64} : !ascendc.local<64xf32, VECOUT>
  scf.for %i = %c0 to %n step %c1 {
    ascendc.data_copy_in %a, %x[%i], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
    ascendc.exp %b, %a, %c64 : !ascendc.local<64xf32, VECOUT>, !ascendc.local<64xf32, VECIN>
    ascendc.data_copy_out %x[%i], %b, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECOUT>
  }
  return
}
