"""The attributes of the benchmark's nodes, the same for both sides: node ``i`` of a run gets these."""

import random


def attributes_of(i):
    """Five named values a scan would record, and fifteen more parameters: twenty keys."""
    r = random.Random(i)
    values = {
        "energy": -r.random(),
        "step": i,
        "converged": r.random() < 0.9,
        "formula": r.choice(["Si2", "BaTiO3", "GaAs", "NaCl", "Fe2O3"]),
        "volume": 20.0 + 40.0 * r.random(),
    }
    values.update({f"p{k:02d}": round(r.gauss(0.0, 1.0), 6) for k in range(15)})
    return values
