//===- AscendCInlineOps.td - raw Ascend C of the kernel's author -*- tablegen -*-===//
//
// Included by AscendCOps.td. asc2.inline and asc2.inline_vf: code the emitter
// pastes as written ($N: the C++ name of operand N; the InlineCodeOpInterface
// says what every consumer does with it).
//
//===----------------------------------------------------------------------===//
#ifndef ASCENDC_INLINE_OPS
#define ASCENDC_INLINE_OPS

def AscendC_InlineOp : AscendC_Op<"inline",
    [AscendC_BufferAccessOpInterface, AscendC_InlineCodeOpInterface]> {
  let summary = "raw Ascend C pasted into the kernel (asc2.inline)";
  let description = [{
    Printed where the op is, or with `before_function` before the kernel
    function; `$N` is the C++ name of `args[N]` (a LocalTensor, a `__gm__`
    pointer for a GM tensor, a scalar's variable or literal). It names no
    pipe: the code may issue to any pipe and touch any buffer, so sync
    insertion puts a PIPE_ALL barrier right before and right after it, and
    the buffers among its args count as read and written there (memory
    planning keeps them live up to it).

    ```mlir
    ascendc.inline "auto ptr = $0;"(%x : !ascendc.gm<f32>)
    ascendc.inline "constexpr int32_t K = 42;" {before_function}
    ```
  }];
  let arguments = (ins StrAttr:$code, Variadic<AnyType>:$args, UnitAttr:$before_function);
  let assemblyFormat = "$code (`(` $args^ `:` qualified(type($args)) `)`)? attr-dict";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      for (::mlir::Value arg : getArgs())
        if (::mlir::isa<LocalType, GlobalType>(arg.getType())) {
          a.push_back({arg, false});
          a.push_back({arg, true});
        }
    }
    ::llvm::StringRef getApiName() { return "asc2.inline"; }
    bool isBeforeFunction() { return getBeforeFunction(); }
  }];
}

def AscendC_InlineVFOp : AscendC_Op<"inline_vf",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface,
     AscendC_InlineCodeOpInterface]> {
  let summary = "raw Ascend C vector-function code writing a UB buffer (asc2.inline_vf)";
  let description = [{
    Printed as `__VEC_SCOPE__ { code }` with `$0` the LocalTensor of `dst`
    and `$1`, `$2`, ... those of `inputs`. For sync insertion and memory
    planning it is a vector-pipe op that reads `inputs` and writes `dst`.

    ```mlir
    ascendc.inline_vf "..." %d(%x, %y : !ascendc.local<2048xf32, VECCALC>, !ascendc.local<2048xf32, VECCALC>)
        : !ascendc.local<2048xf32, VECCALC>
    ```
  }];
  let arguments = (ins StrAttr:$code, AscendC_LocalType:$dst,
                       Variadic<AscendC_LocalType>:$inputs);
  let assemblyFormat = [{
    $code $dst (`(` $inputs^ `:` qualified(type($inputs)) `)`)? attr-dict `:` qualified(type($dst))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::V; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      for (::mlir::Value input : getInputs())
        a.push_back({input, false});
      a.push_back({getDst(), true});
    }
    ::llvm::StringRef getApiName() { return "asc2.inline_vf"; }
  }];
}

#endif
