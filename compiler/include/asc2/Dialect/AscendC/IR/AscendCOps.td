//===- AscendCOps.td -----------------------------------------*- tablegen -*-===//
#ifndef ASCENDC_OPS
#define ASCENDC_OPS

include "asc2/Dialect/AscendC/IR/AscendCDialect.td"
include "asc2/Dialect/AscendC/IR/AscendCTypes.td"
include "asc2/Dialect/AscendC/IR/AscendCInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

class AscendC_Op<string mnemonic, list<Trait> traits = []>
    : Op<AscendC_Dialect, mnemonic, traits>;

// Buffers of a vector op may sit at different positions (VECIN, VECCALC, ...)
// but hold the same element type.
def AscendC_SameElementType : PredOpTrait<
    "local buffer operands have the same element type",
    CPred<"::asc2::ascendc::haveSameElementType(&$_op)">>;

// Vector ops under `with asc2.mask(bits=(hi, lo))` carry the two 64-bit
// halves of the lane mask as optional trailing `bits` operands.
def AscendC_MaskBits : PredOpTrait<
    "`bits` is either absent or the pair (high, low)",
    CPred<"(getBits().empty() || getBits().size() == 2)">>;

//===----------------------------------------------------------------------===//
// Buffers and the programming model
//===----------------------------------------------------------------------===//

def AscendC_AllocLocalOp : AscendC_Op<"alloc_local",
    [MemoryEffects<[MemAlloc]>]> {
  let summary = "a local buffer (LocalTensor)";
  let description = [{
    Declares a buffer in on-chip memory. Memory planning sets `offset` (bytes
    from the start of the space) and, for multi-buffered loads, `slot`.
    `name` is the Python variable the buffer holds, for reports and views.

    ```mlir
    %b = ascendc.alloc_local {name = "x", offset = 0 : i64} : !ascendc.local<256xf32, VECIN>
    ```
  }];
  let arguments = (ins OptionalAttr<I64Attr>:$offset, OptionalAttr<StrAttr>:$name,
                       OptionalAttr<I64Attr>:$slot);
  let results = (outs AscendC_LocalType:$buffer);
  let assemblyFormat = "attr-dict `:` qualified(type($buffer))";
  let hasVerifier = 1;
}

def AscendC_GetBlockIdxOp : AscendC_Op<"get_block_idx",
    [Pure, AscendC_PipeOpInterface]> {
  let summary = "GetBlockIdx()";
  let description = "`%i = ascendc.get_block_idx`";
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::S; }
  }];
}

def AscendC_GetBlockNumOp : AscendC_Op<"get_block_num",
    [Pure, AscendC_PipeOpInterface]> {
  let summary = "GetBlockNum()";
  let description = "`%n = ascendc.get_block_num`";
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::S; }
  }];
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

