// RUN: asc2-opt %s -split-input-file -verify-diagnostics
// A reshape may pack rows narrower than a 32-byte block, but only a reduction
// along the last dimension may use them: any other use is an error there.

func.func @elementwise_use(%x: !asctile.ptr<f32>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0] : !asctile.tensor<?xf32> -> !asctile.tile<256xf32, UB>
  %b = asctile.reshape %a : !asctile.tile<256xf32, UB> -> !asctile.tile<64x4xf32, UB>
  // expected-error @+1 {{uses the UB tile [64, 4] of f32 made by a reshape, whose rows are 16 bytes, not a multiple of 32}}
  %c = arith.addf %b, %b : !asctile.tile<64x4xf32, UB>
  return
}

// -----

func.func @column_reduction(%x: !asctile.ptr<f16>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f16> -> !asctile.tensor<?xf16>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0] : !asctile.tensor<?xf16> -> !asctile.tile<256xf16, UB>
  %b = asctile.reshape %a : !asctile.tile<256xf16, UB> -> !asctile.tile<32x8xf16, UB>
  // expected-error @+1 {{for anything else use a multiple of 16 elements in the last dimension}}
  %m = asctile.reduce max %b dims [0] : !asctile.tile<32x8xf16, UB> -> !asctile.tile<8xf16, UB>
  return
}
