"""Recording Python functions with cairn-client (``@cairn.calcfunction``, ``@cairn.workfunction``) against
aiida-core's ``@calcfunction`` and ``@workfunction`` run in its own interpreter. Run by run.sh (``run.sh functions``),
which makes aiida-core's profile; prints one line per workload.

  python functions_bench.py --aiida-python PY [--repeats 5] [--json FILE]

Workloads (functions.py): 200 calcfunction calls in a chain (each takes the last one's output), and 20
workfunction calls of 10 chained calcfunction calls each. The bodies are cheap arithmetic: the figure is what
recording a call costs. Cairn's calls go to the server jar in its embedded mode, each a request recording the run
(the first also asks the cache, and the server's answer that its caching is off spares the others the question),
a workfunction's two more; aiida-core's run in its
process against its profile's PostgreSQL (no broker, no daemon: functions need neither). A round untimed first;
medians of the repeats; the last value computed must agree.
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

from embedded_server import embedded_server, server_jar  # noqa: E402
from functions import WORKLOADS, step  # noqa: E402

from cairn_client import Client, Node  # noqa: E402


def aiida(python: str, workload: str, repeats: int) -> dict[str, object]:
    done = subprocess.run(
        [python, str(HERE / "aiida_side.py"), "functions", workload, str(repeats)],
        cwd=HERE,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise RuntimeError(f"aiida_side.py functions {workload} failed:\n{done.stdout}{done.stderr}")
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def cairn_measure(cairn: Client, workload: str, repeats: int) -> dict[str, object]:
    calls, inner = WORKLOADS[workload]

    @cairn.calcfunction
    def advance(x: float, k: int) -> float:
        return step(x, k)

    @cairn.workfunction
    def several(x: Node) -> Node:
        for k in range(inner):
            x = advance(x, k)
        return x

    seconds: list[float] = []
    last = None
    for r in range(repeats + 1):
        x = cairn.upload(float(r))
        start = time.perf_counter()
        for k in range(calls):
            x = several(x) if inner else advance(x, k)
        if r > 0:
            seconds.append(time.perf_counter() - start)
        last = x.value
    return {"seconds": seconds, "last": last}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--aiida-python", required=True)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--workload", choices=list(WORKLOADS), action="append")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    results: dict[str, object] = {"repeats": args.repeats, "workloads": {}}
    print("workload calls calcfunctions_each cairn_s aiida_s speedup cairn_ms_per_calcfunction")
    with embedded_server(server_jar(), heap="1g") as (url, token, _data):
        with Client(url, token=token, env={}, timeout=600) as cairn:
            for name in args.workload or WORKLOADS:
                peer = aiida(args.aiida_python, name, args.repeats)
                ours = cairn_measure(cairn, name, args.repeats)
                if abs(float(ours["last"]) - float(peer["last"])) > 1e-9 * abs(float(peer["last"])):  # type: ignore[arg-type]
                    raise RuntimeError(f"{name}: the sides computed different values: {ours['last']} {peer['last']}")
                results["workloads"][name] = {"cairn": ours, "aiida": peer}  # type: ignore[index]
                cs = statistics.median(ours["seconds"])  # type: ignore[arg-type]
                as_ = statistics.median(peer["seconds"])  # type: ignore[arg-type]
                calls, inner = WORKLOADS[name]
                per = cs / (calls * max(inner, 1)) * 1000
                print(f"{name} {calls} {inner} {cs:.3f} {as_:.3f} {as_ / cs:.1f} {per:.2f}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
