//===- AscendCVectorOps.td - vector unit ops ---------------*- tablegen -*-===//
//
// Included by AscendCOps.td (one dialect, one op list; split by unit so no
// file is a god-file). Base classes and traits are in AscendCOps.td.
//
//===----------------------------------------------------------------------===//
#ifndef ASCENDC_VECTOR_OPS
#define ASCENDC_VECTOR_OPS

//===----------------------------------------------------------------------===//
// Vector unit
//===----------------------------------------------------------------------===//

// What the rest of the compiler needs to know about an elementwise vector op
// is declared here, on its record; asc2-tblgen (compiler/tools/asc2-tblgen)
// generates the simulator's VecOp enum, the cost-key table and the dispatch
// lists of the lowering, the simulator program builder and the emitter from
// these fields. docs/architecture.md, "Adding an ascendc op", has the recipe.
//   simOp      the simulator operation the op executes as (sim::VecOp; its
//              semantics are in compiler/lib/Sim/VectorKernels.cpp);
//   costKey    its entry in resources/arch/*.json "vector_cost" (and
//              "vector_scalar_cost" for the scalar form); an entry a platform
//              lacks costs vector_cost_default;
//   lowersFrom the arith/math ops on tiles that become this op (a binary op
//              becomes its scalarForm when one operand is a splat scalar).
class AscendC_VecElementwise<string family, string simOp_,
                             list<string> lowersFrom_> {
  string vecFamily = family; // "binary", "scalar" or "unary"
  string simOp = simOp_;
  string costKey = !tolower(simOp_);
  list<string> lowersFrom = lowersFrom_;
}

class AscendC_VecBinaryOp<string mnemonic, string apiName, string simOp,
                          list<AscendC_Op> scalarForm_ = [],
                          list<string> lowersFrom = []>
    : AscendC_Op<mnemonic, [AscendC_PipeOpInterface,
                            AscendC_BufferAccessOpInterface,
                            AscendC_SameElementType, AscendC_MaskBits]>,
      AscendC_VecElementwise<"binary", simOp, lowersFrom> {
  // The op's vector-scalar form (Adds for Add), if the API has one: used when
  // one operand is a scalar broadcast to the tile.
  list<AscendC_Op> scalarForm = scalarForm_;
  let summary = "vector " # apiName # "(dst, src0, src1, count)";
  let description = [{
    Elementwise over the first `count` elements, on the vector pipe. With
    `bits %high, %low` (asc2.mask(bits=...)), the elements go in repeats of
    256 bytes and lane l of every repeat is computed only where bit l of the
    128-bit mask high:low is set (l < 64: low); other lanes of `dst` keep
    their contents.

    ```mlir
    ascendc.}] # mnemonic # [{ %d, %a, %b, %n : !ascendc.local<256xf32, VECOUT>, !ascendc.local<256xf32, VECIN>, !ascendc.local<256xf32, VECIN>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_LocalType:$src0,
                       AscendC_LocalType:$src1, Index:$count, Variadic<I64>:$bits);
  let assemblyFormat = [{
    $dst `,` $src0 `,` $src1 `,` $count (`bits` $bits^)? attr-dict `:` qualified(type($dst)) `,` qualified(type($src0)) `,` qualified(type($src1))
  }];
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::V; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getSrc0(), false});
      a.push_back({getSrc1(), false});
      a.push_back({getDst(), true});
    }
    bool canWriteInPlace(::mlir::Value src) {
      return src.getType() == getDst().getType() ||
             ::asc2::ascendc::sameBytes(src.getType(), getDst().getType());
    }
    static ::llvm::StringRef getApiName() { return "}] # apiName # [{"; }
  }];
}

class AscendC_VecScalarOp<string mnemonic, string apiName, string simOp>
    : AscendC_Op<mnemonic, [AscendC_PipeOpInterface,
                            AscendC_BufferAccessOpInterface,
                            AscendC_SameElementType, AscendC_MaskBits]>,
      AscendC_VecElementwise<"scalar", simOp, []> {
  let summary = "vector " # apiName # "(dst, src, scalar, count)";
  let description = [{
    Elementwise with a scalar on the vector pipe; `scalar_first` puts the
    scalar on the left (scalar - x, scalar / x). `bits`: as for the binary
    ops (a per-repeat lane mask).

    ```mlir
    ascendc.}] # mnemonic # [{ %d, %a, %s, %n : !ascendc.local<256xf32, VECOUT>, !ascendc.local<256xf32, VECIN>, f32
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_LocalType:$src,
                       AnyType:$scalar, Index:$count, UnitAttr:$scalar_first,
                       Variadic<I64>:$bits);
  let assemblyFormat = [{
    $dst `,` $src `,` $scalar `,` $count (`bits` $bits^)? attr-dict `:` qualified(type($dst)) `,` qualified(type($src)) `,` type($scalar)
  }];
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::V; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getSrc(), false});
      a.push_back({getDst(), true});
    }
    bool canWriteInPlace(::mlir::Value src) {
      return src.getType() == getDst().getType() ||
             ::asc2::ascendc::sameBytes(src.getType(), getDst().getType());
    }
    static ::llvm::StringRef getApiName() { return "}] # apiName # [{"; }
  }];
}

