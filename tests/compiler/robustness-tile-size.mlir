// issue 17: a tile whose byte size overflows int64 (or exceeds any on-chip
// memory) is rejected where it is written, not a SIGSEGV/SIGFPE later.
// RUN: asc2-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{a tile of shape [4611686018427387904] is larger than any on-chip memory (tiles are limited to 2147483648 bytes)}}
func.func @huge(%t: !asctile.tile<4611686018427387904xf32, UB>) {
  return
}

// -----

// expected-error @+1 {{a tile of shape [4294967296, 4294967296] is larger than any on-chip memory}}
func.func @overflowing_product(%t: !asctile.tile<4294967296x4294967296xi8, UB>) {
  return
}

// -----

func.func @largest(%t: !asctile.tile<536870912xf32, L1>) {
  return
}
