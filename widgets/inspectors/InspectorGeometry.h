// Geometry of the inspector canvases as value types: a linear axis mapping a
// value range (program points, µs, bytes) onto a pixel span with zoom and
// pan, and the lane layout of the timelines. Tested without a GUI.
#pragma once

#include <QRectF>

#include <algorithm>
#include <cmath>

namespace inspector {

/// Maps the visible value window [first, last] onto pixels [pixelStart, pixelEnd].
/// Zoom and pan move the window and keep it inside [lower, upper].
struct Axis {
    double lower = 0, upper = 1;  // the data extent
    double first = 0, last = 1;   // the visible window
    double pixelStart = 0, pixelEnd = 100;

    static Axis over(double lower, double upper)
    {
        Axis a;
        a.setExtent(lower, upper);
        return a;
    }
    void setExtent(double lo, double hi)
    {
        lower = lo;
        upper = hi > lo ? hi : lo + 1;
        first = lower;
        last = upper;
    }
    void setPixels(double start, double end)
    {
        pixelStart = start;
        pixelEnd = end > start ? end : start + 1;
    }
    double span() const { return last - first; }
    double scale() const { return (pixelEnd - pixelStart) / span(); } // pixels per unit
    double toPixel(double v) const { return pixelStart + (v - first) * scale(); }
    double toValue(double pixel) const { return first + (pixel - pixelStart) / scale(); }
    bool isZoomed() const { return first > lower || last < upper; }

    /// Zooms by @p factor (>1: in) keeping the value under @p pixel in place.
    void zoomAt(double pixel, double factor)
    {
        const double anchor = toValue(pixel);
        const double minSpan = (upper - lower) * 1e-6;
        const double newSpan = std::clamp(span() / factor, minSpan, upper - lower);
        const double ratio = (anchor - first) / span();
        first = anchor - ratio * newSpan;
        last = first + newSpan;
        clamp();
    }
    /// Moves the window by @p pixels (positive: content moves right).
    void panPixels(double pixels)
    {
        const double dv = pixels / scale();
        first -= dv;
        last -= dv;
        clamp();
    }
    void reset()
    {
        first = lower;
        last = upper;
    }
    void clamp()
    {
        const double s = std::min(span(), upper - lower);
        if (first < lower) {
            first = lower;
            last = lower + s;
        }
        if (last > upper) {
            last = upper;
            first = upper - s;
        }
    }
};

/// Horizontal lanes stacked from @p top: a header column of @p headerWidth
/// on the left, then the plotting area.
struct LaneLayout {
    double top = 0;
    double laneHeight = 24;
    double gap = 4;
    double headerWidth = 64;
    int count = 0;

    QRectF laneRect(int lane, double width) const
    {
        return QRectF(headerWidth, top + lane * (laneHeight + gap), std::max(0.0, width - headerWidth), laneHeight);
    }
    double laneCenter(int lane) const { return top + lane * (laneHeight + gap) + laneHeight / 2; }
    double bottom() const { return top + count * (laneHeight + gap); }
    /// Lane under y, or -1 (in a gap or outside).
    int laneAt(double y) const
    {
        if (y < top)
            return -1;
        const int lane = int(std::floor((y - top) / (laneHeight + gap)));
        if (lane >= count || y - top - lane * (laneHeight + gap) > laneHeight)
            return -1;
        return lane;
    }
};

/// Addresses 0 ... maxAddress drawn bottom-up between pixel rows top and bottom.
struct AddressScale {
    double maxAddress = 1;
    double top = 0, bottom = 100;
    double toPixel(double address) const { return bottom - address / maxAddress * (bottom - top); }
    double toAddress(double y) const { return (bottom - y) / (bottom - top) * maxAddress; }
    /// Range shown for a space: the used part with headroom, at most the capacity.
    static double visibleMax(double used, double capacity)
    {
        const double want = std::max(used * 1.25, 1024.0);
        return capacity > 0 ? std::min(want, capacity) : want;
    }
};

/// "Nice" tick step (1, 2, 5 × 10^k) so about @p targetTicks ticks fit in @p span.
inline double niceStep(double span, int targetTicks)
{
    if (span <= 0 || targetTicks <= 0)
        return 1;
    const double raw = span / targetTicks;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double n = raw / mag;
    return (n < 1.5 ? 1 : n < 3.5 ? 2 : n < 7.5 ? 5 : 10) * mag;
}

/// Tick step for addresses: the smallest power of two (bytes) giving at most
/// @p targetTicks ticks over @p span, so labels read 1 KB, 2 KB, ... not 9.8 KB.
inline double niceByteStep(double span, int targetTicks)
{
    if (span <= 0 || targetTicks <= 0)
        return 1;
    return std::exp2(std::ceil(std::log2(std::max(1.0, span / targetTicks))));
}

} // namespace inspector
