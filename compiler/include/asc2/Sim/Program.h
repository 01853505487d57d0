//===- Program.h - Compact executable form of a compiled kernel -*- C++ -*-===//
//
// The simulator does not walk MLIR. The final ascendc-level IR is translated
// once (asc2/Sim/Translate.h) into this flat instruction list: structured loops
// become jumps, SSA scalars become registers, buffers become (space, byte
// offset) pairs fixed by UB planning. Each instruction keeps the program point
// and source location of the op it came from so errors, races and traces link
// back to the IR and the Python line.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_SIM_PROGRAM_H
#define ASC2_SIM_PROGRAM_H

#include "asc2/Arch/Pipe.h"
#include "asc2/Arch/Space.h"
#include "asc2/Arch/VecOp.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

namespace asc2::sim {

/// Hardware pipes of an AI core: the one enum of asc2/Arch/Pipe.h. An
/// instruction executes on one of the kNumPipes real pipes (never ALL).
using ::asc2::kNumPipes;
using ::asc2::Pipe;
using ::asc2::pipeName;

/// Memory spaces and vector operations: asc2/Arch/Space.h and VecOp.h.
using ::asc2::kNumSpaces;
using ::asc2::Space;
using ::asc2::spaceName;
using ::asc2::VecOp;
using ::asc2::vecOpArity;
using ::asc2::vecOpCostKey;
using ::asc2::vecOpOfCostKey;

/// Bool in local memory is a bit mask, as Ascend C's Compare writes and
/// Select reads it: element i is bit i % 8 of byte i / 8 (little-endian bit
/// order; asc-devkit docs/zh/api/.../Compare.md). In GM a bool is one byte
/// (numpy's layout); the kernel moves it as uint8 and converts.
enum class DType : uint8_t { F32, F16, BF16, I32, I16, I8, U8, I64, Bool };
/// Bytes per element (1 for Bool: its GM form).
unsigned byteWidth(DType t);
/// Bytes that n elements of t occupy in local memory (Bool: n bits, whole bytes).
inline int64_t localBytes(DType t, int64_t n) {
  return t == DType::Bool ? (n + 7) / 8 : n * int64_t(byteWidth(t));
}
const char *dtypeName(DType t); // numpy-style: "float32", "float16", ...

/// Compare modes (Ascend C CMPMODE).
enum class CmpMode : uint8_t { LT, LE, GT, GE, EQ, NE };

/// Ascend C RoundMode for casts. None = RINT when the cast loses precision.
enum class RoundMode : uint8_t { None, Rint, Floor, Ceil, Round, Trunc, Odd };

/// WholeReduceSum/Max/Min (ascendc ReduceKind SUM, MAX, MIN).
enum class ReduceKind : uint8_t { Sum, Max, Min };
/// What a WholeReduceMax/Min repeat writes (Ascend C ReduceOrder): value and
/// index (the index's bits as a uint16/uint32 in an element), the reverse,
/// the value alone, the index alone (32-bit).
enum class ReduceOrder : uint8_t { ValueIndex, IndexValue, OnlyValue, OnlyIndex };

/// Read-modify-write applied by an atomic store to GM.
enum class AtomicKind : uint8_t { None, Add, Max, Min };

enum class ScalarOp : uint8_t {
  Add, Sub, Mul, DivS, RemS, MinS, MaxS, CeilDivS,
  CmpLT, CmpLE, CmpGT, CmpGE, CmpEQ, CmpNE,
  // Floats: registers hold the bits of a double (std::bit_cast<int64_t>).
  FAdd, FSub, FMul, FDiv, FMax, FMin, // FMax/FMin propagate NaN (numpy)
  FMaxNum, FMinNum,                   // the other operand when one is NaN (IEEE maxNum)
  FCmpLT, FCmpLE, FCmpGT, FCmpGE, FCmpEQ, FCmpNE, // result: int 0/1
  SIToFP, FPToSI, // convert a (b unused); FPToSI truncates toward zero
  FSqrt, FAbs,    // of a (b unused)
  And, Or, Xor, Shl, ShrS,
};

enum class Opcode : uint8_t {
  // --- scalar unit (pipe S); registers hold int64 ---
  ConstI,    // r[dst] = imm
  ArgI,      // r[dst] = integer kernel argument #argIndex
  BlockIdx,  // r[dst] = block (core) index
  BlockNum,  // r[dst] = number of blocks in the launch
  SubBlockIdx, // r[dst] = this vector core's index in its MIX group (0 on
               // the AIC and on kernels with one vector core per group)
  Scalar,    // r[dst] = scalarOp(a, b)
  Select,    // r[dst] = a ? b : c
  Jump,      // pc = target
  BranchIfZero, // if (a == 0) pc = target
  // --- data movement ---
  CopyGmToLocal, // MTE2: local[dstAddr..] <- gm[arg gmArg][a .. a+b) ; rest of
                 // the tile (tileElems) filled with padValue when hasPad
  CopyLocalToGm, // MTE3: gm[arg gmArg][a .. a+b) <- local[srcAddr..]
  CopyGmToLocalNd, // MTE2 (Ascend950), DataCopy with NdDmaParams: the loops
                   // Program::ndCopies[ndCopy], outermost first; position
                   // (i_0, ..) of local[dstAddr] at sum i_k * dstStride_k
                   // elements = gm[arg gmArg][a + sum i_k * srcStride_k]
                   // when every i_k < size_k, else the pad value fimm
  // --- vector unit (pipe V) ---
  VecBinary, // local[dstAddr] = vecOp(local[src0Addr], local[src1Addr]), c elems
  VecUnary,  // local[dstAddr] = vecOp(local[src0Addr]), c elems
  VecDup,    // local[dstAddr][0..c) = scalar (see Instr::scalar)
  // --- added for the full vector language ---
  ArgF,        // r[dst] = bits of (double) float kernel argument #argIndex
  VecScalar,   // local[dstAddr] = vecOp(local[src0Addr], scalar), c elems;
               // scalarFirst => vecOp(scalar, local[src0Addr])
  VecCast,     // local[dstAddr] (dtype) = cast(local[src0Addr] (srcDtype),
               // roundMode), c elems
  VecCompare,  // local[dstAddr] (Bool, 1 bit per element) =
               // cmp(local[src0Addr], src1) with src1 = local[src1Addr], or
               // the scalar when scalarRhs; c elems; dtype = operand type
  VecSelect,   // local[dstAddr] = local[maskAddr] (Bool bits) ? src0 : src1,
               // c elems; src0/src1 are buffers, or the scalar when
               // scalarRhs (replaces src1)
  // Level-0 ("high-dimension slicing") calls, geometry of asc2/Arch/
  // VectorRepeat.h: `repeat` repeats of the first `mask` lanes; block k of
  // repeat i of operand X (0 dst, 1 src0, 2 src1) starts
  // (i * repStride[X] + k * blkStride[X]) * 32 bytes after its address.
  VecWholeReduce,  // WholeReduce<reduceKind>: repeat i of src0Addr reduces
                   // to one result at dstAddr + i * repStride[0] results
                   // (one element, two for value/index: reduceOrder)
  VecBinaryRepeat, // dst = vecOp(src0, src1) (Add, Max, Min, Mul) per lane
  // Shape calls (Target/Sim/ShapeInstrs.cpp, kernels in Sim/ShapeKernels.cpp);
  // strides are in 32-byte blocks, as in the Ascend C API reference.
  VecBrcb,     // Brcb: repeat i (< repeat) fills dst block (i*repStride[0]
               // + j*blkStride[0]) with src element 8i + j, j < 8
  VecCopy,     // level-0 Copy, continuous mask: repeat i copies its first
               // `mask` elements; block b of repeat i is read at src block
               // i*repStride[1] + b*blkStride[1], written at dst block
               // i*repStride[0] + b*blkStride[0]
  VecGatherMask, // GatherMask: repeat i reads `mask` elements (as VecCopy's
               // source, blkStride[1], repStride[1]) and packs those its
               // pattern keeps into dst, consecutive across repeats; the
               // pattern is built-in (gatherPattern 1..7) or, with
               // gatherPattern 0, the bits at src1Addr (repeat i's from
               // i*repStride[2] blocks on); see ShapeKernels.h
  LocalDataCopy, // DataCopy within UB on V: blockCount runs of blockLen
               // blocks; src runs srcGap blocks apart, dst dstGap
  VecTranspose,// Transpose NCHW -> NHWC: batch (n) matrices of a (c) rows x b
               // (h*w) cols in src become b x a in dst ([c][r] = [r][c]);
               // the API's scratch at tmpAddr (tmpBytes) is clobbered
  ScalarLoadLocal,  // pipe S: r[dst] = local[srcSpace][src0Addr + a*width]
                    // (float dtypes load as double bits)
  ScalarStoreLocal, // pipe S: local[dstSpace][dstAddr + a*width] = scalar
  ScalarLoadGm,     // pipe S: r[dst] = gm[gmArg][a]
  ScalarStoreGm,    // pipe S: gm[gmArg][a] = scalar
  // --- cube path (AIC cores). Fractal layouts, C0 = 32 / element bytes
  // (16 for f16/bf16, 8 for f32, 32 for int8); a tile of R x C elements has
  // R and C padded to multiples of 16 (Rp, Cp) -- for int8 the dimension
  // split into C0-wide blocks (C in L1/L0A, R in L0B) pads to a multiple of
  // 32; index of element (r, c):
  //   L1  "NZ"  (any R x C):     (c / C0) * (Rp * C0) + r * C0 + c % C0
  //   L0A "ZZ"  (A, M x K):      (r / 16) * (Cp * 16) + (c / C0) * (16 * C0)
  //                               + (r % 16) * C0 + c % C0   on c220;
  //   L0A "NZ"  on c310 (LoadData2DParamsV2): the L1 formula
  //   L0B "ZN"  (B, K x N):      (r / C0) * (Cp * C0) + (c / 16) * (16 * C0)
  //                               + (c % 16) * C0 + r % C0
  //   L0C "NZ"  (C, M x N, f32): (c / 16) * (Rp * 16) + r * 16 + c % 16
  //   (L0C uses the L1 formula with C0 = 16.)
  CopyGmToL1Nz, // MTE2: GM ND -> L1 NZ at dstAddr. rows (Operand) valid rows
                // of b valid elements each, starting at GM element a of
                // gm[gmArg], rows gmRowStride elements apart; the local tile
                // is tileRows x tileCols; elements outside the valid region
                // are zero. dtype = element type (F16, BF16, F32, I8).
                // rows <= tileRows and b <= tileCols, else an error.
  LoadL1ToL0,   // MTE1: the tileRows x tileCols sub-tile at row a, column b
                // (immediates or registers, multiples of 16) of the L1 NZ
                // tile of srcTileRows x srcTileCols elements (dtype) at
                // src0Addr -> dstSpace (L0A: ZZ / NZ on c310, L0B: ZN) at dstAddr.
                // srcTileRows/Cols = 0 => the source is exactly tileRows x
                // tileCols. transpose: the tileCols x tileRows sub-tile at
                // (a, b), transposed (LoadData's transpose).
  Mmad,         // M: L0C[dstAddr] (NZ, dtype F32, or I32 for int8 inputs) =
                // (init ? 0 : L0C) + L0A[src0Addr] (ZZ / NZ, a x b, srcDtype) *
                // L0B[src1Addr] (ZN, b x c, srcDtype); a = m, b = k, c = n
                // (immediates, or registers checked at run time; multiples
                // of 16, k of 32 for int8); init = Instr::init (register
                // or immediate; nonzero => overwrite). Products accumulate in
                // f32 in k order (int8: int32, wrapping). srcDtype F16, BF16
                // or F32 => dtype F32; I8 => I32. hf32: F32 operands are
                // rounded to HF32 first (SetHF32Mode). hasBias: see below.
  FixpipeToL1,  // FIX: L0C NZ tile (tileRows x tileCols, srcDtype) at src0Addr
                // -> L1 NZ tile of dtype at dstAddr (relu, rounding as
                // FixpipeToGm): a matmul result staged for the next matmul.
  FixpipeToUb,  // FIX on the AIC (Ascend950): L0C NZ tile (tileRows x
                // tileCols, srcDtype) at src0Addr -> ND rows of tileCols
                // elements (dtype, relu and rounding as FixpipeToGm) in the
                // UB of the group's AIV at dstAddr: AIV 0, or with `dual`
                // rows [0, tileRows/2) to AIV 0 and the rest to AIV 1.
  CopyUbToL1,   // MTE3 on an AIV (Ascend950): UB -> the group's AIC's L1.
                // 2-D: `rows` (immediate) rows of tileCols elements from
                // src0Addr + element a (rows localRowStride apart) into the
                // NZ tile of tileRows x tileCols at dstAddr, from row b (an
                // operand; 0 unless a split half). ndRow: tileCols elements
                // copied as they are (a 1-D bias row).
  CopyL1ToBt,   // MTE1: c elements of a matmul bias row from L1 (srcDtype
                // F32/F16/BF16, the row of tileElems elements at src0Addr,
                // from element a) to the bias table (BT, dtype F32, widened)
                // at dstAddr. tileElems = 0: no row bound.
  FixpipeToGm,  // FIX: L0C NZ tile (tileRows x tileCols, srcDtype F32/I32) at
                // src0Addr -> gm[gmArg] ND: rows (Operand) valid rows of b
                // valid columns to GM element a, rows gmRowStride apart;
                // converted to dtype (rint); relu => max(x, 0) first; atomic
                // combines with GM like CopyLocalToGm. F32 -> F32/F16/BF16,
                // I32 -> I32. rows <= tileRows and b <= tileCols.
  CrossCoreSetFlag,  // on `pipe`: MIX kernels: raise cross-core flag eventId
                     // (0..15) towards the other side of the block's group
                     // (AIC -> its AIV, AIV -> its AIC); counting semaphore.
                     // Fires once the earlier work of `pipe` is done (not S:
                     // hardware needs a real pipe); `cores` must name one
                     // side. The counter may not exceed 15 (checked).
  CrossCoreWaitFlag, // on `pipe`: wait until the counter of eventId set by
                     // the other side is > 0, then decrement it; completes
                     // at max(issue, set + crossCoreFlagCycles). A wait that
                     // can never be satisfied is a deadlock error.
  // --- synchronisation ---
  SetFlag,     // on pipe flagSrc: flag(flagSrc -> flagDst, eventId) = 1
  WaitFlag,    // on pipe flagDst: wait for the flag, then clear it
  PipeBarrier, // barrier on `pipe`; allPipes => PIPE_ALL
  GetBuf,      // on `pipe`: take buffer id eventId (Ascend950 Mutex::Lock);
               // holds the pipe until the previous holder released it. The
               // id must be free in program order (pairs of one id do not
               // interleave): otherwise a deadlock error.
  RlsBuf,      // on `pipe`: release buffer id eventId once the pipe's earlier
               // work is done (Mutex::Unlock); does not hold the pipe.
  End,
};

/// The instructions the vector unit (pipe V) executes: one list for the issue
/// loop, the verifier and the timing, so adding one cannot miss a place.
bool isVectorOpcode(Opcode op);

/// An integer operand: a register when reg >= 0, else the immediate.
struct Operand {
  int32_t reg = -1;
  int64_t imm = 0;
  static Operand ofReg(int32_t r) { return {r, 0}; }
  static Operand ofImm(int64_t v) { return {-1, v}; }
  bool isReg() const { return reg >= 0; }
};

struct SourceLoc {
  std::string file;
  int line = 0;
  int col = 0;
};

struct Instr {
  Opcode op = Opcode::End;
  Pipe pipe = Pipe::S;     // pipe the instruction executes on
  DType dtype = DType::F32;
  ScalarOp scalarOp = ScalarOp::Add;
  bool roundsToDtype = false; // Scalar/ArgF: a float result rounded to dtype (f32 ops in f32)
  VecOp vecOp = VecOp::Add;