def AscendC_AddsOp : AscendC_VecScalarOp<"adds", "Adds", "Add">;
def AscendC_SubsOp : AscendC_VecScalarOp<"subs", "Subs", "Sub">;
def AscendC_MulsOp : AscendC_VecScalarOp<"muls", "Muls", "Mul">;
def AscendC_DivsOp : AscendC_VecScalarOp<"divs", "Divs", "Div">;
def AscendC_MaxsOp : AscendC_VecScalarOp<"maxs", "Maxs", "Max">;
def AscendC_MinsOp : AscendC_VecScalarOp<"mins", "Mins", "Min">;
// Ands/Ors exist on Ascend 950 only (asc-devkit docs/zh/api/SIMD-API/基础API/
// Memory矢量计算/逻辑计算/Ands.md "产品支持情况"); there is no Xors at all. The
// lowering never issues them: a bitwise op with a scalar becomes Duplicate of
// the scalar and the tensor-tensor op, on every target.
def AscendC_AndsOp : AscendC_VecScalarOp<"ands", "Ands", "And">;
def AscendC_OrsOp : AscendC_VecScalarOp<"ors", "Ors", "Or">;
def AscendC_ShlsOp : AscendC_VecScalarOp<"shls", "ShiftLeft", "Shl">;
def AscendC_ShrsOp : AscendC_VecScalarOp<"shrs", "ShiftRight", "Shr">;

def AscendC_AddOp : AscendC_VecBinaryOp<"add", "Add", "Add", [AscendC_AddsOp],
    ["arith::AddFOp", "arith::AddIOp"]>;
def AscendC_SubOp : AscendC_VecBinaryOp<"sub", "Sub", "Sub", [AscendC_SubsOp],
    ["arith::SubFOp", "arith::SubIOp"]>;
def AscendC_MulOp : AscendC_VecBinaryOp<"mul", "Mul", "Mul", [AscendC_MulsOp],
    ["arith::MulFOp", "arith::MulIOp"]>;
def AscendC_DivOp : AscendC_VecBinaryOp<"div", "Div", "Div", [AscendC_DivsOp],
    ["arith::DivFOp", "arith::DivSIOp"]>;
def AscendC_MaxOp : AscendC_VecBinaryOp<"max", "Max", "Max", [AscendC_MaxsOp],
    ["arith::MaximumFOp", "arith::MaxNumFOp", "arith::MaxSIOp"]>;
def AscendC_MinOp : AscendC_VecBinaryOp<"min", "Min", "Min", [AscendC_MinsOp],
    ["arith::MinimumFOp", "arith::MinNumFOp", "arith::MinSIOp"]>;
def AscendC_AndOp : AscendC_VecBinaryOp<"and", "And", "And", [],
    ["arith::AndIOp"]>;
def AscendC_OrOp : AscendC_VecBinaryOp<"or", "Or", "Or", [],
    ["arith::OrIOp"]>;
// Xor is in the advanced API (adv_api/math/xor.h: int16_t/uint16_t only, a
// temporary buffer from the TPipe's stack when none is passed, which a
// static-tensor kernel does not have): the lowering never issues it and
// composes a ^ b from Or/And/Not (Elementwise.cpp, emitXor). The op stays for
// hand-written IR; the emitter calls it on an int16 view of other integers.
def AscendC_XorOp : AscendC_VecBinaryOp<"xor", "Xor", "Xor", [], []>;
def AscendC_ShlOp : AscendC_VecBinaryOp<"shl", "ShiftLeft", "Shl", [AscendC_ShlsOp],
    ["arith::ShLIOp"]>;
def AscendC_ShrOp : AscendC_VecBinaryOp<"shr", "ShiftRight", "Shr", [AscendC_ShrsOp],
    ["arith::ShRSIOp"]>;
// relu(src0 + src1) in one instruction (int16, half, float; no scalar form).
// asc-devkit docs/api/context/AddRelu.md.
def AscendC_AddReluOp : AscendC_VecBinaryOp<"add_relu", "AddRelu", "AddRelu">;
// Integer floor division (arith.floordivsi) has no Ascend C call: the lowering
// composes it from Div and a sign fix-up (Elementwise.cpp, lowerFloorDiv).


