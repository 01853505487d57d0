"""How predicted times are compared with published ones.

ratio r = predicted / published (same unit); a point is *within* when
|r - 1| <= 20 %; over a set of points the *typical factor* is
exp(mean |ln r|) (1.0 = exact; 2.0 = typically off by a factor of two either
way) and the *share within* counts points within ±20 %. A point whose kernel
failed or was not run has no ratio: it counts as a miss in the share and is
left out of the typical factor (which is None when no point has a ratio).
"""

import math

TOLERANCE = 0.20


def cycles_to_us(cycles, clock_mhz):
    return cycles / clock_mhz


def us_to_cycles(us, clock_mhz):
    return us * clock_mhz


def predicted_in_unit(cycles, unit, clock_mhz):
    """The simulator's ``cycles`` in the published point's unit ("cycles" or "us")."""
    if unit == "cycles":
        return float(cycles)
    if unit == "us":
        return cycles_to_us(cycles, clock_mhz)
    raise ValueError(f"unknown unit {unit!r} (expected 'cycles' or 'us')")


def ratio(predicted, published):
    if published <= 0:
        raise ValueError(f"published figure must be positive, got {published}")
    return predicted / published


def within(r, tolerance=TOLERANCE):
    return r is not None and abs(r - 1.0) <= tolerance + 1e-12


def typical_factor(ratios):
    logs = [abs(math.log(r)) for r in ratios if r is not None]
    return math.exp(sum(logs) / len(logs)) if logs else None


def share_within(ratios, tolerance=TOLERANCE):
    return sum(within(r, tolerance) for r in ratios) / len(ratios) if ratios else None


def summary(ratios, tolerance=TOLERANCE):
    """Metrics of one set; ``ratios`` has None for points without a ratio."""
    return {"points": len(ratios), "with_ratio": sum(r is not None for r in ratios),
            "within": sum(within(r, tolerance) for r in ratios),
            "share_within": share_within(ratios, tolerance), "typical_factor": typical_factor(ratios)}
