// RUN: asc2-opt %s -ascendc-compute-memory-consumption=ub-capacity=1024 -split-input-file -verify-diagnostics

// expected-error @+1 {{UB overflow: kernel needs 1536 bytes but UB has 1024 (512 bytes over)}}
func.func @too_big(%x: !ascendc.gm<f32>) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %a = ascendc.alloc_local {name = "a", offset = 0 : i64} : !ascendc.local<256xf32, VECIN>
  %b = ascendc.alloc_local {name = "b", offset = 1024 : i64} : !ascendc.local<128xf32, VECOUT>
  ascendc.data_copy_in %a, %x[%c0], %c256 : !ascendc.local<256xf32, VECIN>, !ascendc.gm<f32>
  ascendc.abs %b, %a, %c128 : !ascendc.local<128xf32, VECOUT>, !ascendc.local<256xf32, VECIN>
  return
}

// -----

func.func @fits(%x: !ascendc.gm<f32>) {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %a = ascendc.alloc_local {name = "a", offset = 0 : i64} : !ascendc.local<256xf32, VECIN>
  ascendc.data_copy_in %a, %x[%c0], %c256 : !ascendc.local<256xf32, VECIN>, !ascendc.gm<f32>
  return
}
