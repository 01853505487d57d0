// RUN: asc2-opt %s | FileCheck %s
// ascendc.add_relu round-trips (AscendC::AddRelu, one record in AscendCOps.td).

// CHECK-LABEL: func.func @add_relu
// CHECK: ascendc.add_relu %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : !ascendc.local<256xf16, VECOUT>, !ascendc.local<256xf16, VECIN>, !ascendc.local<256xf16, VECIN>
func.func @add_relu(%n: index) {
  %a = ascendc.alloc_local {offset = 0 : i64} : !ascendc.local<256xf16, VECIN>
  %b = ascendc.alloc_local {offset = 512 : i64} : !ascendc.local<256xf16, VECIN>
  %r = ascendc.alloc_local {offset = 1024 : i64} : !ascendc.local<256xf16, VECOUT>
  ascendc.add_relu %r, %a, %b, %n : !ascendc.local<256xf16, VECOUT>, !ascendc.local<256xf16, VECIN>, !ascendc.local<256xf16, VECIN>
  return
}
