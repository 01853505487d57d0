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
    ::asc2::ascendc::Pipe getPipe() { return ::asc2::ascendc::Pipe::S; }
  }];
}

def AscendC_GetBlockNumOp : AscendC_Op<"get_block_num",
    [Pure, AscendC_PipeOpInterface]> {
  let summary = "GetBlockNum()";
  let description = "`%n = ascendc.get_block_num`";
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
  let extraClassDeclaration = [{
    ::asc2::ascendc::Pipe getPipe() { return ::asc2::ascendc::Pipe::S; }
  }];
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

def AscendC_DataCopyInOp : AscendC_Op<"data_copy_in",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface]> {
  let summary = "DataCopyPad GM -> local (MTE2)";
  let description = [{
    Copies `count` elements starting at element `offset` of `src` into `dst`.
    When `count` is less than the buffer, the rest is filled with
    `pad_value` (DataCopyPad with padding), so partial tiles are defined.

    ```mlir
    ascendc.data_copy_in %b, %x[%off], %n : !ascendc.local<256xf32, VECIN>, !ascendc.gm<f32>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_GlobalType:$src,
                       Index:$offset, Index:$count,
                       OptionalAttr<TypedAttrInterface>:$pad_value);
  let assemblyFormat = [{
    $dst `,` $src `[` $offset `]` `,` $count attr-dict `:` qualified(type($dst)) `,` qualified(type($src))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::asc2::ascendc::Pipe getPipe() { return ::asc2::ascendc::Pipe::MTE2; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getDst(), true});
      a.push_back({getSrc(), false});
    }
  }];
}

def AscendC_DataCopyOutOp : AscendC_Op<"data_copy_out",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface]> {
  let summary = "DataCopyPad local -> GM (MTE3)";
  let description = [{
    Copies `count` elements of `src` to element `offset` of `dst`.

    ```mlir
    ascendc.data_copy_out %out[%off], %b, %n : !ascendc.gm<f32>, !ascendc.local<256xf32, VECOUT>
    ```
  }];
  let arguments = (ins AscendC_GlobalType:$dst, Index:$offset,
                       AscendC_LocalType:$src, Index:$count);
  let assemblyFormat = [{
    $dst `[` $offset `]` `,` $src `,` $count attr-dict `:` qualified(type($dst)) `,` qualified(type($src))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::asc2::ascendc::Pipe getPipe() { return ::asc2::ascendc::Pipe::MTE3; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getSrc(), false});
      a.push_back({getDst(), true});
    }
  }];
}

//===----------------------------------------------------------------------===//
// Vector unit
//===----------------------------------------------------------------------===//

class AscendC_VecBinaryOp<string mnemonic, string apiName>
    : AscendC_Op<mnemonic, [AscendC_PipeOpInterface,
                            AscendC_BufferAccessOpInterface,
                            AscendC_SameElementType]> {
  let summary = "vector " # apiName # "(dst, src0, src1, count)";
  let description = [{
    Elementwise over the first `count` elements, on the vector pipe.

    ```mlir
    ascendc.}] # mnemonic # [{ %d, %a, %b, %n : !ascendc.local<256xf32, VECOUT>, !ascendc.local<256xf32, VECIN>, !ascendc.local<256xf32, VECIN>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_LocalType:$src0,
                       AscendC_LocalType:$src1, Index:$count);
  let assemblyFormat = [{
    $dst `,` $src0 `,` $src1 `,` $count attr-dict `:` qualified(type($dst)) `,` qualified(type($src0)) `,` qualified(type($src1))
  }];
  let extraClassDeclaration = [{
    ::asc2::ascendc::Pipe getPipe() { return ::asc2::ascendc::Pipe::V; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getSrc0(), false});
      a.push_back({getSrc1(), false});
      a.push_back({getDst(), true});
    }
    static ::llvm::StringRef getApiName() { return "}] # apiName # [{"; }
  }];
}

def AscendC_AddOp : AscendC_VecBinaryOp<"add", "Add">;
def AscendC_SubOp : AscendC_VecBinaryOp<"sub", "Sub">;
def AscendC_MulOp : AscendC_VecBinaryOp<"mul", "Mul">;
def AscendC_DivOp : AscendC_VecBinaryOp<"div", "Div">;
def AscendC_MaxOp : AscendC_VecBinaryOp<"max", "Max">;
def AscendC_MinOp : AscendC_VecBinaryOp<"min", "Min">;

class AscendC_VecUnaryOp<string mnemonic, string apiName>
    : AscendC_Op<mnemonic, [AscendC_PipeOpInterface,
                            AscendC_BufferAccessOpInterface,
                            AscendC_SameElementType]> {
  let summary = "vector " # apiName # "(dst, src, count)";
  let description = [{
    Elementwise over the first `count` elements, on the vector pipe.

    ```mlir
    ascendc.}] # mnemonic # [{ %d, %a, %n : !ascendc.local<256xf32, VECOUT>, !ascendc.local<256xf32, VECIN>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_LocalType:$src,
                       Index:$count);
  let assemblyFormat = "$dst `,` $src `,` $count attr-dict `:` qualified(type($dst)) `,` qualified(type($src))";
  let extraClassDeclaration = [{
    ::asc2::ascendc::Pipe getPipe() { return ::asc2::ascendc::Pipe::V; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getSrc(), false});
      a.push_back({getDst(), true});
    }
    static ::llvm::StringRef getApiName() { return "}] # apiName # [{"; }
  }];
}

def AscendC_AbsOp : AscendC_VecUnaryOp<"abs", "Abs">;
def AscendC_ExpOp : AscendC_VecUnaryOp<"exp", "Exp">;
def AscendC_LnOp : AscendC_VecUnaryOp<"ln", "Ln">;
def AscendC_SqrtOp : AscendC_VecUnaryOp<"sqrt", "Sqrt">;
def AscendC_ReluOp : AscendC_VecUnaryOp<"relu", "Relu">;

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
    ::asc2::ascendc::Pipe getPipe() { return ::asc2::ascendc::Pipe::V; }
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
  let assemblyFormat = "$src `->` $dst `,` $event attr-dict";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::asc2::ascendc::Pipe getPipe() { return getSrc(); }
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
  let assemblyFormat = "$src `->` $dst `,` $event attr-dict";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::asc2::ascendc::Pipe getPipe() { return getDst(); }
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
  let assemblyFormat = "$pipe attr-dict";
  let hasVerifier = 1;
}

#endif