class AscendC_VecUnaryOp<string mnemonic, string apiName, string simOp,
                         list<string> lowersFrom = []>
    : AscendC_Op<mnemonic, [AscendC_PipeOpInterface,
                            AscendC_BufferAccessOpInterface,
                            AscendC_SameElementType, AscendC_MaskBits]>,
      AscendC_VecElementwise<"unary", simOp, lowersFrom> {
  let summary = "vector " # apiName # "(dst, src, count)";
  let description = [{
    Elementwise over the first `count` elements, on the vector pipe. `bits`:
    as for the binary ops (a per-repeat lane mask).

    ```mlir
    ascendc.}] # mnemonic # [{ %d, %a, %n : !ascendc.local<256xf32, VECOUT>, !ascendc.local<256xf32, VECIN>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_LocalType:$src,
                       Index:$count, Variadic<I64>:$bits);
  let assemblyFormat = "$dst `,` $src `,` $count (`bits` $bits^)? attr-dict `:` qualified(type($dst)) `,` qualified(type($src))";
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::V; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getSrc(), false});
      a.push_back({getDst(), true});
    }
    bool canWriteInPlace(::mlir::Value src) {
      return src.getType() == getDst().getType() ||
             ::asc2::ascendc::sameBytes(src.getType(), getDst().getType());
    }
    static ::llvm::StringRef getApiName() { return "}] # apiName # [{"; }
  }];
}

def AscendC_AbsOp : AscendC_VecUnaryOp<"abs", "Abs", "Abs", ["math::AbsFOp", "math::AbsIOp"]>;
def AscendC_ExpOp : AscendC_VecUnaryOp<"exp", "Exp", "Exp", ["math::ExpOp"]>;
def AscendC_LnOp : AscendC_VecUnaryOp<"ln", "Ln", "Log", ["math::LogOp"]>;
def AscendC_SqrtOp : AscendC_VecUnaryOp<"sqrt", "Sqrt", "Sqrt", ["math::SqrtOp"]>;
def AscendC_ReluOp : AscendC_VecUnaryOp<"relu", "Relu", "Relu">;
def AscendC_RsqrtOp : AscendC_VecUnaryOp<"rsqrt", "Rsqrt", "Rsqrt", ["math::RsqrtOp"]>;
def AscendC_ReciprocalOp : AscendC_VecUnaryOp<"reciprocal", "Reciprocal", "Reciprocal">;
def AscendC_NotOp : AscendC_VecUnaryOp<"not", "Not", "Not">;
def AscendC_NegOp : AscendC_VecUnaryOp<"neg", "Neg", "Neg", ["arith::NegFOp"]>;

// The advanced-API Erf, emitted for Ascend950 only: there it is one vector
// function (a RegBase loop: load, cast, clip, a Pade quotient, store per
// 256 bytes) where the expansion elsewhere (asctile-transform-math-ops) is
// ~20 calls, each its own vector function with fusion off.
// cannmirror/asc-devkit@e138706:impl/adv_api/detail/math/erf/erf_3510_impl.h
def AscendC_ErfOp : AscendC_Op<"erf", [AscendC_PipeOpInterface,
                                       AscendC_BufferAccessOpInterface,
                                       AscendC_MaskBits]>,
      AscendC_VecElementwise<"unary", "Erf", []> {
  let summary = "vector Erf(dst, src, sharedTmpBuffer, count) (advanced API)";
  let description = [{
    erf elementwise over the first `count` half or float elements. `tmp` is
    the uint8 scratch buffer the API's four-argument form takes (at least
    GetErfMaxMinTmpSize's minimum: 768 bytes for float, 2048 for half,
    impl/adv_api/tiling/math/erf_tiling_impl.cpp); the three-argument form
    pops it from a TPipe stack a static-buffer kernel does not have. The API
    has no lane-mask form: `bits` must be absent (the lowering computes a
    masked erf whole and copies the mask's lanes). `dst` may not be `src`.

    ```mlir
    ascendc.erf %d, %a, %t, %n : !ascendc.local<128xf32, VECOUT>, !ascendc.local<128xf32, VECIN>, !ascendc.local<768xui8, VECCALC>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_LocalType:$src,
                       AscendC_LocalType:$tmp, Index:$count, Variadic<I64>:$bits);
  let assemblyFormat = "$dst `,` $src `,` $tmp `,` $count (`bits` $bits^)? attr-dict `:` qualified(type($dst)) `,` qualified(type($src)) `,` qualified(type($tmp))";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::V; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getSrc(), false});
      a.push_back({getTmp(), true});
      a.push_back({getDst(), true});
    }
    static ::llvm::StringRef getApiName() { return "Erf"; }
    /// GetErfMaxMinTmpSize's minimum for `elemBytes`-byte elements.
    static int64_t tmpBytes(unsigned elemBytes) { return elemBytes == 4 ? 3 * 256 : 8 * 256; }
  }];
}

