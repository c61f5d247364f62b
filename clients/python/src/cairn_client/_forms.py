"""Values in the typed form the server takes them, ``{"type": "float", "value": 1.5}``: what an upload sends and
what a recorded function's inputs and outputs are."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

__all__ = ["value_form", "structure_form"]


def value_form(value: Any) -> dict[str, Any]:
    """``value`` as the server takes it: a bool, int, float or str, a dict, a list (anything with ``tolist``, a
    NumPy scalar say, as its value), or an ASE ``Atoms`` as a structure; anything else is a ``TypeError``."""
    if _is_atoms(value):
        return {"type": "structure", "value": _atoms_form(value)}
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        value = value.tolist()
    return {"type": _kind_of(value), "value": value}


def _kind_of(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    if isinstance(value, Mapping):
        return "dict"
    if isinstance(value, (list, tuple)):
        return "list"
    raise TypeError(f"cannot store a {type(value).__name__}: give a bool, int, float, str, dict, list, a Path or Atoms")


def structure_form(
    cell: Sequence[Sequence[float]],
    symbols: Sequence[str],
    positions: Sequence[Sequence[float]],
    pbc: tuple[bool, bool, bool],
) -> dict[str, Any]:
    """A structure's attributes as the server takes them: a kind per element, a site per atom."""
    return {
        "cell": [list(map(float, v)) for v in cell],
        "pbc1": bool(pbc[0]),
        "pbc2": bool(pbc[1]),
        "pbc3": bool(pbc[2]),
        "kinds": [{"name": k, "symbols": [k], "weights": [1.0], "mass": 0.0} for k in sorted(set(symbols))],
        "sites": [{"kind_name": s, "position": list(map(float, p))} for s, p in zip(symbols, positions)],
    }


def _atoms_form(atoms: Any) -> dict[str, Any]:
    """An ASE ``Atoms`` as a structure's attributes."""
    return structure_form(
        atoms.get_cell().tolist(),
        list(atoms.get_chemical_symbols()),
        atoms.get_positions().tolist(),
        _pbc(atoms.get_pbc()),
    )


def _pbc(flags: Any) -> tuple[bool, bool, bool]:
    a, b, c = (bool(f) for f in flags)
    return (a, b, c)


def _is_atoms(value: Any) -> bool:
    return all(hasattr(value, a) for a in ("get_cell", "get_positions", "get_chemical_symbols", "get_pbc"))