  int32_t dst = -1;        // scalar destination register
  Operand a, b, c;         // scalar operands; for copies a = GM element
                           // offset, b = element count; for vector ops
                           // c = element count
  int32_t argIndex = -1;   // ArgI: which kernel argument
  int32_t gmArg = -1;      // copies: index of the GM kernel argument
  Space dstSpace = Space::UB, srcSpace = Space::UB;
  int64_t dstAddr = 0, src0Addr = 0, src1Addr = 0; // byte offsets in space
  int64_t tileElems = 0;   // copies: capacity of the local tile (elements)
  bool hasPad = false;
  double fimm = 0.0;       // pad value / duplicate value
  Pipe flagSrc = Pipe::S, flagDst = Pipe::S;
  uint8_t eventId = 0;     // flags; GetBuf/RlsBuf: the buffer id
  bool allPipes = false;   // PipeBarrier(PIPE_ALL)
  int32_t target = -1;     // jumps

  // --- fields of the full vector language ---
  DType srcDtype = DType::F32;  // VecCast source type
  RoundMode roundMode = RoundMode::None;
  CmpMode cmpMode = CmpMode::LT;
  ReduceKind reduceKind = ReduceKind::Sum;
  // Level-0 calls (VecWholeReduce, VecBinaryRepeat, VecBrcb, VecCopy; see
  // Opcode): one set of repeat parameters, operand 0 = dst, 1 = src0,
  // 2 = src1, strides in 32-byte blocks (WholeReduce's dst repStride counts
  // results).
  ReduceOrder reduceOrder = ReduceOrder::ValueIndex;
  int64_t mask = 0;             // count mask (lanes per repeat)
  int64_t repeat = 0;           // repeatTime
  int64_t blkStride[3] = {1, 1, 1};
  int64_t repStride[3] = {8, 8, 8};
  int64_t maskAddr = 0;         // VecSelect: Bool mask buffer (same space)
  /// The scalar of VecScalar/VecDup/VecCompare/VecSelect/ScalarStore*: the
  /// register when scalar.isReg() (double bits for float dtypes, int64 for
  /// integers), else fimm.
  Operand scalar;
  bool scalarFirst = false;     // VecScalar: scalar is the left operand
  bool scalarRhs = false;       // VecCompare/VecSelect: scalar replaces src1
  // 2-D copies: `rows` rows of b elements each; GM rows start gmRowStride
  // elements apart, local rows localRowStride elements apart. Elements of a
  // copied row past b, and rows past `rows` up to tileRows, are padded when
  // hasPad. 1-D copies: rows = 1, tileRows = 1, localRowStride = tileElems.
  Operand rows = Operand::ofImm(1);
  Operand gmRowStride = Operand::ofImm(0);
  int64_t localRowStride = 0;   // 0 => tileElems (one row)
  int64_t tileRows = 1;
  AtomicKind atomic = AtomicKind::None; // CopyLocalToGm: GM = op(GM, local)
  /// CopyGmToLocal/CopyLocalToGm `at` a row of the buffer (gather/scatter):
  /// the local side starts localOffset elements (register or immediate)
  /// after its address, and must end within the buffer's localElems
  /// elements (0: no `at`). tileElems/tileRows then describe the region.
  Operand localOffset = Operand::ofImm(0);
  int64_t localElems = 0;
  // LocalDataCopy, in 32-byte blocks
  int64_t blockCount = 0, blockLen = 0, srcGap = 0, dstGap = 0;
  int64_t tmpAddr = 0, tmpBytes = 0;            // VecTranspose scratch
  int64_t gatherPattern = 0;    // VecGatherMask: built-in pattern, 0 = src1Addr

