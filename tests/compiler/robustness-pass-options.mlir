// issue 17: a numeric pass option of 0 or below is an error naming the pass
// and the option (alignment=0 divided by zero: SIGFPE).
// RUN: not asc2-opt %s -ascendc-plan-memory=alignment=0 2>&1 | FileCheck %s --check-prefix=ALIGN0
// RUN: not asc2-opt %s -ascendc-plan-memory=alignment=24 2>&1 | FileCheck %s --check-prefix=ALIGN24
// RUN: not asc2-opt %s -ascendc-plan-memory=ub-capacity=-1 2>&1 | FileCheck %s --check-prefix=UBCAP
// RUN: not asc2-opt %s -ascendc-compute-memory-consumption=l0a-capacity=-5 2>&1 | FileCheck %s --check-prefix=L0A
// RUN: not asc2-opt %s -ascendc-insert-sync=event-ids=0 2>&1 | FileCheck %s --check-prefix=EVENTS
// RUN: not asc2-opt %s -ascendc-insert-buf-id-sync=buf-ids=0 2>&1 | FileCheck %s --check-prefix=BUFIDS
// RUN: not asc2-opt %s -asctile-multi-buffer=num-stages=-2 2>&1 | FileCheck %s --check-prefix=STAGES
// RUN: not asc2-opt %s -asctile-batch-rows=max-rows=0 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: asc2-opt %s -ascendc-plan-memory=alignment=64 | FileCheck %s --check-prefix=OK

// ALIGN0: error: ascendc-plan-memory: option alignment=0 is invalid; it must be a power of two
// ALIGN24: error: ascendc-plan-memory: option alignment=24 is invalid; it must be a power of two
// UBCAP: error: ascendc-plan-memory: option ub-capacity=-1 is invalid; it must be at least 0
// L0A: error: ascendc-compute-memory-consumption: option l0a-capacity=-5 is invalid; it must be at least 0
// EVENTS: error: ascendc-insert-sync: option event-ids=0 is invalid; it must be at least 1
// BUFIDS: error: ascendc-insert-buf-id-sync: option buf-ids=0 is invalid; it must be at least 1
// STAGES: error: asctile-multi-buffer: option num-stages=-2 is invalid; it must be at least 0
// ROWS: error: asctile-batch-rows: option max-rows=0 is invalid; it must be at least 1
// OK: ascendc.alloc_local {name = "a", offset = 0 : i64}
func.func @plan(%x: !ascendc.gm<f32>) {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %a = ascendc.alloc_local {name = "a"} : !ascendc.local<64xf32, VECIN>
  ascendc.data_copy_in %a, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  ascendc.data_copy_out %x[%c0], %a, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECIN>
  return
}
