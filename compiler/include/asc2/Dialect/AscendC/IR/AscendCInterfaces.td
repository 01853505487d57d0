//===- AscendCInterfaces.td - what analyses dispatch on ------*- tablegen -*-===//
#ifndef ASCENDC_INTERFACES
#define ASCENDC_INTERFACES

include "mlir/IR/OpBase.td"

def AscendC_PipeOpInterface : OpInterface<"PipeOpInterface"> {
  let description = [{
    An op that executes on one hardware pipe of the AI core. Sync insertion,
    the simulator translation and the timeline views read the pipe from here.
  }];
  let cppNamespace = "::asc2::ascendc";
  let methods = [
    InterfaceMethod<"The pipe this op runs on.", "::asc2::Pipe", "getPipe">
  ];
}

def AscendC_BufferAccessOpInterface : OpInterface<"BufferAccessOpInterface"> {
  let description = [{
    The buffers (local buffers and global tensors) an op reads and writes.
    Sync insertion derives hazards from these; memory planning derives
    liveness from them.
  }];
  let cppNamespace = "::asc2::ascendc";
  let methods = [
    InterfaceMethod<"Append (buffer, isWrite) pairs.", "void", "getBufferAccesses",
      (ins "::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &":$accesses)>,
    InterfaceMethod<[{
      Whether the op may write its result into the bytes of source `src`
      (elementwise, same element size: dst and src overlap 100%, which the
      vector unit allows). Memory planning puts a result there when `src`
      dies at this op.
    }], "bool", "canWriteInPlace", (ins "::mlir::Value":$src), [{}], [{
      return false;
    }]>
  ];
}

def AscendC_InlineCodeOpInterface : OpInterface<"InlineCodeOpInterface"> {
  let description = [{
    Raw Ascend C the kernel's author wrote (asc2.inline, asc2.inline_vf).
    The emitter pastes the code with each `$N` replaced by the C++ name of
    operand N. The simulator runs instructions, not C++: a program holding
    such an op is refused at launch, naming the call's source line. One
    that names no pipe (no PipeOpInterface) may use every pipe and buffer,
    so sync insertion fences it with PIPE_ALL barriers.
  }];
  let cppNamespace = "::asc2::ascendc";
  let methods = [
    InterfaceMethod<"The Ascend C, with `$N` placeholders.", "::llvm::StringRef", "getCode">,
    InterfaceMethod<"The call that wrote it: \"asc2.inline\" or \"asc2.inline_vf\".",
                    "::llvm::StringRef", "getApiName">,
    InterfaceMethod<[{
      Whether the code goes before the kernel function (file scope) rather
      than where the op is; it then runs nothing in the kernel.
    }], "bool", "isBeforeFunction", (ins), [{}], [{
      return false;
    }]>
  ];
}

#endif
