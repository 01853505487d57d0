"""Unit tests of the fidelity bench's arithmetic and data (ctest bench-fidelity-metrics); the
kernels themselves are checked against numpy by ``run.py --quick`` (ctest bench-fidelity)."""

import math
import os
import re
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from fidelity import metrics, run  # noqa: E402
from fidelity.kernels.common import Measurement  # noqa: E402


def test_ratio_and_within_boundaries():
    assert metrics.ratio(120.0, 100.0) == pytest.approx(1.2)
    assert metrics.within(0.8) and metrics.within(1.2) and metrics.within(1.0)
    assert not metrics.within(0.79) and not metrics.within(1.21) and not metrics.within(None)
    with pytest.raises(ValueError):
        metrics.ratio(1.0, 0.0)


def test_typical_factor_is_geometric_mean_of_the_factor_either_way():
    # |ln 2| = |ln 0.5|: off by 2x either way is a typical factor of 2.
    assert metrics.typical_factor([2.0, 0.5]) == pytest.approx(2.0)
    assert metrics.typical_factor([1.0, 1.0]) == pytest.approx(1.0)
    assert metrics.typical_factor([4.0, 1.0]) == pytest.approx(2.0)
    assert metrics.typical_factor([3.0, None]) == pytest.approx(3.0)
    assert metrics.typical_factor([None]) is None
    assert metrics.typical_factor([1.1, 0.9, 2.5]) == pytest.approx(
        math.exp((abs(math.log(1.1)) + abs(math.log(0.9)) + abs(math.log(2.5))) / 3))


def test_share_within_counts_missing_ratios_as_misses():
    assert metrics.share_within([1.0, 1.19, 0.5, None]) == pytest.approx(0.5)
    assert metrics.share_within([]) is None


def test_units_convert_with_the_clock():
    assert metrics.predicted_in_unit(1800, "us", 1800) == pytest.approx(1.0)
    assert metrics.predicted_in_unit(1800, "cycles", 1800) == 1800.0
    assert metrics.us_to_cycles(metrics.cycles_to_us(3300, 1650), 1650) == pytest.approx(3300)
    with pytest.raises(ValueError):
        metrics.predicted_in_unit(1, "ms", 1800)


def _point(**overrides):
    point = {"id": "p", "set": "calibration", "platform": "Ascend910_93", "kernel": "k", "shape": "s",
             "dtype": "f16", "cores": 2, "published": 10.0, "unit": "us", "source": "o/r@c:p"}
    point.update(overrides)
    return point


def test_evaluate_row_from_a_measurement():
    m = Measurement(launches=[9000, 9000], pipes={"M": 0.5})
    row = run.evaluate(_point(published_pipes={"M": 0.6}), m, clock=1800, wall=0.1)
    assert row["cycles"] == 18000
    assert row["predicted"] == pytest.approx(10.0)     # 18000 cycles at 1800 MHz
    assert row["ratio"] == pytest.approx(1.0) and row["within"] and row["numpy_ok"]
    assert row["pipes"] == {"M": {"published": 0.6, "predicted": 0.5}}
    failed = run.evaluate(_point(), error="RuntimeError: boom")
    assert failed["ratio"] is None and not failed["within"] and "boom" in run.format_row(failed)


def test_summary_per_set_and_its_printout():
    rows = [run.evaluate(_point(id="a", published=100.0, unit="cycles"), Measurement([200]), clock=1),
            run.evaluate(_point(id="b", published=100.0, unit="cycles"), Measurement([50]), clock=1),
            run.evaluate(_point(id="c", set="validation", published=100.0, unit="cycles"), Measurement([110]),
                         clock=1),
            run.evaluate(_point(id="d", set="validation"), error="not run: slow")]
    summary = run.summarize(rows)
    assert summary["calibration"]["typical_factor"] == pytest.approx(2.0)
    assert summary["calibration"]["share_within"] == 0.0
    assert summary["validation"]["within"] == 1 and summary["validation"]["share_within"] == 0.5
    assert summary["validation"]["not_run"] == 1 and summary["validation"]["failed"] == 0
    assert summary["all"]["points"] == 4 and summary["all"]["within"] == 1
    assert summary["all"]["typical_factor"] == pytest.approx(math.exp((2 * math.log(2) + math.log(1.1)) / 3))
    text = "\n".join(run.format_summary(summary))
    assert "calibration    2 points: typical factor  x2.00" in text
    assert "within ±20% 1/2 = 50%; 1 not run" in text
    assert "within ±20% 1/4 = 25%" in text