def AscendC_DataCopyInOp : AscendC_Op<"data_copy_in",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface, AttrSizedOperandSegments]> {
  let summary = "DataCopyPad GM -> local (MTE2)";
  let description = [{
    Copies `count` elements starting at element `offset` of `src` into `dst`.
    When `count` is less than the buffer, the rest is filled with
    `pad_value` (DataCopyPad with padding), so partial tiles are defined.
    With `rows`, copies `rows` rows of `count` elements whose starts are
    `rowStride` elements apart in GM into consecutive rows of the buffer
    (row length = the buffer's last dimension); row tails and missing rows
    are padded.

    ```mlir
    ascendc.data_copy_in %b, %x[%off], %n : !ascendc.local<256xf32, VECIN>, !ascendc.gm<f32>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_GlobalType:$src,
                       Index:$offset, Index:$count,
                       Optional<Index>:$rows, Optional<Index>:$rowStride,
                       OptionalAttr<TypedAttrInterface>:$pad_value);
  let assemblyFormat = [{
    $dst `,` $src `[` $offset `]` `,` $count (`rows` $rows^ `stride` $rowStride)? attr-dict `:` qualified(type($dst)) `,` qualified(type($src))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::MTE2; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getDst(), true});
      a.push_back({getSrc(), false});
    }
  }];
}

def AscendC_DataCopyOutOp : AscendC_Op<"data_copy_out",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface, AttrSizedOperandSegments]> {
  let summary = "DataCopyPad local -> GM (MTE3)";
  let description = [{
    Copies `count` elements of `src` to element `offset` of `dst` (with
    `rows`: `rows` rows, see data_copy_in). `atomic` combines with the GM
    contents (SetAtomicAdd/Max/Min around the copy).

    ```mlir
    ascendc.data_copy_out %out[%off], %b, %n : !ascendc.gm<f32>, !ascendc.local<256xf32, VECOUT>
    ```
  }];
  let arguments = (ins AscendC_GlobalType:$dst, Index:$offset,
                       AscendC_LocalType:$src, Index:$count,
                       Optional<Index>:$rows, Optional<Index>:$rowStride,
                       DefaultValuedAttr<AscendC_AtomicKind, "::asc2::ascendc::AtomicKind::NONE">:$atomic);
  let assemblyFormat = [{
    $dst `[` $offset `]` `,` $src `,` $count (`rows` $rows^ `stride` $rowStride)? (`atomic` $atomic^)? attr-dict `:` qualified(type($dst)) `,` qualified(type($src))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::MTE3; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getSrc(), false});
      a.push_back({getDst(), true});
    }
  }];
}

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
def AscendC_FloorDivsOp : AscendC_VecScalarOp<"floordivs", "FloorDivs", "FloorDiv">;
def AscendC_AndsOp : AscendC_VecScalarOp<"ands", "Ands", "And">;
def AscendC_OrsOp : AscendC_VecScalarOp<"ors", "Ors", "Or">;
def AscendC_XorsOp : AscendC_VecScalarOp<"xors", "Xors", "Xor">;
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
def AscendC_AndOp : AscendC_VecBinaryOp<"and", "And", "And", [AscendC_AndsOp],
    ["arith::AndIOp"]>;
def AscendC_OrOp : AscendC_VecBinaryOp<"or", "Or", "Or", [AscendC_OrsOp],
    ["arith::OrIOp"]>;
def AscendC_XorOp : AscendC_VecBinaryOp<"xor", "Xor", "Xor", [AscendC_XorsOp],
    ["arith::XOrIOp"]>;
def AscendC_ShlOp : AscendC_VecBinaryOp<"shl", "ShiftLeft", "Shl", [AscendC_ShlsOp],
    ["arith::ShLIOp"]>;
def AscendC_ShrOp : AscendC_VecBinaryOp<"shr", "ShiftRight", "Shr", [AscendC_ShrsOp],
    ["arith::ShRSIOp"]>;
// relu(src0 + src1) in one instruction (int16, half, float; no scalar form).
// asc-devkit docs/api/context/AddRelu.md.
def AscendC_AddReluOp : AscendC_VecBinaryOp<"add_relu", "AddRelu", "AddRelu">;
// No single Ascend C instruction: Div then Floor (emitted as a pair).
def AscendC_FloorDivOp : AscendC_VecBinaryOp<"floordiv", "FloorDiv", "FloorDiv",
    [AscendC_FloorDivsOp], ["arith::FloorDivSIOp"]>;


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
  let summary = "Compare(dst mask, src0, src1 | scalar, mode, count)";
  let description = [{
    Writes one bool per element (the simulator keeps one byte per element).
    `rhs` is a buffer or a scalar. `bits`: a per-repeat lane mask over the
    compared element type (see add).

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
  let summary = "Select(dst, mask, src0, src1 | scalar, count)";
  let description = [{
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

def AscendC_ReduceOp : AscendC_Op<"reduce",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface, AscendC_SameElementType]> {
  let summary = "row or column reduction of a rows x cols buffer";
  let description = [{
    `axis` 1 reduces each row (dst gets `rows` elements, WholeReduce*);
    `axis` 0 reduces each column (dst gets `cols` elements).

    ```mlir
    ascendc.reduce SUM %d, %x, %r, %c axis 1 : !ascendc.local<8xf32, VECCALC>, !ascendc.local<8x64xf32, VECIN>
    ```
  }];
  let arguments = (ins AscendC_ReduceKind:$kind, AscendC_LocalType:$dst,
                       AscendC_LocalType:$src, Index:$rows, Index:$cols,
                       I64Attr:$axis);
  let assemblyFormat = [{
    $kind $dst `,` $src `,` $rows `,` $cols `axis` $axis attr-dict `:` qualified(type($dst)) `,` qualified(type($src))
  }];
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::V; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getSrc(), false});
      a.push_back({getDst(), true});
    }
  }];
}

def AscendC_BroadcastOp : AscendC_Op<"broadcast",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface, AscendC_SameElementType]> {
  let summary = "fill a rows x cols buffer from a column or a row";
  let description = [{
    `axis` 1: dst[r][c] = src[r]; `axis` 0: dst[r][c] = src[c].

    ```mlir
    ascendc.broadcast %d, %s, %r, %c axis 1 : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<8xf32, VECCALC>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_LocalType:$src,
                       Index:$rows, Index:$cols, I64Attr:$axis);
  let assemblyFormat = [{
    $dst `,` $src `,` $rows `,` $cols `axis` $axis attr-dict `:` qualified(type($dst)) `,` qualified(type($src))
  }];
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::V; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getSrc(), false});
      a.push_back({getDst(), true});
    }
  }];
}

