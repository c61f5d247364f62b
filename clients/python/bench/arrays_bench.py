"""Storing NumPy arrays and reading them back with cairn-client, against aiida-core storing the same arrays as
ArrayData nodes and reading them back. Run by run.sh (``run.sh arrays``), which makes aiida-core's profile;
prints one line per workload.

  python arrays_bench.py --aiida-python PY [--repeats 5] [--json FILE]

Workloads (arrays.py): one array of ten million float64 (80 MB), twenty of 100,000 (800 KB each), two hundred of
100. Each repeat stores new arrays (seeded by the repeat, the same on both sides), one node each, then reads
every node back by its uuid into an array; a round before the repeats is untimed (the server's JIT, aiida-core's
imports). Cairn's store is ``Client.upload(array)`` (an .npy file streamed to the server, its header and size
checked, stored as an ArrayData), its read ``Client.node(uuid).array()``; aiida-core's ``ArrayData(array).store()``
and ``load_node(uuid).get_array()``, on its profile's PostgreSQL and disk-objectstore repository. The figures are
medians; each side's checksum (count and sum of the values read) must equal the other's.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from arrays import WORKLOADS, arrays_of, checksum  # noqa: E402
from embedded_server import embedded_server, server_jar  # noqa: E402

from cairn_client import Client  # noqa: E402

SEED = 20261203


def aiida(python: str, workload: str, repeats: int) -> dict[str, list[float]]:
    done = subprocess.run(
        [python, str(HERE / "aiida_side.py"), "arrays", workload, str(repeats), str(SEED)],
        cwd=HERE,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise RuntimeError(f"aiida_side.py arrays {workload} failed:\n{done.stdout}{done.stderr}")
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def cairn_measure(cairn: Client, workload: str, repeats: int) -> dict[str, list[float]]:
    store: list[float] = []
    read: list[float] = []
    sums = []
    for r in range(repeats + 1):
        given = arrays_of(workload, SEED + r)
        start = time.perf_counter()
        uuids = [cairn.upload(a).uuid for a in given]
        stored = time.perf_counter() - start
        start = time.perf_counter()
        back = [cairn.node(u).array() for u in uuids]
        took = time.perf_counter() - start
        if r > 0:
            store.append(stored)
            read.append(took)
            sums.append(checksum(back))
    return {"store": store, "read": read, "checksums": sums}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--aiida-python", required=True)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--workload", choices=list(WORKLOADS), action="append")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    results: dict[str, object] = {"repeats": args.repeats, "workloads": {}}
    print("workload nodes values_each cairn_store_s aiida_store_s store_speedup cairn_read_s aiida_read_s read_speedup")
    with embedded_server(server_jar(), heap="1g") as (url, token, _data):
        with Client(url, token=token, env={}, timeout=600) as cairn:
            for name in args.workload or WORKLOADS:
                peer = aiida(args.aiida_python, name, args.repeats)
                ours = cairn_measure(cairn, name, args.repeats)
                if ours["checksums"] != peer["checksums"]:
                    raise RuntimeError(f"{name}: the sides read different arrays: {ours['checksums']} {peer['checksums']}")
                results["workloads"][name] = {"cairn": ours, "aiida": peer}  # type: ignore[index]
                cs, as_ = statistics.median(ours["store"]), statistics.median(peer["store"])
                cr, ar = statistics.median(ours["read"]), statistics.median(peer["read"])
                count, size = WORKLOADS[name]
                print(f"{name} {count} {size} {cs:.3f} {as_:.3f} {as_ / cs:.1f} {cr:.3f} {ar:.3f} {ar / cr:.1f}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