def test_sets_mixing_silicon_and_camodel_are_also_summarised_per_kind():
    rows = [run.evaluate(_point(id="a", published=100.0, unit="cycles", measured_on="silicon"),
                         Measurement([100]), clock=1),
            run.evaluate(_point(id="b", published=100.0, unit="cycles", measured_on="camodel"),
                         Measurement([200]), clock=1),
            run.evaluate(_point(id="c", set="validation", published=100.0, unit="cycles", measured_on="camodel"),
                         Measurement([50]), clock=1)]
    summary = run.summarize(rows)
    assert summary["calibration/silicon"]["within"] == 1 and summary["calibration/camodel"]["within"] == 0
    assert summary["all/camodel"]["points"] == 2 and summary["all/silicon"]["points"] == 1
    assert "validation/silicon" not in summary and "validation/camodel" not in summary  # one kind only
    lines = run.format_summary(summary)
    assert lines[0].startswith("calibration") and lines[1].startswith("  silicon ") and \
        lines[2].startswith("  camodel ")
    assert sum(line.startswith("  ") for line in lines) == 4


def test_measurement_check_detects_a_wrong_number():
    m = Measurement().check(np.array([1.0, 2.0]), np.array([1.0, 2.0]), rtol=1e-6, atol=0.0)
    assert m.ok and m.max_err == 0.0
    m.check(np.array([1.0, 2.001]), np.array([1.0, 2.0]), rtol=1e-6, atol=0.0)
    assert not m.ok and m.max_err == pytest.approx(1e-3)
    with pytest.raises(ValueError):
        Measurement().check(np.zeros(2), np.zeros(3), rtol=0, atol=0)


SOURCE = re.compile(r"^[\w.-]+/[\w.-]+@[0-9a-f]{7,40}:\S+$")


def test_every_point_is_complete_and_cited():
    from fidelity.kernels import KERNELS
    points = run.load_points()
    assert len(points) >= 12
    for p in points:
        for key in ("platform", "kernel", "params", "shape", "dtype", "tiling", "cores", "published", "unit",
                    "measured_on", "where"):
            assert p.get(key) not in (None, ""), (p["id"], key)
        assert p["kernel"] in KERNELS, p["id"]
        assert p["unit"] in ("us", "cycles") and p["published"] > 0, p["id"]
        assert p["measured_on"] in run.MEASURED_ON, p["id"]
        assert SOURCE.match(p["source"]), (p["id"], p["source"])
        assert os.path.exists(os.path.join(run.ROOT, "resources", "arch", f"{p['platform']}.json")), p["id"]
    assert sum(p["measured_on"] == "silicon" for p in points) >= 3
    assert {p["platform"] for p in points} >= {"Ascend950", "Ascend910B1", "Ascend910_93"}
    assert any(p.get("quick") for p in points if p["set"] == "calibration")


def test_the_958b_variant_is_ascend950_with_its_core_counts():
    """Ascend950PR_958b.json (the A5 silicon GEMM's 32-AIC part) differs from Ascend950.json only in its
    name and core counts, in the DMA's request interval and depth, which it takes from Huawei's
    DataCopy sample on 950PR silicon where Ascend950.json keeps its CAModel fit (docs/simulator.md,
    "DMA"), and in its vector cores' GM reads and writes not sharing a port (the L2 cache-mode sample's
    add on silicon overlaps them); any other timing parameter changed in one file must change in the other."""
    import json

    def load(name):
        with open(os.path.join(run.ROOT, "resources", "arch", f"{name}.json")) as f:
            doc = json.load(f)
        doc.pop("_sources")
        return doc

    base, variant = load("Ascend950"), load("Ascend950PR_958b")
    assert (variant.pop("name"), variant.pop("aic_cores"), variant.pop("aiv_cores")) == ("Ascend950PR_958b", 32, 64)
    for key in ("name", "aic_cores", "aiv_cores"):
        base.pop(key)
    assert (variant.pop("mte_issue_cycles"), variant.pop("mte_outstanding"), variant.pop("gm_port_shared")) == \
        (39.4, 32, 0)
    assert (base.pop("mte_issue_cycles"), base.pop("mte_outstanding"), base.pop("gm_port_shared")) == (0, 2, 1)
    assert variant == base


