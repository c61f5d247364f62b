"""The attributes of the benchmark's nodes, the same for both sides: node ``i`` of a run of shape ``s`` gets
``SHAPES[s](i)``. Every shape has ``energy`` (a float in [-1, 0)) and ``step`` (``i``) at its top level, which
the checksum and the filters read.

  flat    five named values a scan would record and fifteen more parameters: twenty scalar keys
  nested  a structure (a cell of 3 × 3 floats, 4 to 12 sites of a symbol and a position each) and calculation
          parameters two levels deep (a k-point mesh as a list, a smearing as a dict), some of them null
  wide    200 keys of floats, integers, short strings, booleans and nulls (a fifth of each key's values null)
  text    a log of 1,000 to 3,000 characters (unicode, quotes, backslashes, new lines), a formula, a comment that
          is null in half the nodes, and a list of ten short strings
  lists   few keys holding long lists of numbers: forces on 32 atoms (32 lists of 3 floats), 256 eigenvalues,
          a label
  mixed   each node one of the five above, a fifth of each
"""

import random

FORMULAS = ["Si2", "BaTiO3", "GaAs", "NaCl", "Fe2O3"]
SYMBOLS = ["Si", "Ba", "Ti", "O", "Ga", "As", "Na", "Cl", "Fe"]
WORDS = ["SCF", "converged", "énergie", "Ω", "kpoint", '"quoted"', "back\\slash", "日本語", "δE", "tab\there",
         "🙂"]


def _base(i, r):
    return {"energy": -r.random(), "step": i}


def flat(i):
    r = random.Random(i)
    values = {
        "energy": -r.random(),
        "step": i,
        "converged": r.random() < 0.9,
        "formula": r.choice(FORMULAS),
        "volume": 20.0 + 40.0 * r.random(),
    }
    values.update({f"p{k:02d}": round(r.gauss(0.0, 1.0), 6) for k in range(15)})
    return values


def nested(i):
    r = random.Random(i)
    values = _base(i, r)
    sites = r.randint(4, 12)
    values["structure"] = {
        "cell": [[round(r.uniform(-6.0, 6.0), 8) for _ in range(3)] for _ in range(3)],
        "pbc": [True, True, r.random() < 0.5],
        "sites": [
            {"symbol": r.choice(SYMBOLS), "position": [round(r.random(), 8) for _ in range(3)], "magnetization": None}
            for _ in range(sites)
        ],
    }
    values["parameters"] = {
        "ecut": r.choice([30, 40, 50, 60]),
        "kpoints": [r.randint(1, 8) for _ in range(3)],
        "smearing": {"type": r.choice(["gaussian", "cold", "mv"]), "degauss": round(r.uniform(0.001, 0.05), 6)},
        "hubbard": None if r.random() < 0.5 else {r.choice(SYMBOLS): round(r.uniform(1.0, 6.0), 3)},
    }
    return values


def wide(i):
    r = random.Random(i)
    values = _base(i, r)
    for k in range(200):
        kind = k % 5
        if r.random() < 0.2:
            values[f"k{k:03d}"] = None
        elif kind == 0:
            values[f"k{k:03d}"] = round(r.gauss(0.0, 100.0), 6)
        elif kind == 1:
            values[f"k{k:03d}"] = r.randint(-(2**40), 2**40)
        elif kind == 2:
            values[f"k{k:03d}"] = r.choice(FORMULAS)
        elif kind == 3:
            values[f"k{k:03d}"] = r.random() < 0.5
        else:
            values[f"k{k:03d}"] = round(r.random(), 3)
    return values


def text(i):
    r = random.Random(i)
    values = _base(i, r)
    words = []
    length = r.randint(1000, 3000)
    while sum(len(w) + 1 for w in words) < length:
        words.append(r.choice(WORDS) + ("\n" if r.random() < 0.1 else ""))
    values["log"] = " ".join(words)
    values["formula"] = r.choice(FORMULAS)
    values["comment"] = None if r.random() < 0.5 else f"run {i} on {r.choice(SYMBOLS)}"
    values["tags"] = [r.choice(WORDS) for _ in range(10)]
    return values


def lists(i):
    r = random.Random(i)
    values = _base(i, r)
    values["forces"] = [[round(r.gauss(0.0, 0.05), 6) for _ in range(3)] for _ in range(32)]
    values["eigenvalues"] = sorted(round(r.uniform(-20.0, 10.0), 4) for _ in range(256))
    values["label"] = f"relax {i}"
    return values


def mixed(i):
    """Node ``i`` of one of the other shapes, chosen by ``i``: a table of nodes of several kinds, as a profile
    holds them, where a projected key is missing from most nodes."""
    return MIXED[random.Random(-1 - i).randrange(len(MIXED))](i)


MIXED = [flat, nested, wide, text, lists]
SHAPES = {shape.__name__: shape for shape in [*MIXED, mixed]}


def attributes_of(i, shape="flat"):
    """The attributes of node ``i`` of a run of ``shape``."""
    return SHAPES[shape](i)
