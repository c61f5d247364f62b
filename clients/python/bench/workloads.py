"""What the benchmark reads, the same on both sides: the attributes projected and the filter on them.

  scalars   five attributes of every node
  whole     each node's whole attributes (twenty keys) as one dict
  filtered  the five attributes of the nodes with energy below -0.9 (about a tenth)
  filtered1 the same with energy below -0.99 (about a hundredth)
"""

SCALARS = ["energy", "step", "converged", "formula", "volume"]

WORKLOADS = {
    "scalars": {"keys": SCALARS, "whole": False, "filters": {}},
    "whole": {"keys": SCALARS, "whole": True, "filters": {}},
    "filtered": {"keys": SCALARS, "whole": False, "filters": {"energy": {"<": -0.9}}},
    "filtered1": {"keys": SCALARS, "whole": False, "filters": {"energy": {"<": -0.99}}},
}


def checksum(rows, workload):
    """The sum of the steps and of the energies read, rounded: equal on both sides when both read the same."""
    if workload["whole"]:
        pairs = [(row[0]["step"], row[0]["energy"]) for row in rows]
    else:
        pairs = [(row[1], row[0]) for row in rows]
    return [sum(step for step, _ in pairs), round(sum(energy for _, energy in pairs), 6)]