def test_the_huawei_sample_kernels_equal_numpy_on_small_shapes():
    """kernels/devkit.py on shapes small enough for CI, with what the published shapes exercise: an uneven
    split of rows over blocks and a last copy shorter than the others (add_rows, both bufferings), strided
    2-D tiles (gelu_blocks), a last column of blocks narrower than the others and A / Bᵀ panels of different
    depths, blocks that take two row panels one after the other (mm_blocks), the GELU epilogue of a block
    on both vector cores of its cube core, whole or in parts (mm_gelu_blocks, a MIX kernel)."""
    import asc2
    from fidelity.kernels import devkit

    asc2.set_platform(asc2.Backend.Model, "Ascend910B1", 0)
    for stages in (1, 2):
        m = devkit.run_add_rows(cores=4, m=11, n=64, chunk=128, stages=stages)  # 3/3/3/2 rows, 2-row copies
        assert m.ok and m.cycles > 0, stages
    m = devkit.run_mm_blocks(cores=4, m=256, n=768, k=256, single_m=128, single_n=512,
                             base=(128, 256, 64), step_ka=2, step_kb=1)
    assert m.ok and m.cycles > 0
    m = devkit.run_mm_blocks(cores=4, m=256, n=768, k=256, single_m=64, single_n=512,
                             base=(64, 256, 64), step_ka=2, step_kb=2, rounds=2)  # two row panels per block
    assert m.ok and m.cycles > 0
    m = devkit.run_mm_gelu_blocks(cores=4, m=256, n=768, k=256, single_m=128, single_n=512,
                                  base=(128, 256, 64), step_ka=2, step_kb=1)
    options = devkit.MM_GELU_BLOCKS.last_report["options"]
    assert m.ok and m.cycles > 0 and (options["kernel_type"], options["mix_ratio"]) == ("MIX", "1:2")
    asc2.set_platform(asc2.Backend.Model, "Ascend950PR_958b", 0)
    m = devkit.run_gelu_blocks(cores=4, m=64, n=256, block_m=32, block_n=128, rows=2)
    assert m.ok and m.cycles > 0
    m = devkit.run_add_stream(cores=4, m=11, n=64, chunk=96)  # 3/3/3/2 rows: 2 x 96 and 96 + 32 elements
    assert m.ok and m.cycles > 0
    for via_ub in (0, 1):  # through GM; the fixpipe into UB in two bands of rows
        m = devkit.run_mm_gelu_blocks(cores=4, m=512, n=512, k=256, single_m=256, single_n=256,
                                      base=(256, 256, 64), step_ka=2, step_kb=2, via_ub=via_ub, parts=2)
        assert m.ok and m.cycles > 0 and devkit.MM_GELU_BLOCKS.last_report["options"]["mix_ratio"] == "1:2"


def test_the_batch_norm_kernel_equals_numpy():
    """kernels/channels.py: per-channel sums carried over a loop of strided [CH, L] tiles, then the
    normalisation; mean and invstd are outputs too (each checked)."""
    import asc2
    from fidelity.kernels import channels

    asc2.set_platform(asc2.Backend.Model, "Ascend950", 0)
    m = channels.run_batch_norm(cores=4, n=4, c=32, l=64)
    assert m.ok and m.cycles > 0
    with pytest.raises(ValueError, match="do not split evenly"):
        channels.run_batch_norm(cores=3, n=4, c=32, l=64)


def test_points_compiled_by_upstream_take_its_buffering():
    """A point's "num_stages" (here from its file: the pyasc points, which upstream PyAsc2 compiled
    with one buffer per tile where a loop does not unroll) reaches asc2.jit through ASC2_JIT_NUM_STAGES
    while that point runs, and the environment is as before afterwards."""
    from fidelity.kernels import channels

    points = {p["id"]: p for p in run.load_points()}
    assert points["a5-batch_norm-f32"]["num_stages"] == 1 and points["b1-reduce_sum-32"]["num_stages"] == 1
    assert points["hw-add-a2-1core"]["num_stages"] is None and points["pto-gemm-1536"]["num_stages"] is None
    small = dict(points["a5-batch_norm-f32"], cores=4, params={"n": 4, "c": 32, "l": 64})
    os.environ.pop(run.NUM_STAGES_VAR, None)
    row = run.run_point(small)
    assert row["numpy_ok"] and row["error"] is None, row
    assert channels.batch_norm_channels.last_report["options"]["num_stages"] == "1"
    assert run.NUM_STAGES_VAR not in os.environ
    # The same kernel with the compiler's own choice ping-pongs the normalisation loop: faster.
    small["num_stages"] = None
    again = run.run_point(small)
    assert "num_stages" not in channels.batch_norm_channels.last_report["options"]
    assert again["cycles"] < row["cycles"]


def test_fit_reaches_into_tables_with_dotted_names(tmp_path):
    from fidelity import fit

    fit.arch_dir_with("Ascend910B1", {"vector_instr_cost.whole_reduce.per_repeat": 2, "gm_read_latency_cycles": 400},
                      str(tmp_path))
    import json
    with open(tmp_path / "Ascend910B1.json") as f:
        doc = json.load(f)
    assert doc["vector_instr_cost"]["whole_reduce"]["per_repeat"] == 2 and doc["gm_read_latency_cycles"] == 400
    for bad in ("vector_instr_cost.no_such_op.fixed", "gm_read_latency_cycles.fixed", "no_such_parameter"):
        with pytest.raises(SystemExit, match="has no parameter"):
            fit.arch_dir_with("Ascend910B1", {bad: 1}, str(tmp_path / "x"))