  // --- asc2.mask(bits=...) and rank-N transposes ---
  /// VecBinary/VecScalar/VecUnary/VecCast/VecCompare/VecSelect: the c
  /// elements go in repeats of 256 bytes of the op's element type (the wider
  /// one for casts: 128 lanes for 16-bit, 64 for 32-bit types) and lane l of
  /// every repeat is computed only when bit l of maskHigh:maskLow is set
  /// (l < 64: maskLow); the other lanes of dst keep their contents.
  bool bitMask = false;
  Operand maskHigh, maskLow;    // registers (int64 bits) or immediates
  int64_t batch = 1;            // VecTranspose: n, consecutive rows x cols matrices

  // --- cube path ---
  int64_t tileCols = 0;         // CopyGmToL1Nz/LoadL1ToL0/FixpipeToGm: tile
                                // is tileRows x tileCols elements
  int64_t srcTileRows = 0, srcTileCols = 0; // LoadL1ToL0 source tile dims
  Operand init = Operand::ofImm(1); // Mmad: nonzero => C = A*B (no accumulate)
  bool hasBias = false;         // Mmad: with init, C = bias + A*B, bias = the
  int64_t biasAddr = 0;         // n f32 values (dtype of C) in BT at biasAddr
  bool relu = false;            // FixpipeToGm
  bool transpose = false;       // LoadL1ToL0: load the transposed sub-tile
                                // (tileCols x tileRows at (a, b) of the source)
  bool hf32 = false;            // Mmad: float32 operands rounded to HF32
  bool dual = false;            // FixpipeToUb: rows halved between two AIVs
  bool ndRow = false;           // CopyUbToL1: a plain row, not NZ
  /// Which cores of a MIX group execute this instruction: bit 0 = AIC (cube
  /// core), bit 1 = AIV (vector core). Scalar control flow runs on both.
  /// Ignored by AIV_ONLY / AIC_ONLY kernels (every instruction runs).
  uint8_t cores = kBothCores;
  static constexpr uint8_t kAicCore = 1, kAivCore = 2, kBothCores = 3;
  /// With kAivCore, in a MIX_AIC_1_2 kernel whose vector work was not
  /// divided: only AIV 0 executes it (the second AIV runs the control flow
  /// and the cross-core flags).
  static constexpr uint8_t kFirstAivOnly = 4;

