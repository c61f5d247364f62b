"""Where a DataFrame read spends its time, stage by stage, on a running server that holds the benchmark's nodes
(labelled "bench", of one shape): prints, per workload, the best and the median of ``--repeats`` reads of

  first_byte  the request until the answer's first byte (the server's plan, the query's first rows, its header)
  body        the request until the answer's last byte, nothing parsed (the server's query and writing, HTTP)
  parse       the client's parse of the lines of that answer, read beforehand (no HTTP)
  frame       the DataFrame built from the columns of that answer, parsed beforehand
  dataframe   the whole of ``Query.dataframe()``

and then the processor time one ``dataframe()`` costs each process, the mean of the same reads: the client's
(this process), the server's JVM and its PostgreSQL's (the postmaster and its backends), found by their command
lines naming the server's data directory (Linux's /proc). The parts of a read overlap (the client parses a block
while the server writes the next), so these tell whose work a change would cut, where the times do not.

  python stages.py URL TOKEN [--shape flat] [--keys K1,K2] [--repeats 15] [--warmup 5] [--data DIR]
  run.sh --stages [--n 10000] [--shape flat] [--keys K1,K2]   (the nodes made and imported as for the comparison)

With ``CAIRN_CLIENT_JSON=json`` the client parses with the standard library's json.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path
from typing import Any, Callable

from workloads import keys_option, workloads

from cairn_client import Client, _json


def timed(run: Callable[[], Any], repeats: int, warmup: int) -> list[float]:
    for _ in range(warmup):
        run()
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        seconds.append(time.perf_counter() - start)
    return seconds


def server_pids(data: Path) -> tuple[int, int] | None:
    """The JVM of the embedded server whose data directory is ``data``, and its PostgreSQL's postmaster."""
    jvm = postmaster = None
    for entry in Path("/proc").iterdir():
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if command and command[0].endswith(b"java") and f"--cairn.data-dir={data}".encode() in command:
            jvm = int(entry.name)
        if command and command[0].endswith(b"/postgres") and any(str(data).encode() in c for c in command[1:]):
            postmaster = int(entry.name)
    return (jvm, postmaster) if jvm and postmaster else None


def cpu_seconds(pids: tuple[int, int] | None) -> tuple[float, float]:
    """The processor time so far of the JVM, and of the postmaster with its descendants (its backends)."""
    if pids is None:
        return 0.0, 0.0
    jvm, postmaster = pids
    stats: dict[int, tuple[int, int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            stats[int(entry.name)] = (int(fields[1]), int(fields[11]) + int(fields[12]))  # ppid, utime + stime
    children: dict[int, list[int]] = {}
    for pid, (ppid, _) in stats.items():
        children.setdefault(ppid, []).append(pid)
    postgres, todo = 0, [postmaster]
    while todo:
        pid = todo.pop()
        postgres += stats.get(pid, (0, 0))[1]
        todo.extend(children.get(pid, []))
    tick = os.sysconf("SC_CLK_TCK")
    return stats.get(jvm, (0, 0))[1] / tick, postgres / tick


def report(
    cairn: Client, shape: str, repeats: int, warmup: int, pids: tuple[int, int] | None = None,
    keys: list[str] | None = None,
) -> None:
    """Prints the stages of each workload of ``shape``; with ``pids`` (the server's JVM and postmaster), the
    processor time of each process."""
    print(f"# parser {_json.backend()}; best / median of {repeats}, ms")
    heads = ["first_byte", "body", "parse", "frame", "dataframe"]
    print(f"{'workload':10} {'bytes':>10} " + " ".join(f"{h:>13}" for h in heads))
    http = cairn._http
    cpu: dict[str, tuple[float, float, float]] = {}
    for name, w in workloads(shape, keys).items():
        projections = ["attributes"] if w["whole"] else ["attributes." + key for key in w["keys"]]
        filters = {"label": {"==": "bench"}, **{"attributes." + k: v for k, v in w["filters"].items()}}
        query = cairn.query().nodes("d", type="data.core.dict.Dict.", filters=filters, project=projections)
        spec = query.as_json()

        def first_byte() -> None:
            with http.stream("POST", "/api/v1/query/columns", body=spec, accept="application/x-ndjson") as r:
                next(r.iter_raw())

        body: list[bytes] = []

        def whole_body() -> None:
            with http.stream("POST", "/api/v1/query/columns", body=spec, accept="application/x-ndjson") as r:
                body[:] = [r.read()]

        figures = {"first_byte": timed(first_byte, repeats, warmup)}
        figures["body"] = timed(whole_body, repeats, warmup)
        lines = [line for line in body[0].split(b"\n") if line]

        def parse() -> list[Any]:
            return [_json.loads(line) for line in lines]

        figures["parse"] = timed(parse, repeats, 1)
        parsed = parse()
        names = [c["key"] for c in parsed[0]["columns"]]

        def frame() -> None:
            import pandas

            columns: list[list[Any]] = [[] for _ in names]
            for block in parsed[1:]:
                for column, part in zip(columns, block):
                    column.extend(part)
            pandas.DataFrame(dict(zip(names, columns)))

        figures["frame"] = timed(frame, repeats, 1)
        for _ in range(warmup):
            query.dataframe()
        client, (jvm, postgres) = time.process_time(), cpu_seconds(pids)
        figures["dataframe"] = timed(query.dataframe, repeats, 0)
        client, (jvm_after, postgres_after) = time.process_time() - client, cpu_seconds(pids)
        cells = " ".join(f"{1000 * min(s):6.1f}/{1000 * statistics.median(s):6.1f}" for s in figures.values())
        print(f"{name:10} {len(body[0]):10d} {cells}", flush=True)
        cpu[name] = (client, jvm_after - jvm, postgres_after - postgres)
    print(f"# processor time of one dataframe(), ms (mean of {repeats}; the load average {os.getloadavg()[0]:.1f})")
    print(f"{'workload':10} {'client':>8} {'jvm':>8} {'postgres':>8}")
    for name, seconds in cpu.items():
        print(f"{name:10} " + " ".join(f"{1000 * s / repeats:8.1f}" for s in seconds), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url")
    parser.add_argument("token")
    parser.add_argument("--shape", default="flat")
    parser.add_argument("--keys", type=keys_option, help="the attributes projected, in place of the shape's")
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--data", type=Path, help="the server's data directory, for the processor time of each process")
    args = parser.parse_args()
    with Client(args.url, token=args.token, env={}, timeout=600) as cairn:
        report(cairn, args.shape, args.repeats, args.warmup, server_pids(args.data) if args.data else None, args.keys)


if __name__ == "__main__":
    main()
