//===- CubeCalls.cpp - the cube unit's API calls ----------------------------===//
//
// LoadData (L1 -> L0A/L0B), Mmad into L0C, Fixpipe to GM or L1 and the
// bias copy L1 -> BT.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace asc2::ascendc;

namespace asc2::ascendc_emitter {

/// The Fixpipe parameter struct of the target: FixpipeParamsV220 on c220,
/// FixpipeParamsArch3510<CO2Layout::layout> on c310
/// (mirror-cann/asc-devkit@82b89a15f:include/basic_api/kernel_struct_fixpipe.h;
/// examples/.../fixpipe_l0c2gm). Neither struct initialises deqScalar, so the
/// callers set it (0: no scalar quantisation).
std::string Emitter::fixpipeParams(StringRef layout) const {
  if (!c310)
    return "AscendC::FixpipeParamsV220";
  return ("AscendC::FixpipeParamsArch3510<AscendC::CO2Layout::" + layout + ">").str();
}

FamilyResult Emitter::emitCubeFamily(Operation *op) {
  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
      .Case<LoadDataOp>([&](LoadDataOp o) {
        auto dst = o.getDst().getType(), src = o.getSrc().getType();
        int64_t c0 = 32 / std::max<int64_t>(1, dst.getSizeInBytes() / dst.getNumElements());
        int64_t srcBand = src.getShape()[0] / 16;
        bool right = dst.getSpaceName() == "L0B";
        // {transpose}: dst band `band` is source column block col/C0 + band,
        // its fractals consecutive source row blocks, each transposed.
        bool transpose = o.getTranspose();
        // The origin's fractal row / column block: static, or runtime (at [r, c]).
        std::string rowBlock = std::to_string(o.getRow() / 16);
        std::string colBlock = std::to_string(o.getCol() / c0);
        if (!o.getOrigin().empty()) {
          rowBlock = "(" + name(o.getOrigin()[0]) + ") / 16";
          colBlock = "(" + name(o.getOrigin()[1]) + ") / " + std::to_string(c0);
        }
        if (c310) {
          // One LoadData2DParamsV2 for the whole sub-tile: L1 NZ -> L0A NZ /
          // L0B ZN (mirror-cann/asc-devkit@82b89a15f:docs/zh/api/SIMD-API/
          // 基础API/矩阵计算（ISASI）/矩阵计算的搬入/LoadData_2D_V2.md, and the
          // examples/.../load_data_2dv2_l12l0 sample). Its M x K view: the
          // source sub-tile's rows (16 per step) by its 32-byte column blocks;
          // L0B's ZN of B is the NZ of B^T, so a non-transposed B is a
          // transposing load and every destination is "NZ of its major
          // operand" with dstStride = that operand's row blocks.
          int64_t subRows = transpose ? dst.getShape()[1] : dst.getShape()[0];
          int64_t subCols = transpose ? dst.getShape()[0] : dst.getShape()[1];
          int64_t majorRows = right ? dst.getShape()[1] : dst.getShape()[0];
          line() << "{\n";
          line() << "  AscendC::LoadData2DParamsV2 p;\n";
          line() << "  p.mStartPosition = static_cast<uint32_t>(" << rowBlock << ");\n";
          line() << "  p.kStartPosition = static_cast<uint32_t>(" << colBlock << ");\n";
          line() << "  p.mStep = " << (subRows + 15) / 16 << ";\n";
          line() << "  p.kStep = " << (subCols + c0 - 1) / c0 << ";\n";
          line() << "  p.srcStride = " << srcBand << ";\n";
          line() << "  p.dstStride = " << (majorRows + 15) / 16 << ";\n";
          line() << "  p.ifTranspose = " << (right != transpose ? "true" : "false") << ";\n";
          line() << "  AscendC::LoadData(" << name(o.getDst()) << ", " << name(o.getSrc())
                 << ", p);" << srcLine(o) << "\n";
          line() << "}\n";
          return success();
        }
        if (right && !transpose && c0 == 32) {
          // int8 B as stored on c220: LoadData2DParams transposes only b16
          // fractals; LoadDataWithTranspose pairs the two 16 x 32 fractals
          // of a 32-row band of a column block (consecutive in NZ) into a
          // 32 x 32 square and writes its transpose as two ZN fractals
          // (load_data_with_transpose.py, b8). One call per 32 rows of K:
          // N / 32 squares, srcStride = the L1 tile's 32-row bands, dstGap 1
          // (two fractals a square), dstFracGap 0 (Huawei's Matmul:
          // load_to_l0b_loadInstr.h, LOAD2DTRANSPOSE).
          int64_t kBands = dst.getShape()[0] / 32, squares = dst.getShape()[1] / 32;
          int64_t srcBands = src.getShape()[0] / 32;
          std::string rowBand = std::to_string(o.getRow() / 32);
          if (!o.getOrigin().empty())
            rowBand = "(" + name(o.getOrigin()[0]) + ") / 32";
          line() << "for (int band = 0; band < " << kBands << "; ++band) {\n";
          line() << "  AscendC::LoadData2dTransposeParams p(static_cast<uint16_t>((" << colBlock
                 << ") * " << srcBands << " + " << rowBand << " + band), " << squares << ", "
                 << srcBands << ", 1, 0);\n";
          line() << "  AscendC::LoadDataWithTranspose(" << name(o.getDst()) << "[band * "
                 << dst.getShape()[1] / 16 * 512 << "], " << name(o.getSrc()) << ", p);"
                 << srcLine(o) << "\n";
          line() << "}\n";
          return success();
        }
        // c220: one LoadData2DParams per row of destination fractals: L1 NZ
        // -> L0A ZZ (16 x C0 fractals: M / 16 rows of K / C0) / L0B ZN (C0 x
        // 16 fractals: K / C0 rows of N / 16; the same for 16-bit types, not
        // for float32, whose ZN fractal is 8 rows of K).
        int64_t bands = dst.getShape()[0] / (right ? c0 : 16);
        int64_t perBand = dst.getShape()[1] / (right ? 16 : c0);
        line() << "for (int band = 0; band < " << bands << "; ++band) {\n";
        line() << "  AscendC::LoadData2DParams p;\n";
        if (transpose)
          line() << "  p.startIndex = static_cast<uint16_t>((" << colBlock << " + band) * "
                 << srcBand << " + " << rowBlock << ");\n";
        else
          line() << "  p.startIndex = static_cast<uint16_t>((" << colBlock << ") * "
                 << srcBand << " + " << rowBlock << " + band);\n";
        line() << "  p.repeatTimes = " << perBand << ";\n";
        line() << "  p.srcStride = " << (transpose ? 1 : srcBand) << ";\n";
        line() << "  p.ifTranspose = " << (right != transpose ? "true" : "false") << ";\n";
        line() << "  AscendC::LoadData(" << name(o.getDst()) << "[band * " << perBand * 16 * c0
               << "], " << name(o.getSrc()) << ", p);" << srcLine(o) << "\n";
        line() << "}\n";
        return success();
      })
      .Case<LoadData3DV2Op>([&](LoadData3DV2Op o) {
        // LoadData(dst, src, LoadData3DParamsV2<T>) with the default
        // IsResetLoad3dConfig: the call sets the feature-map (l1H, l1W,
        // padList) and padding registers itself (LoadData_3D.md; field names
        // from include/basic_api/kernel_struct_mm.h). The filter stays 1x1
        // with stride and dilation 1, the struct's defaults.
        std::string m0 = std::to_string(o.getMStartPt()), k0 = std::to_string(o.getKStartPt());
        if (!o.getStart().empty()) {
          m0 = "static_cast<uint16_t>(" + name(o.getStart()[0]) + " + " + m0 + ")";
          k0 = "static_cast<uint16_t>(" + name(o.getStart()[1]) + " + " + k0 + ")";
        }
        line() << "{\n";
        line() << "  AscendC::LoadData3DParamsV2<" << cType(o.getSrc().getType().getElementType())
               << "> p;\n";
        line() << "  p.l1H = " << o.getL1H() << ";\n";
        line() << "  p.l1W = " << o.getL1W() << ";\n";
        line() << "  p.channelSize = " << o.getChannelSize() << ";\n";
        line() << "  p.kExtension = " << o.getKExtension() << ";\n";
        line() << "  p.mExtension = " << o.getMExtension() << ";\n";
        line() << "  p.kStartPt = " << k0 << ";\n";
        line() << "  p.mStartPt = " << m0 << ";\n";
        if (o.getEnTranspose())
          line() << "  p.enTranspose = true;\n";
        line() << "  AscendC::LoadData(" << name(o.getDst()) << ", " << name(o.getSrc()) << ", p);"
               << srcLine(o) << "\n";
        line() << "}\n";
        return success();
      })
      .Case<MmadOp>([&](MmadOp o) {
        auto a = o.getLhs().getType(), b = o.getRhs().getType();
        bool hf32 = o.getHf32();
        // SetHF32Mode(HF32Mode); the bool overload is deprecated
        // (include/basic_api/kernel_operator_mm_intf.h).
        if (hf32)
          line() << "AscendC::SetHF32Mode(AscendC::HF32Mode::ENABLE);\n";
        // MmadParams' last field is cmatrixInitVal: true starts C from 0;
        // false starts it from the bias table with the bias overload (its
        // position sets cmatrixSource) and from L0C (accumulate) without it
        // (Mmad.md, 参数说明). An mmad with a bias starts from it when `init`
        // holds and accumulates otherwise.
        std::string mnk = std::to_string(a.getShape()[0]) + ", " + std::to_string(b.getShape()[1]) +
                          ", " + std::to_string(a.getShape()[1]) + ", 0, false, ";
        std::string operands = name(o.getDst()) + ", " + name(o.getLhs()) + ", " + name(o.getRhs());
        if (Value bias = o.getBias()) {
          line() << "if (" << name(o.getInit()) << ")\n";
          line() << "  AscendC::Mmad(" << operands << ", " << name(bias) << ", AscendC::MmadParams{"
                 << mnk << "false});" << srcLine(o) << "\n";
          line() << "else\n";
          line() << "  AscendC::Mmad(" << operands << ", AscendC::MmadParams{" << mnk << "false});"
                 << srcLine(o) << "\n";
        } else {
          line() << "AscendC::Mmad(" << operands << ", AscendC::MmadParams{" << mnk
                 << "static_cast<bool>(" << name(o.getInit()) << ")});" << srcLine(o) << "\n";
        }
        if (hf32)
          line() << "AscendC::SetHF32Mode(AscendC::HF32Mode::DISABLE);\n";
        return success();
      })
      .Case<FixpipeL1Op>([&](FixpipeL1Op o) {
        auto src = o.getSrc().getType();
        std::string out = cType(o.getDst().getType().getElementType());
        std::string in = cType(src.getElementType());
        std::string quant = out == in ? "NoQuant" : out == "half" ? "F322F16" : "F322BF16";
        line() << "{\n";
        indent += 2;
        // NZ -> NZ: dstStride is the distance of the destination's column
        // blocks, in 32-byte blocks on c220 and in elements on c310
        // (examples/.../fixpipe_l0c2l1/fixpipe_l0c2l1.asc); a C0-wide column
        // block of M rows is M blocks of 32 bytes.
        int64_t m = src.getShape()[0];
        auto dstType = o.getDst().getType();
        int64_t outC0 = 32 / std::max<int64_t>(1, dstType.getSizeInBytes() / dstType.getNumElements());
        line() << fixpipeParams("NZ") << " p;\n";
        line() << "p.nSize = " << src.getShape()[1] << ";\n";
        line() << "p.mSize = " << m << ";\n";
        line() << "p.srcStride = " << m << ";\n";
        line() << "p.dstStride = " << (c310 ? m * outC0 : m) << ";\n";
        line() << "p.quantPre = QuantMode_t::" << quant << ";\n";
        line() << "p.deqScalar = 0;\n";
        line() << "p.reluEn = " << (o.getRelu() ? "true" : "false") << ";\n";
        line() << "AscendC::Fixpipe<" << out << ", " << in << ", AscendC::CFG_NZ>(" << name(o.getDst())
               << ", " << name(o.getSrc()) << ", p);" << srcLine(o) << "\n";
        indent -= 2;
        line() << "}\n";
        return success();
      })
      .Case<FixpipeUbOp>([&](FixpipeUbOp o) {
        // NZ -> ND rows into the vector core's UB (Fixpipe（L0C到UB数据搬运）.md,
        // the fixpipe_l0c2ub sample): srcStride = M rounded up to 16 in C0
        // units, dstStride = the UB row length in elements; dualDstCtl = 1
        // halves M between the two vector cores, subBlockId 0 otherwise. A
        // band of rows from `row` (a fractal boundary) starts row * 16
        // elements into the NZ tile and keeps the whole tile's srcStride.
        auto src = o.getSrc().getType();
        std::string out = cType(o.getDst().getType().getElementType());
        std::string in = cType(src.getElementType());
        std::string quant = out == in ? "NoQuant" : out == "half" ? "F322F16" : "F322BF16";
        int64_t full = src.getShape()[0], n = src.getShape()[1];
        int64_t m = o.getMovedRows();
        std::string from = name(o.getSrc());
        if (o.getRow())
          from += "[" + std::to_string(o.getRow() * 16) + "]";
        line() << "{\n";
        indent += 2;
        line() << fixpipeParams("ROW_MAJOR") << " p;\n";
        line() << "p.nSize = " << n << ";\n";
        line() << "p.mSize = " << m << ";\n";
        line() << "p.srcStride = " << (full + 15) / 16 * 16 << ";\n";
        line() << "p.dstStride = " << n << ";\n";
        line() << "p.quantPre = QuantMode_t::" << quant << ";\n";
        line() << "p.deqScalar = 0;\n";
        line() << "p.reluEn = " << (o.getRelu() ? "true" : "false") << ";\n";
        line() << "p.dualDstCtl = " << (o.getDual() ? 1 : 0) << ";\n";
        line() << "p.subBlockId = false;\n";
        line() << "p.params.ndNum = 1;\n";
        line() << "AscendC::Fixpipe<" << out << ", " << in << ", " << kFixpipeToUbConfig << ">("
               << name(o.getDst()) << ", " << from << ", p);" << srcLine(o) << "\n";
        indent -= 2;
        line() << "}\n";
        return success();
      })
      .Case<CopyUbToL1Op>([&](CopyUbToL1Op o) {
        // DataCopy UB -> L1 (MTE3) in bursts of 32-byte blocks
        // (DataCopy（UBToL1高维切分数据搬运）.md). ND -> NZ: one copy per
        // C0-wide column block, each row one burst, source bursts a row
        // apart, destination bursts consecutive (the rows of the block), as
        // the c310 headers' DataCopyUB2L1ND2NZImplV2 does by column.
        auto dst = o.getDst().getType(), src = o.getSrc().getType();
        int64_t bytes = dst.getSizeInBytes() / std::max<int64_t>(1, dst.getNumElements());
        std::string from = name(o.getSrc());
        if (Value off = o.getOffset())
          from += "[" + name(off) + "]";
        if (dst.getShape().size() == 1) {
          line() << "AscendC::DataCopy(" << name(o.getDst()) << ", " << from << ", "
                 << dst.getNumElements() << ");" << srcLine(o) << "\n";
          return success();
        }
        int64_t c0 = 32 / bytes, tileRows = dst.getShape()[0];
        int64_t blocks = dst.getShape()[1] / c0;
        int64_t srcGap = src.getShape()[1] / c0 - 1;
        std::string to = name(o.getDst());
        std::string rowOff;
        if (Value row = o.getRow())
          rowOff = " + (" + name(row) + ") * " + std::to_string(c0);
        line() << "for (int32_t blk = 0; blk < " << blocks << "; ++blk)\n";
        line() << "  AscendC::DataCopy(" << to << "[blk * " << tileRows * c0 << rowOff << "], "
               << from << "[blk * " << c0 << "], AscendC::DataCopyParams{" << o.getCopiedRows()
               << ", 1, " << srcGap << ", 0});" << srcLine(o) << "\n";
        return success();
      })
      .Case<CopyBiasOp>([&](CopyBiasOp o) {
        std::string src = name(o.getSrc());
        if (Value off = o.getOffset())
          src += "[" + name(off) + "]";
        auto dt = o.getDst().getType(), st = o.getSrc().getType();
        int64_t count = o.getValueCount();
        if (dt.getElementType() == st.getElementType()) {
          line() << "AscendC::DataCopy(" << name(o.getDst()) << ", " << src << ", " << count << ");"
                 << srcLine(o) << "\n";
          return success();
        }
        // A float16/bfloat16 bias widened to float32 on its way: the
        // DataCopyParams form with two element types ("DataCopy（L1ToBiasTable
        // Buffer数据搬运）.md"), blockLen in 64-byte (c220) / 32-byte (c310)
        // units of the source, as Huawei's Matmul computes it
        // (impl/adv_api/detail/matmul/stage/copy_cube_in/bias/load_bias_to_c2.h).
        int64_t srcBytes = count * (st.getSizeInBytes() / st.getNumElements());
        int64_t unit = c310 ? 32 : 64;
        line() << "AscendC::DataCopy(" << name(o.getDst()) << ", " << src
               << ", AscendC::DataCopyParams{1, " << (srcBytes + unit - 1) / unit << ", 0, 0});"
               << srcLine(o) << "\n";
        return success();
      })
      .Case<FixpipeOp>([&](FixpipeOp o) {
        auto src = o.getSrc().getType();
        std::string out = cType(o.getDst().getType().getElementType());
        std::string in = cType(src.getElementType());
        std::string quant = out == in ? "NoQuant" : out == "half" ? "F322F16" : "F322BF16";
        auto atomic = o.getAtomic();
        if (atomic != AtomicKind::NONE)
          line() << "AscendC::SetAtomic"
                 << (atomic == AtomicKind::ADD ? "Add" : atomic == AtomicKind::MAX ? "Max" : "Min")
                 << "<" << out << ">();\n";
        line() << "{\n";
        indent += 2;
        line() << fixpipeParams("ROW_MAJOR") << " p;\n";
        line() << "p.nSize = static_cast<uint16_t>(" << name(o.getCount()) << ");\n";
        line() << "p.mSize = static_cast<uint16_t>(" << name(o.getRows()) << ");\n";
        line() << "p.srcStride = " << src.getShape()[0] << ";\n";
        line() << "p.dstStride = static_cast<uint32_t>(" << name(o.getRowStride()) << ");\n";
        line() << "p.quantPre = QuantMode_t::" << quant << ";\n";
        line() << "p.deqScalar = 0;\n";
        line() << "p.reluEn = " << (o.getRelu() ? "true" : "false") << ";\n";
        line() << "AscendC::Fixpipe<" << out << ", " << in << ", AscendC::CFG_ROW_MAJOR>("
               << name(o.getDst()) << "[" << name(o.getOffset()) << "], " << name(o.getSrc())
               << ", p);" << srcLine(o) << "\n";
        indent -= 2;
        line() << "}\n";
        if (atomic != AtomicKind::NONE) // SetAtomicNone is deprecated for it
          line() << "AscendC::DisableDmaAtomic();\n";
        return success();
      })
      .Default([](Operation *) { return std::nullopt; });
}

} // namespace asc2::ascendc_emitter
