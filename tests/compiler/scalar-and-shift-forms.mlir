// RUN: asc2-opt %s -split-input-file -convert-asctile-to-ascendc | FileCheck %s --check-prefix=A2
// RUN: asc2-opt %s -split-input-file -convert-asctile-to-ascendc=soc-version=c310 | FileCheck %s --check-prefix=A5

// Subs and Divs (either operand order) are c310 calls: A2/A3 declare them
// and have no body. There x - s is Adds of -s, s - x is Muls by -1 then Adds,
// x / s and s / x are Div with a Duplicate'd s.
// A2-LABEL: func.func @sub_div
// A2-NOT: ascendc.subs
// A2-NOT: ascendc.divs
// A2: ascendc.adds %{{.*}}, %{{.*}}, %[[NEG:.*]], %{{.*}} :
// A2: ascendc.muls
// A2: ascendc.adds
// A2: ascendc.duplicate
// A2: ascendc.div
// A2: ascendc.duplicate
// A2: ascendc.div
// A5-LABEL: func.func @sub_div
// A5: ascendc.subs %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} :
// A5: ascendc.subs %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {scalar_first}
// A5: ascendc.divs %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} :
// A5: ascendc.divs %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {scalar_first}
// A5-NOT: ascendc.duplicate
func.func @sub_div(%x: !asctile.ptr<f32>, %n: index, %s: f32) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0] : !asctile.tensor<?xf32> -> !asctile.tile<64xf32, UB>
  %v = asctile.splat %s : f32 -> !asctile.tile<64xf32, UB>
  %b = arith.subf %a, %v : !asctile.tile<64xf32, UB>
  %c = arith.subf %v, %b : !asctile.tile<64xf32, UB>
  %d = arith.divf %c, %v : !asctile.tile<64xf32, UB>
  %e = arith.divf %v, %d : !asctile.tile<64xf32, UB>
  asctile.store %e, %t[%c0] : !asctile.tile<64xf32, UB>, !asctile.tensor<?xf32>
  return
}

// -----

// A shift by a tile of amounts: c310's ShiftLeft(dst, src0, src1, count);
// on A2/A3 (no such call) the binary decomposition of the amount with scalar
// shifts and bit operations, five rounds for 32-bit lanes.
// A2-LABEL: func.func @shift_by_tile
// A2-NOT: ascendc.shl {{.*}}index
// A2-COUNT-5: ascendc.or
// A2: ascendc.muls
// A5-LABEL: func.func @shift_by_tile
// A5: ascendc.shl
// A5-NOT: ascendc.shls
func.func @shift_by_tile(%x: !asctile.ptr<i32>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<i32> -> !asctile.tensor<?xi32>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %a = asctile.load %t[%c0] : !asctile.tensor<?xi32> -> !asctile.tile<64xi32, UB>
  %b = asctile.load %t[%c64] : !asctile.tensor<?xi32> -> !asctile.tile<64xi32, UB>
  %c = arith.shli %a, %b : !asctile.tile<64xi32, UB>
  asctile.store %c, %t[%c0] : !asctile.tile<64xi32, UB>, !asctile.tensor<?xi32>
  return
}