def AscendC_CopyOp : AscendC_Op<"copy",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface, AscendC_SameElementType]> {
  let summary = "DataCopy local -> local of rows x cols elements (vector pipe)";
  let description = [{
    Row r of `src` starts `src_offset + src_stride * r` elements into it; it
    lands at `dst_offset + dst_stride * r` elements into `dst`.
    Concatenation writes each input into its columns (or rows) of the result
    this way; permutations of a tile's leading dimensions move whole rows.

    ```mlir
    ascendc.copy %d, %s, %r, %c {dst_offset = 64, dst_stride = 128, src_stride = 64} : !ascendc.local<4x128xf32, VECCALC>, !ascendc.local<4x64xf32, VECIN>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_LocalType:$src,
                       Index:$rows, Index:$cols, I64Attr:$src_stride,
                       I64Attr:$dst_stride, I64Attr:$dst_offset,
                       DefaultValuedAttr<I64Attr, "0">:$src_offset);
  let assemblyFormat = [{
    $dst `,` $src `,` $rows `,` $cols attr-dict `:` qualified(type($dst)) `,` qualified(type($src))
  }];
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::V; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getSrc(), false});
      a.push_back({getDst(), true});
    }
  }];
}

def AscendC_TransposeOp : AscendC_Op<"transpose",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface, AscendC_SameElementType]> {
  let summary = "2-D transpose of a rows x cols buffer (vector pipe)";
  let description = [{
    With `batch` B > 1 the buffers hold B consecutive matrices: matrix b of
    `src` (rows x cols) becomes matrix b of `dst` (cols x rows). Tiles of
    rank > 2 are permuted with batched transposes and row copies.

    ```mlir
    ascendc.transpose %d, %s, %r, %c : !ascendc.local<64x16xf32, VECCALC>, !ascendc.local<16x64xf32, VECIN>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_LocalType:$src,
                       Index:$rows, Index:$cols,
                       DefaultValuedAttr<I64Attr, "1">:$batch);
  let assemblyFormat = [{
    $dst `,` $src `,` $rows `,` $cols attr-dict `:` qualified(type($dst)) `,` qualified(type($src))
  }];
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::V; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getSrc(), false});
      a.push_back({getDst(), true});
    }
  }];
}

//===----------------------------------------------------------------------===//
// Cube unit: L1 -> L0A/L0B (MTE1), mmad (M), L0C -> GM (FIX)
//===----------------------------------------------------------------------===//

