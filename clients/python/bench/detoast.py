"""What PostgreSQL spends projecting the benchmark's five keys of each node's attributes, by the SQL that
projects them and by how the column is compressed: the figures behind the query compiler's read of several
keys of one document (storage's SharedDocuments).

  python detoast.py [--n 10000] [--repeats 7] [--shapes flat,nested,wide,text]

Needs psql and a PostgreSQL role that may create a database (PGHOST, PGPORT, PGUSER, PGPASSWORD; .ci/services
gives cairn/cairn at 127.0.0.1:5432). For each shape of generate.py, the attributes of n nodes go into two
tables, one with the column compressed by pglz (what PostgreSQL without lz4 does, the embedded mode's
binaries among them), one by lz4 (what Cairn's schema asks for where PostgreSQL has it). Each statement runs
under EXPLAIN (ANALYZE, TIMING OFF), which computes every projected value but sends none: the figure is the
execution time PostgreSQL reports, the best of ``--repeats`` after one untimed run, in ms.

  keys     t.attributes -> 'k' (or #> for a path) for each key, as the compiler wrote it before
  lateral  the same keys of the document decompressed once a row: CROSS JOIN LATERAL (SELECT t.attributes ||
           '{}'::jsonb AS attributes OFFSET 0) AS d, then d.attributes -> 'k' (what the compiler writes now)
  record   one call that reads the top-level keys, jsonb_to_record(t.attributes) AS r("energy" jsonb, …), the
           paths then taken from those values
  whole    t.attributes itself (no key read; its text is made only when it is sent, which EXPLAIN does not do)
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from generate import SHAPES  # noqa: E402
from workloads import KEYS  # noqa: E402

DB = "cairn_detoast_bench"


def psql(sql: str, db: str = DB, stdin: str | None = None) -> str:
    command = ["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", db, "-c", sql]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, check=True).stdout


def path(column: str, key: str) -> str:
    parts = key.split(".")
    if len(parts) == 1:
        return f"{column} -> '{key}'"
    return f"{column} #> '{{{','.join(parts)}}}'"


def statements(table: str, keys: list[str]) -> dict[str, str]:
    tops = sorted({k.split(".")[0] for k in keys})
    record_columns = ", ".join(f'"{t}" jsonb' for t in tops)
    record_values = []
    for k in keys:
        top, *rest = k.split(".")
        value = f'r."{top}"'
        record_values.append(value if not rest else path(value, ".".join(rest)))
    return {
        "keys": f"SELECT {', '.join(path('t.attributes', k) for k in keys)} FROM {table} AS t",
        "lateral": f"SELECT {', '.join(path('d.attributes', k) for k in keys)} FROM {table} AS t CROSS JOIN LATERAL"
        " (SELECT t.attributes || '{}'::jsonb AS attributes OFFSET 0) AS d",
        "record": f"SELECT {', '.join(record_values)} FROM {table} AS t,"
        f" jsonb_to_record(t.attributes) AS r({record_columns})",
        "whole": f"SELECT t.attributes FROM {table} AS t",
    }


def execution_ms(sql: str, repeats: int) -> float:
    explain = f"EXPLAIN (ANALYZE, TIMING OFF, COSTS OFF) {sql}"
    psql(explain)
    best = float("inf")
    for _ in range(repeats):
        plan = psql(explain)
        best = min(best, float(re.search(r"Execution Time: ([0-9.]+) ms", plan).group(1)))  # type: ignore[union-attr]
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--shapes", default=",".join(SHAPES))
    args = parser.parse_args()
    psql(f"DROP DATABASE IF EXISTS {DB}", db="postgres")
    psql(f"CREATE DATABASE {DB}", db="postgres")
    try:
        print(f"# {args.n} nodes a shape, best of {args.repeats} EXPLAIN (ANALYZE) execution times in ms; "
              f"{psql('SHOW server_version').strip()}; load average {os.getloadavg()[0]:.1f}")
        print("shape compression stored_compressed keys lateral record whole lateral/keys record/keys")
        for shape in args.shapes.split(","):
            rows = io.StringIO()
            for i in range(args.n):
                text = json.dumps(SHAPES[shape](i), ensure_ascii=False)
                rows.write(text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n") + "\n")
            for compression in ("pglz", "lz4"):
                table = f"{shape}_{compression}"
                psql(f"CREATE TABLE {table} (id bigserial, attributes jsonb COMPRESSION {compression} NOT NULL)")
                psql(f"COPY {table} (attributes) FROM STDIN", stdin=rows.getvalue())
                psql(f"VACUUM ANALYZE {table}")
                compressed = psql(f"SELECT count(*) FROM {table} WHERE pg_column_compression(attributes) IS NOT NULL")
                ms = {name: execution_ms(sql, args.repeats) for name, sql in statements(table, KEYS[shape]).items()}
                print(f"{shape} {compression} {compressed.strip()} {ms['keys']:.1f} {ms['lateral']:.1f} "
                      f"{ms['record']:.1f} {ms['whole']:.1f} {ms['lateral'] / ms['keys']:.2f} "
                      f"{ms['record'] / ms['keys']:.2f}", flush=True)
    finally:
        psql(f"DROP DATABASE IF EXISTS {DB}", db="postgres")


if __name__ == "__main__":
    main()
