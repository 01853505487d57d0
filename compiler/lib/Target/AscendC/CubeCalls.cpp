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

FamilyResult Emitter::emitCubeFamily(Operation *op) {
  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
      .Case<LoadDataOp>([&](LoadDataOp o) {
        // One LoadData2D per 16-row band of fractals: L1 NZ -> L0A ZZ / L0B ZN.
        auto dst = o.getDst().getType(), src = o.getSrc().getType();
        int64_t c0 = 32 / std::max<int64_t>(1, dst.getSizeInBytes() / dst.getNumElements());
        int64_t bands = dst.getShape()[0] / 16;
        int64_t perBand = dst.getShape()[1] / c0;
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
      .Case<MmadOp>([&](MmadOp o) {
        auto a = o.getLhs().getType(), b = o.getRhs().getType();
        bool hf32 = o.getHf32();
        if (hf32)
          line() << "AscendC::SetHF32Mode(true);\n";
        line() << "AscendC::Mmad(" << name(o.getDst()) << ", " << name(o.getLhs()) << ", "
               << name(o.getRhs()) << (o.getBias() ? ", " + name(o.getBias()) : std::string())
               << ", AscendC::MmadParams{" << a.getShape()[0] << ", "
               << b.getShape()[1] << ", " << a.getShape()[1] << ", 0, false, "
               << "static_cast<bool>(" << name(o.getInit()) << ")});" << srcLine(o) << "\n";
        if (hf32)
          line() << "AscendC::SetHF32Mode(false);\n";
        return success();
      })
      .Case<FixpipeL1Op>([&](FixpipeL1Op o) {
        auto src = o.getSrc().getType();
        std::string out = cType(o.getDst().getType().getElementType());
        std::string in = cType(src.getElementType());
        std::string quant = out == in ? "NoQuant" : out == "half" ? "F322F16" : "F322BF16";
        line() << "{\n";
        indent += 2;
        line() << "AscendC::FixpipeParamsV220 p;\n";
        line() << "p.nSize = " << src.getShape()[1] << ";\n";
        line() << "p.mSize = " << src.getShape()[0] << ";\n";
        line() << "p.srcStride = " << src.getShape()[0] << ";\n";
        line() << "p.dstStride = " << src.getShape()[0] << ";\n";
        line() << "p.quantPre = QuantMode_t::" << quant << ";\n";
        line() << "p.reluEn = " << (o.getRelu() ? "true" : "false") << ";\n";
        line() << "AscendC::Fixpipe<" << out << ", " << in << ", AscendC::CFG_NZ>(" << name(o.getDst())
               << ", " << name(o.getSrc()) << ", p);" << srcLine(o) << "\n";
        indent -= 2;
        line() << "}\n";
        return success();
      })
      .Case<CopyBiasOp>([&](CopyBiasOp o) {
        std::string src = name(o.getSrc());
        if (Value off = o.getOffset())
          src += "[" + name(off) + "]";
        line() << "AscendC::DataCopy(" << name(o.getDst()) << ", " << src << ", "
               << o.getDst().getType().getNumElements() << ");" << srcLine(o) << "\n";
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
        line() << "AscendC::FixpipeParamsV220 p;\n";
        line() << "p.nSize = static_cast<uint16_t>(" << name(o.getCount()) << ");\n";
        line() << "p.mSize = static_cast<uint16_t>(" << name(o.getRows()) << ");\n";
        line() << "p.srcStride = " << src.getShape()[0] << ";\n";
        line() << "p.dstStride = static_cast<uint32_t>(" << name(o.getRowStride()) << ");\n";
        line() << "p.quantPre = QuantMode_t::" << quant << ";\n";
        line() << "p.reluEn = " << (o.getRelu() ? "true" : "false") << ";\n";
        line() << "AscendC::Fixpipe<" << out << ", " << in << ", AscendC::CFG_ROW_MAJOR>("
               << name(o.getDst()) << "[" << name(o.getOffset()) << "], " << name(o.getSrc())
               << ", p);" << srcLine(o) << "\n";
        indent -= 2;
        line() << "}\n";
        if (atomic != AtomicKind::NONE)
          line() << "AscendC::SetAtomicNone();\n";
        return success();
      })
      .Default([](Operation *) { return std::nullopt; });
}

} // namespace asc2::ascendc_emitter
