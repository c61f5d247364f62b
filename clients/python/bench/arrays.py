"""The arrays both sides of the arrays benchmark store: the same values from the same seed, in numpy of either venv."""

import numpy as np

#: name: (how many nodes, how many float64 values each)
WORKLOADS = {
    "one_large": (1, 10_000_000),
    "medium": (20, 100_000),
    "many_small": (200, 100),
}


def arrays_of(workload, seed):
    """The arrays of one repeat of ``workload``: a generator seeded by ``seed`` (each repeat its own, so that no
    side finds the content of an earlier repeat in its store)."""
    count, size = WORKLOADS[workload]
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(size) for _ in range(count)]


def checksum(arrays):
    """What both sides must read back: the count of values and their sum, rounded past float noise."""
    return [int(sum(a.size for a in arrays)), round(float(sum(float(a.sum()) for a in arrays)), 6)]
