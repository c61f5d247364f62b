"""Where a DataFrame read spends its time, stage by stage, on a running server that holds the benchmark's nodes
(labelled "bench", of one shape): prints, per workload, the best and the median of ``--repeats`` reads of

  first_byte  the request until the answer's first byte (the server's plan, the query's first rows, its header)
  body        the request until the answer's last byte, nothing parsed (the server's query and writing, HTTP)
  parse       the client's parse of the lines of that answer, read beforehand (no HTTP)
  frame       the DataFrame built from the columns of that answer, parsed beforehand
  dataframe   the whole of ``Query.dataframe()``

  python stages.py URL TOKEN [--shape flat] [--repeats 15] [--warmup 5]
  run.sh --stages [--n 10000] [--shape flat]      (the nodes made and imported as for the comparison)

With ``CAIRN_CLIENT_JSON=json`` the client parses with the standard library's json.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any, Callable

from workloads import workloads

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


def report(cairn: Client, shape: str, repeats: int, warmup: int) -> None:
    """Prints the stages of each workload of ``shape``."""
    print(f"# parser {_json.backend()}; best / median of {repeats}, ms")
    heads = ["first_byte", "body", "parse", "frame", "dataframe"]
    print(f"{'workload':10} {'bytes':>10} " + " ".join(f"{h:>13}" for h in heads))
    http = cairn._http
    for name, w in workloads(shape).items():
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
        figures["dataframe"] = timed(query.dataframe, repeats, warmup)
        cells = " ".join(f"{1000 * min(s):6.1f}/{1000 * statistics.median(s):6.1f}" for s in figures.values())
        print(f"{name:10} {len(body[0]):10d} {cells}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url")
    parser.add_argument("token")
    parser.add_argument("--shape", default="flat")
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--warmup", type=int, default=5)
    args = parser.parse_args()
    with Client(args.url, token=args.token, env={}, timeout=600) as cairn:
        report(cairn, args.shape, args.repeats, args.warmup)


if __name__ == "__main__":
    main()