def AscendC_LoadDataOp : AscendC_Op<"load_data",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface, AscendC_SameElementType]> {
  let summary = "LoadData L1 (NZ) -> L0A (ZZ) / L0B (ZN) (MTE1)";
  let description = [{
    Moves the `dst`-shaped sub-tile of the L1 tile `src` whose first element
    is at (`row`, `col`) (multiples of 16) into `dst`, converting between the
    fractal layouts of L1 and L0A/L0B. `at [%r, %c]` adds runtime offsets
    (multiples of 16, checked when it runs). With `transpose` the source
    sub-tile is `dst` transposed (LoadData2DParams::ifTranspose).

    ```mlir
    ascendc.load_data %a0, %a1 {row = 0 : i64, col = 64 : i64} : !ascendc.local<128x64xf16, A2>, !ascendc.local<128x256xf16, A1>
    ascendc.load_data %b0, %b1 at [%c0, %k] {transpose} : !ascendc.local<32x64xf16, B2>, !ascendc.local<64x256xf16, B1>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_LocalType:$src,
                       Variadic<Index>:$origin,
                       DefaultValuedAttr<I64Attr, "0">:$row,
                       DefaultValuedAttr<I64Attr, "0">:$col, UnitAttr:$transpose);
  let assemblyFormat = [{
    $dst `,` $src (`at` `[` $origin^ `]`)? attr-dict `:` qualified(type($dst)) `,` qualified(type($src))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::MTE1; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getSrc(), false});
      a.push_back({getDst(), true});
    }
  }];
}

def AscendC_MmadOp : AscendC_Op<"mmad",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface]> {
  let summary = "Mmad: C (L0C) = [C +] A (L0A) x B (L0B) (cube pipe M)";
  let description = [{
    m x k times k x n from the operand shapes. `init` (i1) true overwrites C
    (cmatrixInitVal), false accumulates into it. `hf32`: f32 operands are
    rounded to HF32 first (SetHF32Mode around the Mmad).

    ```mlir
    ascendc.mmad %c, %a, %b, %init : !ascendc.local<64x48xf32, CO1>, !ascendc.local<64x32xf16, A2>, !ascendc.local<32x48xf16, B2>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_LocalType:$lhs,
                       AscendC_LocalType:$rhs, I1:$init,
                       Optional<AscendC_LocalType>:$bias, UnitAttr:$hf32);
  let assemblyFormat = [{
    $dst `,` $lhs `,` $rhs `,` $init (`bias` $bias^)? attr-dict `:` qualified(type($dst)) `,` qualified(type($lhs)) `,` qualified(type($rhs)) (`,` qualified(type($bias))^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::M; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getLhs(), false});
      a.push_back({getRhs(), false});
      a.push_back({getDst(), false}); // accumulates (read) unless init
      if (getBias())
        a.push_back({getBias(), false});
      a.push_back({getDst(), true});
    }
  }];
}

def AscendC_FixpipeL1Op : AscendC_Op<"fixpipe_l1",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface]> {
  let summary = "Fixpipe L0C (NZ) -> L1 (NZ) with conversion and ReLU (FIX)";
  let description = [{
    Stages a matmul result in L1 (converted to the element type of `dst`)
    for the next matmul.

    ```mlir
    ascendc.fixpipe_l1 %l1, %c {relu} : !ascendc.local<32x32xf16, A1>, !ascendc.local<32x32xf32, CO1>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_LocalType:$src, UnitAttr:$relu);
  let assemblyFormat = [{
    $dst `,` $src attr-dict `:` qualified(type($dst)) `,` qualified(type($src))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::FIX; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getSrc(), false});
      a.push_back({getDst(), true});
    }
  }];
}

def AscendC_CopyBiasOp : AscendC_Op<"copy_bias",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface]> {
  let summary = "DataCopy of a bias row L1 -> bias table (MTE1), f16/bf16 widened to f32";
  let description = [{
    Copies the `dst`-long part of the L1 row `src` that starts at element
    `offset` (0 when absent; a runtime offset is checked when it runs).

    ```mlir
    ascendc.copy_bias %bt, %l1 : !ascendc.local<64xf32, C2>, !ascendc.local<64xf32, A1>
    ascendc.copy_bias %bt, %l1[%off] : !ascendc.local<32xf32, C2>, !ascendc.local<128xf16, A1>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_LocalType:$src, Optional<Index>:$offset);
  let assemblyFormat = [{
    $dst `,` $src (`[` $offset^ `]`)? attr-dict `:` qualified(type($dst)) `,` qualified(type($src))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::MTE1; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getSrc(), false});
      a.push_back({getDst(), true});
    }
  }];
}

