"""pytest plugin: run a test suite's kernels on the CPU twin, each launch compared with the simulator.

    python3 -m pytest -p twin_sweep tests/python/test_cube.py tests/python/test_upstream_cube.py

(with tests/twin on PYTHONPATH). Every ``asc2.set_platform(...)`` of the tests keeps its platform but
gets the Twin backend, the default platform is Twin too, and ASC2_TWIN_COMPARE=1 makes each launch
also run on the simulator: the outputs of the emitted Ascend C on the twin must equal the
simulator's (bit for bit where both are exact) and the test's own numpy checks still apply. It found
emitter bugs the simulator alone cannot see, since the simulator executes the ascendc ops, not the
printed calls (docs/ascendc-api.md, "Verified").

KNOWN_GAPS are strict xfails: a test that starts passing fails the sweep until its entry goes.
"""
import pytest

KNOWN_GAPS = {
    "test_cube.py::test_cube_kernels_on_ascend950_use_the_c310_recipe_with_numpy_numbers":
        "its int8 case: the twin does not implement LoadData2DParamsV2's b8 transpose (the API page's "
        "b8 figure is not in the public tree, so the pairing is unverified)",
}


def pytest_collection_modifyitems(config, items):
    for item in items:
        key = item.nodeid.split("/")[-1]
        if key in KNOWN_GAPS:
            item.add_marker(pytest.mark.xfail(strict=True, reason=KNOWN_GAPS[key]))


@pytest.fixture(autouse=True)
def _on_the_twin(monkeypatch, isolated_cache):
    import asc2
    from asc2.runtime import platform

    real = platform.set_platform

    def on_twin(backend=None, platform=platform.DEFAULT_PLATFORM, device_id=0):
        return real("Twin", platform, device_id)

    monkeypatch.setattr(platform, "set_platform", on_twin)
    monkeypatch.setattr(asc2, "set_platform", on_twin, raising=False)
    monkeypatch.setenv("ASC2_BACKEND", "Twin")
    monkeypatch.setenv("ASC2_TWIN_COMPARE", "1")
    platform.reset_platform()
    yield
