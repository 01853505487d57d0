"""What every fidelity kernel returns, and the two steps they share: reading a
launch's cycles and checking outputs against numpy."""

from dataclasses import dataclass, field

import numpy as np


@dataclass
class Measurement:
    """One point run on the simulator.

    ``launches`` holds each launch's cycles; a published CAModel ``Total tick``
    of a script that launches several kernels is their sum (the camodel's tick
    counter runs across launches), so ``cycles`` is the sum too.
    """

    launches: list = field(default_factory=list)
    max_err: float = 0.0
    ok: bool = True
    pipes: dict = field(default_factory=dict)   # pipe -> busy share of the last launch (per core)

    @property
    def cycles(self):
        return sum(self.launches)

    def add_launch(self, kernel, cores):
        """Record ``kernel``'s last launch; ``cores`` is the block count it ran with."""
        launch = kernel.last_report["launches"][-1]
        self.launches.append(int(launch["cycles"]))
        if launch["cycles"]:
            self.pipes = {p["pipe"]: p["busy_cycles"] / cores / launch["cycles"]
                          for p in launch["pipes"] if p["busy_cycles"]}
        return launch

    def check(self, got, want, rtol, atol):
        """Compare one output with numpy's: within ``atol + rtol * |want|`` everywhere."""
        got = np.asarray(got, dtype=np.float64)
        want = np.asarray(want, dtype=np.float64)
        if got.shape != want.shape:
            raise ValueError(f"output shape {got.shape} differs from numpy's {want.shape}")
        err = np.abs(got - want)
        self.max_err = max(self.max_err, float(np.max(err)) if err.size else 0.0)
        if not np.all(err <= atol + rtol * np.abs(want)):
            self.ok = False
        return self