def AscendC_FixpipeOp : AscendC_Op<"fixpipe",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface]> {
  let summary = "Fixpipe L0C (NZ) -> GM (ND) with conversion and ReLU (FIX)";
  let description = [{
    Writes `rows` x `count` elements of the L0C tile `src` to `dst` at element
    `offset`, rows `rowStride` elements apart, converting to the element type
    of `dst` (f32 -> f16/bf16 quantisation) and applying ReLU when `relu`.

    ```mlir
    ascendc.fixpipe %c_gm[%off], %c, %n rows %r stride %s {relu} : !ascendc.gm<f16>, !ascendc.local<64x48xf32, CO1>
    ```
  }];
  let arguments = (ins AscendC_GlobalType:$dst, Index:$offset,
                       AscendC_LocalType:$src, Index:$count,
                       Index:$rows, Index:$rowStride, UnitAttr:$relu,
                       DefaultValuedAttr<AscendC_AtomicKind, "::asc2::ascendc::AtomicKind::NONE">:$atomic);
  let assemblyFormat = [{
    $dst `[` $offset `]` `,` $src `,` $count `rows` $rows `stride` $rowStride (`atomic` $atomic^)? attr-dict `:` qualified(type($dst)) `,` qualified(type($src))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::FIX; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getSrc(), false});
      a.push_back({getDst(), true});
    }
  }];
}

def AscendC_GetValueOp : AscendC_Op<"get_value",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface]> {
  let summary = "LocalTensor::GetValue (scalar read of local memory)";
  let description = [{
    ```mlir
    %v = ascendc.get_value %b[%i] : !ascendc.local<8xf32, VECCALC> -> f32
    ```
  }];
  let arguments = (ins AscendC_LocalType:$buffer, Index:$index);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$buffer `[` $index `]` attr-dict `:` qualified(type($buffer)) `->` type($result)";
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::S; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getBuffer(), false});
    }
  }];
}

def AscendC_SetValueOp : AscendC_Op<"set_value",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface]> {
  let summary = "LocalTensor::SetValue (scalar write of local memory)";
  let description = [{
    ```mlir
    ascendc.set_value %v, %b[%i] : f32, !ascendc.local<8xf32, VECCALC>
    ```
  }];
  let arguments = (ins AnyType:$value, AscendC_LocalType:$buffer, Index:$index);
  let assemblyFormat = "$value `,` $buffer `[` $index `]` attr-dict `:` type($value) `,` qualified(type($buffer))";
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::S; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getBuffer(), true});
    }
  }];
}

def AscendC_GmGetValueOp : AscendC_Op<"gm_get_value",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface]> {
  let summary = "GlobalTensor::GetValue (scalar read of GM)";
  let description = [{
    ```mlir
    %v = ascendc.gm_get_value %x[%i] : !ascendc.gm<f32> -> f32
    ```
  }];
  let arguments = (ins AscendC_GlobalType:$tensor, Index:$index);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$tensor `[` $index `]` attr-dict `:` qualified(type($tensor)) `->` type($result)";
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::S; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getTensor(), false});
    }
  }];
}

def AscendC_GmSetValueOp : AscendC_Op<"gm_set_value",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface]> {
  let summary = "GlobalTensor::SetValue (scalar write of GM)";
  let description = [{
    ```mlir
    ascendc.gm_set_value %v, %x[%i] : f32, !ascendc.gm<f32>
    ```
  }];
  let arguments = (ins AnyType:$value, AscendC_GlobalType:$tensor, Index:$index);
  let assemblyFormat = "$value `,` $tensor `[` $index `]` attr-dict `:` type($value) `,` qualified(type($tensor))";
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::S; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getTensor(), true});
    }
  }];
}

