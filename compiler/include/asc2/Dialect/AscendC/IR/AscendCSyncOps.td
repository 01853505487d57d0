//===- AscendCSyncOps.td - scalar access and sync ops ------*- tablegen -*-===//
//
// Included by AscendCOps.td (one dialect, one op list; split by unit so no
// file is a god-file). Base classes and traits are in AscendCOps.td.
//
//===----------------------------------------------------------------------===//
#ifndef ASCENDC_SYNC_OPS
#define ASCENDC_SYNC_OPS

//===----------------------------------------------------------------------===//
// Scalar access to local and global memory
//===----------------------------------------------------------------------===//

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
