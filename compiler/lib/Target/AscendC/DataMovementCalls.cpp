//===- DataMovementCalls.cpp - GM <-> local copies, scalar access -----------===//
//
// DataCopy/DataCopyPad between GM and local buffers (ND -> NZ into L1 for
// the cube, padded partial tiles, atomic stores) and GetValue/SetValue on
// local buffers and GM tensors.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "asc2/Arch/NdDma.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace asc2::ascendc;

namespace asc2::ascendc_emitter {

/// The C++ literal of a copy's pad_value ("0" when absent).
static std::string padLiteral(TypedAttr p) {
  if (auto f = dyn_cast_or_null<FloatAttr>(p))
    return cxxFloatLiteral(f.getValue());
  if (auto i = dyn_cast_or_null<IntegerAttr>(p))
    return std::to_string(i.getInt());
  return "0";
}

/// Fills `count` elements of `dst` (a buffer or a slice of one) with `pad`
/// (a C++ literal; `padAttr` its value) in calls every target has: on the
/// vector pipe, bytes as uint16_t words (no 8-bit
/// Duplicate on A2/A3); 64-bit elements (no int64 Duplicate on A2/A3:
/// dav_c220's Duplicate takes 16- and 32-bit types, mirror-cann/asc-devkit@
/// 82b89a15f:impl/basic_api/dav_c220/kernel_operator_vec_duplicate_impl.h) as
/// uint32_t words when the value's two halves are equal (0, -1), otherwise
/// element by element on the scalar unit (the callers fill between full
/// barriers).
static std::string duplicatePad(const std::string &dst, const std::string &elem, unsigned bits,
                                Attribute padAttr, const std::string &pad,
                                const std::string &count) {
  if (bits == 8)
    return "AscendC::Duplicate(" + dst + ".ReinterpretCast<uint16_t>(), static_cast<uint16_t>(" +
           "static_cast<uint8_t>(" + pad + ") * 0x0101u), (" + count + " + 1) / 2);";
  if (bits == 64) {
    uint64_t v = 0;
    if (auto i = dyn_cast_or_null<IntegerAttr>(padAttr))
      v = i.getValue().getZExtValue();
    if (uint32_t(v) == uint32_t(v >> 32))
      return "AscendC::Duplicate(" + dst + ".ReinterpretCast<uint32_t>(), static_cast<uint32_t>(" +
             std::to_string(uint32_t(v)) + "u), " + count + " * 2);";
    return "for (uint32_t k = 0; k < " + count + "; ++k) " + dst + ".SetValue(k, static_cast<" +
           elem + ">(" + pad + "));";
  }
  return "AscendC::Duplicate(" + dst + ", static_cast<" + elem + ">(" + pad + "), " + count + ");";
}

FamilyResult Emitter::emitDataMovementFamily(Operation *op) {
  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
      .Case<DataCopyInOp>([&](DataCopyInOp o) {
        auto type = o.getDst().getType();
        std::string elem = cType(type.getElementType());
        if (type.getSpaceName() == "L1" && o->hasAttr("nd")) {
          // A bias row, kept as it is in L1.
          line() << "AscendC::DataCopy(" << name(o.getDst()) << ", " << name(o.getSrc()) << "["
                 << name(o.getOffset()) << "], " << type.getNumElements() << ");" << srcLine(o) << "\n";
          return success();
        }
        if (type.getSpaceName() == "L1") {
          // GM (ND) -> L1 (NZ) on MTE2; missing rows/cols are zeroed first.
          int64_t rows = type.getShape()[0];
          int64_t c0 = 32 / std::max<int64_t>(1, type.getSizeInBytes() / type.getNumElements());
          line() << "{\n";
          indent += 2;
          line() << "uint16_t r = static_cast<uint16_t>(" << name(o.getRows()) << ");\n";
          line() << "uint16_t c = static_cast<uint16_t>(" << name(o.getCount()) << ");\n";
          line() << "if (r < " << rows << " || c < " << type.getShape()[1] << ") {\n";
          // Fill (InitConstValue is its deprecated name:
          // mirror-cann/asc-devkit@82b89a15f:include/basic_api/kernel_operator_mm_intf.h).
          line() << "  AscendC::Fill(" << name(o.getDst())
                 << ", AscendC::InitConstValueParams<" << elem << ">{1, static_cast<uint16_t>("
                 << type.getSizeInBytes() / 32 << "), 0, static_cast<" << elem << ">(0)});\n";
          line() << "  AscendC::PipeBarrier<PIPE_ALL>();\n";
          line() << "}\n";
          line() << "AscendC::Nd2NzParams nd2nz{1, r, c, 0, static_cast<uint16_t>("
                 << name(o.getRowStride()) << "), " << rows << ", 1, 0}; // C0 = "
                 << c0 << "\n";
          line() << "AscendC::DataCopy(" << name(o.getDst()) << ", " << name(o.getSrc())
                 << "[" << name(o.getOffset()) << "], nd2nz);" << srcLine(o) << "\n";
          indent -= 2;
          line() << "}\n";
          return success();
        }
        std::string pad = padLiteral(o.getPadValueAttr());
        // DataCopyPad pads the last 32-byte block; a partial tile's tail
        // beyond it is filled on the vector pipe, ordered by a full barrier
        // (only the last, partial tile of a tensor takes that branch).
        int64_t perBlock = 32 / std::max<int64_t>(1, type.getSizeInBytes() /
                                                         type.getNumElements());
        std::string n = name(o.getCount());
        // `at`: one region of rows of the buffer's row length, from element `at`.
        Value at = o.getLocalOffset();
        std::string dst = at ? name(o.getDst()) + "[" + name(at) + "]" : name(o.getDst());
        std::string atPlus = at ? name(at) + " + " : "";
        line() << "{\n";
        indent += 2;
        line() << "uint32_t n = static_cast<uint32_t>(" << n << ");\n";
        line() << "uint8_t right = static_cast<uint8_t>((" << perBlock
               << " - n % " << perBlock << ") % " << perBlock << ");\n";
        std::string blocks = o.getRows() ? "static_cast<uint16_t>(" + name(o.getRows()) + ")" : "1";
        std::string srcGap = o.getRows()
            ? "static_cast<uint32_t>((" + name(o.getRowStride()) + " - n) * sizeof(" + elem + "))"
            : "0";
        std::string dstGap = o.getRows()
            ? "static_cast<uint32_t>((" + std::to_string(type.getShape().back()) + " - n - right) * sizeof(" + elem + ") / 32)"
            : "0";
        line() << "AscendC::DataCopyPad(" << dst << ", "
               << name(o.getSrc()) << "[" << name(o.getOffset())
               << "], AscendC::DataCopyExtParams{" << blocks
               << ", static_cast<uint32_t>(n * sizeof(" << elem << ")), " << srcGap
               << ", " << dstGap << ", 0}, AscendC::DataCopyPadExtParams<" << elem
               << ">{true, 0, right, static_cast<" << elem << ">(" << pad << ")});"
               << srcLine(o) << "\n";
        // Row r of a multi-row copy lands at r * cols: its tail [n + right,
        // cols) and the rows the copy did not reach are the tile's padding.
        // (A copy without rows is one flat run of n elements.)
        int64_t cols = o.getRows() || at ? type.getShape().back() : type.getNumElements();
        int64_t tileRows = type.getNumElements() / std::max<int64_t>(1, cols);
        auto fill = [&](const std::string &where, const std::string &count) {
          line() << "    "
                 << duplicatePad(name(o.getDst()) + "[" + atPlus + where + "]", elem,
                                 perBlock == 32 ? 8 : type.getElementType().getIntOrFloatBitWidth(),
                                 o.getPadValueAttr(), pad, count)
                 << "\n";
        };
        line() << "uint32_t padded = n + right;\n";
        line() << "uint32_t rows = " << (o.getRows() ? "static_cast<uint32_t>(" + name(o.getRows()) + ")" : "1")
               << ";\n";
        // With `at` the region is the copied rows: no missing rows to fill.
        line() << "if (padded < " << cols;
        if (!at)
          os << " || rows < " << tileRows;
        os << ") {\n";
        line() << "  AscendC::PipeBarrier<PIPE_ALL>();\n";
        line() << "  if (padded < " << cols << ")\n";
        line() << "    for (uint32_t r = 0; r < rows; ++r)\n";
        indent += 2;
        fill("r * " + std::to_string(cols) + " + padded", "(" + std::to_string(cols) + " - padded)");
        indent -= 2;
        if (!at) {
          line() << "  if (rows < " << tileRows << ")\n";
          fill("rows * " + std::to_string(cols), "(" + std::to_string(tileRows) + " - rows) * " + std::to_string(cols));
        }
        line() << "  AscendC::PipeBarrier<PIPE_ALL>();\n";
        line() << "}\n";
        indent -= 2;
        line() << "}\n";
        return success();
      })
      .Case<DataCopyNdOp>([&](DataCopyNdOp o) {
        // NdDmaLoopInfo lists loops innermost first; the op outermost first.
        // The DMA pads each loop on the right (at most 255 elements) and
        // takes sizes from 1: a tile with more padding, or none of its box
        // inside the tensor, is filled on the vector pipe first, ordered by
        // full barriers as data_copy_in's tail (the last tiles of a tensor).
        auto type = o.getDst().getType();
        std::string elem = cType(type.getElementType());
        std::string pad = padLiteral(o.getPadValueAttr());
        ArrayRef<int64_t> extents = o.getExtents();
        int64_t loops = extents.size();
        // Constant sizes decide at compile time; the others at run time.
        bool nonEmpty = true, padFits = true;
        std::string runNonEmpty, runPadFits;
        auto conj = [](std::string &to, const std::string &term) {
          to += (to.empty() ? "" : " && ") + term;
        };
        line() << "{\n";
        indent += 2;
        line() << "AscendC::NdDmaParams<" << elem << ", " << loops << "> nd{};\n";
        for (int64_t k = 0; k < loops; ++k) {
          int64_t i = loops - 1 - k; // the op's loop
          std::string size = "nd.loopInfo.loopSize[" + std::to_string(k) + "]";
          line() << size << " = static_cast<uint32_t>(" << name(o.getSizes()[i]) << "); "
                 << "nd.loopInfo.loopSrcStride[" << k << "] = " << o.getSrcStrides()[i] << "; "
                 << "nd.loopInfo.loopDstStride[" << k << "] = " << o.getDstStrides()[i] << ";\n";
          if (std::optional<int64_t> c = getConstantIntValue(o.getSizes()[i])) {
            nonEmpty &= *c >= 1;
            padFits &= extents[i] - *c <= nd_dma::kMaxPad;
            continue;
          }
          conj(runNonEmpty, size + " >= 1");
          if (extents[i] > nd_dma::kMaxPad + 1)
            conj(runPadFits, size + " + " + std::to_string(nd_dma::kMaxPad) + " >= " +
                                 std::to_string(extents[i]));
        }
        line() << "nd.constantValue = static_cast<" << elem << ">(" << pad << ");\n";
        auto rightPads = [&](const std::string &in) {
          for (int64_t k = 0; k < loops; ++k) {
            int64_t i = loops - 1 - k;
            std::optional<int64_t> c = getConstantIntValue(o.getSizes()[i]);
            if (!c || *c != extents[i])
              line() << in << "nd.loopInfo.loopRpSize[" << k << "] = static_cast<uint8_t>("
                     << extents[i] << " - nd.loopInfo.loopSize[" << k << "]);\n";
          }
        };
        auto fillFirst = [&](const std::string &in) {
          line() << in << "AscendC::PipeBarrier<PIPE_ALL>();\n";
          line() << in
                 << duplicatePad(name(o.getDst()), elem, type.getElementType().getIntOrFloatBitWidth(),
                                 o.getPadValueAttr(), pad, std::to_string(type.getNumElements()))
                 << "\n";
          line() << in << "AscendC::PipeBarrier<PIPE_ALL>();\n";
        };
        std::string runPadded = runNonEmpty;
        if (!runPadFits.empty())
          conj(runPadded, runPadFits);
        if (!nonEmpty || !padFits) {
          fillFirst("");
        } else if (runPadded.empty()) {
          rightPads("");
        } else {
          line() << "if (" << runPadded << ") {\n";
          rightPads("  ");
          line() << "} else {\n";
          fillFirst("  ");
          line() << "}\n";
        }
        if (nonEmpty) {
          std::string in = runNonEmpty.empty() ? "" : "  ";
          if (!runNonEmpty.empty())
            line() << "if (" << runNonEmpty << ") {\n";
          line() << in << "AscendC::NdDmaDci();\n";
          line() << in << "AscendC::DataCopy(" << name(o.getDst())
                 << ", " << name(o.getSrc()) << "[" << name(o.getOffset()) << "], nd);" << srcLine(o)
                 << "\n";
          if (!runNonEmpty.empty())
            line() << "}\n";
        }
        indent -= 2;
        line() << "}\n";
        return success();
      })
      .Case<DataCopyOutOp>([&](DataCopyOutOp o) {
        std::string elem = cType(o.getSrc().getType().getElementType());
        auto atomic = o.getAtomic();
        if (atomic != AtomicKind::NONE)
          line() << "AscendC::SetAtomic"
                 << (atomic == AtomicKind::ADD ? "Add" : atomic == AtomicKind::MAX ? "Max" : "Min")
                 << "<" << elem << ">();\n";
        std::string blocks = o.getRows() ? "static_cast<uint16_t>(" + name(o.getRows()) + ")" : "1";
        int64_t cols = o.getSrc().getType().getShape().back();
        std::string srcGap = o.getRows()
            ? "static_cast<uint32_t>((" + std::to_string(cols) + " - " + name(o.getCount()) + ") * sizeof(" + elem + ") / 32)"
            : "0";
        std::string dstGap = o.getRows()
            ? "static_cast<uint32_t>((" + name(o.getRowStride()) + " - " + name(o.getCount()) + ") * sizeof(" + elem + "))"
            : "0";
        std::string src = o.getLocalOffset()
                              ? name(o.getSrc()) + "[" + name(o.getLocalOffset()) + "]"
                              : name(o.getSrc());
        line() << "AscendC::DataCopyPad(" << name(o.getDst()) << "["
               << name(o.getOffset()) << "], " << src
               << ", AscendC::DataCopyExtParams{" << blocks << ", static_cast<uint32_t>("
               << name(o.getCount()) << " * sizeof(" << elem << ")), " << srcGap << ", "
               << dstGap << ", 0});" << srcLine(o) << "\n";
        if (atomic != AtomicKind::NONE) // SetAtomicNone is its deprecated name
          line() << "AscendC::DisableDmaAtomic();\n";
        return success();
      })
      .Case<GetValueOp>([&](GetValueOp o) {
        line() << cType(o.getType()) << " " << name(o.getResult()) << " = "
               << name(o.getBuffer()) << ".GetValue(" << name(o.getIndex()) << ");"
               << srcLine(o) << "\n";
        return success();
      })
      .Case<SetValueOp>([&](SetValueOp o) {
        line() << name(o.getBuffer()) << ".SetValue(" << name(o.getIndex()) << ", "
               << name(o.getValue()) << ");" << srcLine(o) << "\n";
        return success();
      })
      .Case<GmGetValueOp>([&](GmGetValueOp o) {
        line() << cType(o.getType()) << " " << name(o.getResult()) << " = "
               << name(o.getTensor()) << ".GetValue(" << name(o.getIndex()) << ");"
               << srcLine(o) << "\n";
        return success();
      })
      .Case<GmSetValueOp>([&](GmSetValueOp o) {
        // A uint8 scalar is carried in a wider integer: the tensor keeps its low byte.
        Type elem = o.getTensor().getType().getElementType();
        std::string value = name(o.getValue());
        if (o.getValue().getType() != elem)
          value = "static_cast<" + cType(elem) + ">(" + value + ")";
        line() << name(o.getTensor()) << ".SetValue(" << name(o.getIndex()) << ", "
               << value << ");" << srcLine(o) << "\n";
        return success();
      })
      .Default([](Operation *) { return std::nullopt; });
}

} // namespace asc2::ascendc_emitter