def AscendC_DuplicateOp : AscendC_Op<"duplicate",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface]> {
  let summary = "Duplicate(dst, scalar, count)";
  let description = [{
    ```mlir
    ascendc.duplicate %d, %v, %n : f32, !ascendc.local<256xf32, VECCALC>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AnyType:$value, Index:$count);
  let assemblyFormat = "$dst `,` $value `,` $count attr-dict `:` type($value) `,` qualified(type($dst))";
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::V; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getDst(), true});
    }
  }];
}

//===----------------------------------------------------------------------===//
// Synchronisation
//===----------------------------------------------------------------------===//

def AscendC_SetFlagOp : AscendC_Op<"set_flag", [AscendC_PipeOpInterface]> {
  let summary = "SetFlag<HardEvent::SRC_DST>(event)";
  let description = [{
    Sets the binary flag (src -> dst, event) once every earlier instruction
    of pipe `src` has finished. `reason` records the hazard it guards.

    ```mlir
    ascendc.set_flag MTE2 -> V, 0 {reason = "RAW on x: ..."}
    ```
  }];
  let arguments = (ins AscendC_Pipe:$src, AscendC_Pipe:$dst, I64Attr:$event,
                       OptionalAttr<StrAttr>:$reason);
  let assemblyFormat = "custom<PipeName>($src) `->` custom<PipeName>($dst) `,` $event attr-dict";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return getSrc(); }
  }];
}

def AscendC_WaitFlagOp : AscendC_Op<"wait_flag", [AscendC_PipeOpInterface]> {
  let summary = "WaitFlag<HardEvent::SRC_DST>(event)";
  let description = [{
    Blocks pipe `dst` until the flag (src -> dst, event) is set, then clears it.

    ```mlir
    ascendc.wait_flag MTE2 -> V, 0
    ```
  }];
  let arguments = (ins AscendC_Pipe:$src, AscendC_Pipe:$dst, I64Attr:$event,
                       OptionalAttr<StrAttr>:$reason);
  let assemblyFormat = "custom<PipeName>($src) `->` custom<PipeName>($dst) `,` $event attr-dict";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return getDst(); }
  }];
}

def AscendC_PipeBarrierOp : AscendC_Op<"pipe_barrier", [AscendC_PipeOpInterface]> {
  let summary = "PipeBarrier<pipe>()";
  let description = [{
    Later instructions of `pipe` start after earlier ones finish; `ALL`
    orders every pipe.

    ```mlir
    ascendc.pipe_barrier V
    ```
  }];
  let arguments = (ins AscendC_Pipe:$pipe, OptionalAttr<StrAttr>:$reason);
  let assemblyFormat = "custom<PipeName>($pipe) attr-dict";
  let hasVerifier = 1;
}

// Buffer-id synchronisation (Ascend950): AscendC::Mutex::Lock/Unlock<pipe>(id).
def AscendC_GetBufOp : AscendC_Op<"get_buf", [AscendC_PipeOpInterface]> {
  let summary = "Mutex::Lock<pipe>(id): take buffer id `id` on `pipe`";
  let description = [{
    Blocks `pipe` until every earlier holder of buffer id `id` (in issue
    order, on other pipes) has released it. Every access of `pipe` to the
    buffer the id guards sits between a get_buf and the matching rls_buf of
    the same pipe. `reason` records the buffer and the ops that share the id.

    ```mlir
    ascendc.get_buf V, 3 {reason = "x_tile: data_copy (MTE2) / add (V)"}
    ```
  }];
  let arguments = (ins AscendC_Pipe:$pipe, I64Attr:$id,
                       OptionalAttr<StrAttr>:$reason);
  let assemblyFormat = "custom<PipeName>($pipe) `,` $id attr-dict";
  let hasVerifier = 1;
}

def AscendC_RlsBufOp : AscendC_Op<"rls_buf", [AscendC_PipeOpInterface]> {
  let summary = "Mutex::Unlock<pipe>(id): release buffer id `id` on `pipe`";
  let description = [{
    Releases buffer id `id` once every earlier instruction of `pipe` has
    finished; does not hold `pipe`. The next holder in issue order may start.

    ```mlir
    ascendc.rls_buf MTE2, 3
    ```
  }];
  let arguments = (ins AscendC_Pipe:$pipe, I64Attr:$id,
                       OptionalAttr<StrAttr>:$reason);
  let assemblyFormat = "custom<PipeName>($pipe) `,` $id attr-dict";
  let hasVerifier = 1;
}

#endif
