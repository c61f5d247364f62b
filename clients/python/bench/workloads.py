"""What the benchmark reads, the same on both sides: the attributes projected and the filter on them, by the
shape of the nodes (generate.py).

  scalars   five attributes of every node: energy, step and three more (of shape nested, paths into its
            dicts: a list of lists, a float two levels down, a list; of wide, three of its 200 keys, nulls
            among them; of text, the log, the formula and the comment; of lists, the forces, the
            eigenvalues and the label; of mixed, the formula of flat and text nodes, a boolean of wide nodes and
            the cut-off of nested ones: each null in most nodes)
  whole     each node's whole attributes as one dict
  filtered  the five attributes of the nodes with energy below -0.9 (about a tenth); shape flat only
  filtered1 the same with energy below -0.99 (about a hundredth); shape flat only

Other keys than the shape's five may be projected (``keys``: any of the shape's, one or more): the checksum then
reads energy and step where they are among them.
"""

KEYS = {
    "flat": ["energy", "step", "converged", "formula", "volume"],
    "nested": ["energy", "step", "structure.cell", "parameters.smearing.degauss", "parameters.kpoints"],
    "wide": ["energy", "step", "k000", "k102", "k199"],
    "text": ["energy", "step", "log", "formula", "comment"],
    "lists": ["energy", "step", "forces", "eigenvalues", "label"],
    "mixed": ["energy", "step", "formula", "k103", "parameters.ecut"],
}

def keys_option(text):
    """The keys of a ``--keys`` option: comma-separated."""
    return text.split(",")


# kept for the flat shape's figures of earlier runs: its five attributes
SCALARS = KEYS["flat"]


def workloads(shape="flat", keys=None):
    """The workloads of ``shape`` by name, projecting ``keys`` (default: the shape's five)."""
    keys = list(keys) if keys else KEYS[shape]
    out = {
        "scalars": {"keys": keys, "whole": False, "filters": {}},
        "whole": {"keys": keys, "whole": True, "filters": {}},
    }
    if shape == "flat":
        out["filtered"] = {"keys": keys, "whole": False, "filters": {"energy": {"<": -0.9}}}
        out["filtered1"] = {"keys": keys, "whole": False, "filters": {"energy": {"<": -0.99}}}
    return out


WORKLOADS = workloads("flat")


def checksum(rows, workload):
    """The sum of the steps and of the energies read, rounded: equal on both sides when both read the same. Of
    projected keys without them, 0."""
    if workload["whole"]:
        pairs = [(row[0]["step"], row[0]["energy"]) for row in rows]
    else:
        keys = workload["keys"]
        step = keys.index("step") if "step" in keys else None
        energy = keys.index("energy") if "energy" in keys else None
        pairs = [(0 if step is None else row[step], 0.0 if energy is None else row[energy]) for row in rows]
    return [sum(step for step, _ in pairs), round(sum(energy for _, energy in pairs), 6)]