  int32_t ndCopy = -1;     // CopyGmToLocalNd: index into Program::ndCopies
  int32_t point = -1;      // program point in the final IR (stable across views)
  int32_t loc = -1;        // index into Program::locs, -1 if unknown
};

/// Where a kernel runs (Ascend C KERNEL_TYPE_*): vector cores only, cube
/// cores only, or MIX: each block is a group of one AIC and one AIV that run
/// the same control flow, each executing the instructions whose `cores` bit
/// it has, and exchange data through GM (workspace) with cross-core flags.
enum class KernelType : uint8_t { AivOnly, AicOnly, Mix };
const char *kernelTypeName(KernelType t); // "AIV_ONLY", "AIC_ONLY", "MIX"

/// gmArg of copies (and scalar GM loads/stores) that address the per-block
/// GM workspace (Program::workspaceBytesPerBlock > 0): offsets are relative
/// to the block's own workspace slice, in elements of the instruction's
/// dtype.
constexpr int32_t kWorkspaceArg = -2;

/// One loop of an N-dimensional DMA (CopyGmToLocalNd).
struct NdCopyLoop {
  Operand size;          // positions read from GM, 0..extent (register or immediate)
  int64_t extent = 1;    // positions written locally (the rest is padding)
  int64_t srcStride = 0; // elements between positions in GM
  int64_t dstStride = 0; // elements between positions in the local buffer
};

struct ArgSpec {
  enum class Kind : uint8_t { Gm, Int, Float } kind = Kind::Gm;
  DType dtype = DType::F32; // element type for Gm
  std::string name;
};

/// Raw Ascend C the kernel's author wrote (asc2.inline, asc2.inline_vf): C++
/// the simulator cannot execute. A launch of a program that holds any is
/// refused before it starts, naming the first (inlineCodeRefusal).
struct InlineCode {
  std::string api;  // "asc2.inline" or "asc2.inline_vf"
  int32_t loc = -1; // index into Program::locs, -1 if unknown
};

/// Why a launch of `site`'s program is refused, and what to do instead (the
/// message, without the location).
std::string inlineCodeRefusal(const InlineCode &site);

struct Program {
  std::string kernelName;
  std::vector<ArgSpec> args;
  std::vector<Instr> code;          // ends with Opcode::End
  /// The loops of each CopyGmToLocalNd (Instr::ndCopy), outermost first.
  std::vector<std::vector<NdCopyLoop>> ndCopies;
  int32_t numRegs = 0;
  std::vector<SourceLoc> locs;
  /// Mnemonic of the op at each program point ("ascendc.data_copy", ...),
  /// indexed by Instr::point; used for error messages and traces.
  std::vector<std::string> pointNames;
  KernelType kernelType = KernelType::AivOnly;
  /// Bytes of GM workspace per block (MIX kernels); the simulator allocates
  /// blockNum slices (zero-filled) for each launch.
  int64_t workspaceBytesPerBlock = 0;
  /// MIX kernels: vector cores (AIVs) per group, 1 (KERNEL_TYPE_MIX_AIC_1_1)
  /// or 2 (KERNEL_TYPE_MIX_AIC_1_2: the compiler split the vector work by
  /// sub-block index).
  int vectorCoresPerGroup = 1;
  /// Every asc2.inline / inline_vf of the kernel, in program order: no
  /// instruction stands for them, and a launch is refused.
  std::vector<InlineCode> inlineCode;
};

} // namespace asc2::sim

#endif
