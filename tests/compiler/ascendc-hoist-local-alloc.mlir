// RUN: asc2-opt %s -ascendc-hoist-local-alloc | FileCheck %s

// CHECK-LABEL: func.func @loop
// CHECK-NEXT: ascendc.alloc_local {name = "t"}
// CHECK-NEXT: ascendc.alloc_local {name = "u"}
// CHECK: scf.for
// CHECK-NOT: ascendc.alloc_local
// CHECK: return
func.func @loop(%x: !ascendc.gm<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %n step %c1 {
    %t = ascendc.alloc_local {name = "t"} : !ascendc.local<64xf32, VECIN>
    ascendc.data_copy_in %t, %x[%i], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
    %u = ascendc.alloc_local {name = "u"} : !ascendc.local<64xf32, VECOUT>
    ascendc.exp %u, %t, %c64 : !ascendc.local<64xf32, VECOUT>, !ascendc.local<64xf32, VECIN>
    ascendc.data_copy_out %x[%i], %u, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECOUT>
  }
  return
}
