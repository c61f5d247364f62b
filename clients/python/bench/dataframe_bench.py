"""Reading nodes' attributes into a pandas DataFrame with cairn-client, against aiida-core's QueryBuilder
projecting the same attributes of the same nodes; and the time ``import cairn_client`` takes. Run by
run.sh (which makes aiida's profile); prints one line per workload and writes the details as JSON.

  python dataframe_bench.py --aiida-python PY [--n 10000] [--shape flat] [--keys K1,K2] [--warmup 3] [--repeats 7]
                             [--index] [--json FILE]

The nodes (of one shape of generate.py: flat, nested, wide, text) are made once, by aiida-core (aiida_side.py
load), and exported to an archive that Cairn's server imports: both sides read the very same nodes (same
uuids, same attributes), and each side's checksum of what it read must equal the other's. Cairn's server is
the jar in its embedded mode (its own PostgreSQL), aiida-core's profile is on the PostgreSQL run.sh names.
Each side's node table is vacuumed and analyzed once loaded, so that the reads meet a table as one in use is,
not autovacuum's first visit to it. Each side reads ``--warmup`` times untimed (a server runs warm: its JIT has compiled the query's path), then
``--repeats`` times; the figure is the median. Cairn's side is measured twice, its JSON parsed by orjson (the
extra "fast", which the bench needs) and by the standard library's json (``CAIRN_CLIENT_JSON=json``), the two
taking turns: the sixth column is the ratio of the two; the last two are the client's parse alone of one
answer, with each. Cairn's time is the whole of ``Query.dataframe()`` (the request, the rows' JSON, the
DataFrame); aiida-core's is ``QueryBuilder.all()``, its rows as a list, with no DataFrame made of them (its
venv has no pandas): the ratio is in aiida-core's favour. With ``--stages``, no comparison: stages.py's
figures of where Cairn's reads spend their time, with each parser.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from embedded_server import embedded_server, server_jar  # noqa: E402
import stages  # noqa: E402
from generate import SHAPES  # noqa: E402
from workloads import checksum, keys_option, workloads  # noqa: E402

from cairn_client import Client, _json  # noqa: E402


def aiida(python: str, *args: str) -> str:
    done = subprocess.run([python, str(HERE / "aiida_side.py"), *args], cwd=HERE, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"aiida_side.py {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
    return done.stdout


PARSERS = ("orjson", "json")


def vacuum(data: str) -> None:
    """VACUUM ANALYZE the embedded server's node table, as aiida_side.py does its own after loading: both sides read
    a table as one that has been in use, not one that autovacuum visits (about a minute after the import, for
    seconds of both cores) while the reads are timed."""
    port = (Path(data) / "postgres" / "cluster" / "postmaster.pid").read_text().split("\n")[3]
    subprocess.run(
        ["psql", "-h", "127.0.0.1", "-p", port, "-U", "postgres", "-d", "cairn", "-qc", "VACUUM ANALYZE node"],
        check=True,
    )


def use_parser(parser: str) -> None:
    """The client parses with ``parser`` from now: ``orjson`` (the extra "fast"), or ``json``."""
    if parser == "json":
        os.environ["CAIRN_CLIENT_JSON"] = "json"
    else:
        os.environ.pop("CAIRN_CLIENT_JSON", None)
    _json.reset()
    if _json.backend() != parser:
        raise RuntimeError(f"the client parses with {_json.backend()}, not {parser}: pip install 'cairn-client[fast]'")


def cairn_measure(cairn: Client, w: dict[str, Any], repeats: int, warmup: int) -> dict[str, dict[str, object]]:
    """Cairn's side with each parser, the parsers taking turns read by read (so that a change of the machine's
    load falls on both), the one to go first alternating."""
    projections = ["attributes"] if w["whole"] else ["attributes." + key for key in w["keys"]]
    filters = {"label": {"==": "bench"}, **{"attributes." + k: v for k, v in w["filters"].items()}}
    query = cairn.query().nodes("d", type="data.core.dict.Dict.", filters=filters, project=projections)
    frames = {}
    for _ in range(warmup):
        for parser in PARSERS:
            use_parser(parser)
            frames[parser] = query.dataframe()
    seconds: dict[str, list[float]] = {parser: [] for parser in PARSERS}
    for i in range(repeats):
        for parser in PARSERS if i % 2 == 0 else reversed(PARSERS):
            use_parser(parser)
            start = time.perf_counter()
            frames[parser] = query.dataframe()
            seconds[parser].append(time.perf_counter() - start)
    out: dict[str, dict[str, object]] = {}
    for parser, frame in frames.items():
        rows = [[d] for d in frame["attributes"]] if w["whole"] else frame.values.tolist()
        out[parser] = {"seconds": seconds[parser], "rows": len(frame), "checksum": checksum(rows, w)}
    return out


def parse_seconds(cairn: Client, w: dict[str, Any], repeats: int) -> dict[str, float]:
    """The client's parse alone, with each parser: the lines of one answer of ``/query/columns`` read once, then
    parsed ``repeats`` times by each; the best time of each."""
    projections = ["attributes"] if w["whole"] else ["attributes." + key for key in w["keys"]]
    filters = {"label": {"==": "bench"}, **{"attributes." + k: v for k, v in w["filters"].items()}}
    spec = cairn.query().nodes("d", type="data.core.dict.Dict.", filters=filters, project=projections).as_json()
    with cairn._http.stream("POST", "/api/v1/query/columns", body=spec, accept="application/x-ndjson") as r:
        lines = [line for line in r.read().split(b"\n") if line]
    best = {}
    for parser in PARSERS:
        use_parser(parser)
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            for line in lines:
                _json.loads(line)
            times.append(time.perf_counter() - start)
        best[parser] = min(times)
    return best


def import_seconds(python: str, statement: str, times: int = 10) -> float:
    """The fastest of ``times`` fresh interpreters running ``statement``, in seconds."""
    best = float("inf")
    for _ in range(times):
        start = time.perf_counter()
        subprocess.run([python, "-c", statement], check=True)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--aiida-python", required=True)
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--shape", choices=list(SHAPES), default="flat", help="the nodes' attributes (generate.py)")
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--keys", type=keys_option, help="the attributes projected, comma-separated, in place "
                        "of the shape's five (workloads.py)")
    parser.add_argument("--index", action="store_true", help="then declare an index on energy and read again")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--stages", action="store_true", help="instead: where Cairn's reads spend their time (stages.py)")
    args = parser.parse_args()

    results: dict[str, object] = {
        "n": args.n, "shape": args.shape, "keys": args.keys, "warmup": args.warmup, "repeats": args.repeats, "workloads": {}
    }
    with tempfile.TemporaryDirectory() as work:
        archive = Path(work) / "bench.aiida"
        started = time.perf_counter()
        aiida(args.aiida_python, "load", str(args.n), str(archive), args.shape)
        print(f"# aiida-core stored {args.n} nodes of shape {args.shape} and exported them in "
              f"{time.perf_counter() - started:.1f} s", file=sys.stderr)
        with embedded_server(server_jar(), heap="1g") as (url, token, data):
            with Client(url, token=token, env={}, timeout=600) as cairn:
                cairn.import_archive(archive)
                vacuum(data)
                if args.stages:
                    for parser in PARSERS:
                        use_parser(parser)
                        pids = stages.server_pids(data)
                        stages.report(cairn, args.shape, max(args.repeats, 15), max(args.warmup, 5), pids, args.keys)
                    return
                print("workload rows cairn_median_s aiida_median_s speedup cairn_json_median_s json/orjson "
                      "parse_orjson_best_s parse_json_best_s")
                shaped = workloads(args.shape, args.keys)
                for name, w in shaped.items():
                    peer = json.loads(
                        aiida(args.aiida_python, "measure", name, str(args.repeats), str(args.warmup), args.shape,
                              *([",".join(args.keys)] if args.keys else []))
                    )
                    measured = cairn_measure(cairn, w, args.repeats, args.warmup)
                    ours, plain = measured["orjson"], measured["json"]
                    for side in (ours, plain):
                        if (side["rows"], side["checksum"]) != (peer["rows"], peer["checksum"]):
                            raise RuntimeError(f"{name}: the sides read different rows: cairn {side}, aiida {peer}")
                    cairn_s = statistics.median(ours["seconds"])  # type: ignore[arg-type]
                    json_s = statistics.median(plain["seconds"])  # type: ignore[arg-type]
                    aiida_s = statistics.median(peer["seconds"])
                    results["workloads"][name] = {"cairn": ours, "cairn_json": plain, "aiida": peer}  # type: ignore[index]
                    parse = parse_seconds(cairn, w, args.repeats)
                    results["workloads"][name]["parse_best_seconds"] = parse  # type: ignore[index]
                    print(f"{name} {ours['rows']} {cairn_s:.3f} {aiida_s:.3f} {aiida_s / cairn_s:.1f} {json_s:.3f} "
                          f"{json_s / cairn_s:.2f} {parse['orjson']:.4f} {parse['json']:.4f}", flush=True)
                if args.index:
                    started = time.perf_counter()
                    index = cairn.add_attribute_index("energy", "number")
                    print(f"# index {index['name']} ({index['state']}, {index['bytes']} bytes) built in "
                          f"{time.perf_counter() - started:.2f} s", file=sys.stderr)
                    for name in [n for n in shaped if shaped[n]["filters"]]:
                        peer = results["workloads"][name]["aiida"]  # type: ignore[index]
                        ours = cairn_measure(cairn, shaped[name], args.repeats, args.warmup)["orjson"]
                        if (ours["rows"], ours["checksum"]) != (peer["rows"], peer["checksum"]):
                            raise RuntimeError(f"{name}+index: the sides read different rows: cairn {ours}, aiida {peer}")
                        cairn_s = statistics.median(ours["seconds"])  # type: ignore[arg-type]
                        aiida_s = statistics.median(peer["seconds"])
                        results["workloads"][name + "+index"] = {"cairn": ours, "aiida": peer}  # type: ignore[index]
                        print(f"{name}+index {ours['rows']} {cairn_s:.3f} {aiida_s:.3f} {aiida_s / cairn_s:.1f}",
                              flush=True)

    bare = import_seconds(sys.executable, "pass")
    client = import_seconds(sys.executable, "import cairn_client")
    peer = import_seconds(args.aiida_python, "from aiida.orm import QueryBuilder")
    bare_peer = import_seconds(args.aiida_python, "pass")
    results["import"] = {"python": bare, "cairn_client": client, "aiida_python": bare_peer, "aiida_orm": peer}
    print("import seconds_above_bare_python ratio_to_aiida")
    print(f"cairn_client {client - bare:.3f} {(client - bare) / (peer - bare_peer):.2f}")
    print(f"aiida.orm.QueryBuilder {peer - bare_peer:.3f} 1.00")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