def AscendC_CastOp : AscendC_Op<"cast",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface, AscendC_MaskBits]> {
  let summary = "Cast(dst, src, roundMode, count)";
  let description = [{
    `bits`: a per-repeat lane mask (see add); the repeat is 256 bytes of the
    wider of the two element types.

    ```mlir
    ascendc.cast %h, %x, %n round CAST_RINT : !ascendc.local<256xf16, VECCALC>, !ascendc.local<256xf32, VECIN>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_LocalType:$src,
                       Index:$count, AscendC_RoundMode:$round_mode,
                       Variadic<I64>:$bits);
  let assemblyFormat = [{
    $dst `,` $src `,` $count `round` $round_mode (`bits` $bits^)? attr-dict `:` qualified(type($dst)) `,` qualified(type($src))
  }];
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::V; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getSrc(), false});
      a.push_back({getDst(), true});
    }
  }];
}

def AscendC_CompareOp : AscendC_Op<"compare",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface, AscendC_MaskBits]> {
  let summary = "Compare / Compares(dst bit mask, src0, src1 | scalar, mode, count)";
  let description = [{
    Writes one bit per element into the i1 buffer `dst` (a uint8_t bit mask:
    element i is bit i % 8 of byte i / 8), as Ascend C's Compare (`rhs` a
    buffer) and Compares (`rhs` a scalar) do. The emitted count is rounded up
    to whole 256-byte repeats (the API computes only whole repeats); the mask
    buffer is planned in whole 32-byte blocks, which covers them. `bits`: a
    per-repeat lane mask over the compared element type (see add); the
    lowering never issues one (on A2/A3 Compare ignores the vector mask).

    ```mlir
    ascendc.compare LT %m, %a, %b, %n : !ascendc.local<256xi1, VECCALC>, !ascendc.local<256xf32, VECIN>, !ascendc.local<256xf32, VECIN>
    ```
  }];
  let arguments = (ins AscendC_CmpMode:$mode, AscendC_LocalType:$dst,
                       AscendC_LocalType:$lhs, AnyType:$rhs, Index:$count,
                       Variadic<I64>:$bits);
  let assemblyFormat = [{
    $mode $dst `,` $lhs `,` $rhs `,` $count (`bits` $bits^)? attr-dict `:` qualified(type($dst)) `,` qualified(type($lhs)) `,` qualified(type($rhs))
  }];
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::V; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getLhs(), false});
      if (::mlir::isa<::asc2::ascendc::LocalType>(getRhs().getType()))
        a.push_back({getRhs(), false});
      a.push_back({getDst(), true});
    }
  }];
}

def AscendC_SelectOp : AscendC_Op<"select",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface, AscendC_MaskBits]> {
  let summary = "Select(dst, selMask, src0, src1 | scalar, count)";
  let description = [{
    dst[i] = bit i of the i1 bit mask `mask` ? src0[i] : src1[i] (or the
    scalar): SELMODE VSEL_TENSOR_TENSOR_MODE / VSEL_TENSOR_SCALAR_MODE.
    `bits`: a per-repeat lane mask over the selected element type (see add).

    ```mlir
    ascendc.select %d, %m, %a, %b, %n : !ascendc.local<256xf32, VECOUT>, !ascendc.local<256xi1, VECCALC>, !ascendc.local<256xf32, VECIN>, !ascendc.local<256xf32, VECIN>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_LocalType:$mask,
                       AscendC_LocalType:$trueValue, AnyType:$falseValue,
                       Index:$count, Variadic<I64>:$bits);
  let assemblyFormat = [{
    $dst `,` $mask `,` $trueValue `,` $falseValue `,` $count (`bits` $bits^)? attr-dict `:` qualified(type($dst)) `,` qualified(type($mask)) `,` qualified(type($trueValue)) `,` qualified(type($falseValue))
  }];
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::V; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getMask(), false});
      a.push_back({getTrueValue(), false});
      if (::mlir::isa<::asc2::ascendc::LocalType>(getFalseValue().getType()))
        a.push_back({getFalseValue(), false});
      a.push_back({getDst(), true});
    }
  }];
}

#endif
