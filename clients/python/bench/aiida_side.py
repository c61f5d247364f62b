"""aiida-core's side of the DataFrame benchmark (run by the aiida venv's python, AIIDA_PATH set by run.sh).

  python aiida_side.py load N ARCHIVE SHAPE
                                          N Dict nodes labelled "bench" (generate.py's attributes of SHAPE),
                                          stored by bulk_insert, then exported with their provenance to ARCHIVE
  python aiida_side.py arrays WORKLOAD REPEATS SEED
                                          the arrays of WORKLOAD (arrays.py) stored as ArrayData nodes, then each
                                          loaded and its array read, once untimed and REPEATS times, each repeat its
                                          own arrays (seeded SEED + repeat); prints a JSON line: the seconds of each
                                          store and read, and the checksum of the arrays read
  python aiida_side.py functions WORKLOAD REPEATS
                                          the calls of WORKLOAD (functions.py) as calcfunctions (and workfunctions)
                                          run in this interpreter, once untimed and REPEATS times; prints a JSON
                                          line: the seconds of each repeat and the last value computed
  python aiida_side.py measure WORKLOAD REPEATS WARMUP SHAPE [KEYS]
                                          QueryBuilder projecting what WORKLOAD of SHAPE names (workloads.py; KEYS,
                                          comma-separated, in place of its keys), .all()
                                          WARMUP times untimed, then REPEATS times; prints a JSON line: the seconds of
                                          each repeat, the row count and a checksum of the rows
"""

import datetime
import json
import sys
import time
import uuid

from aiida import load_profile, orm
from aiida.orm.entities import EntityTypes

from generate import attributes_of
from workloads import checksum, keys_option, workloads


def load(n, archive, shape):
    from aiida.tools.archive import create_archive

    load_profile()
    backend = orm.QueryBuilder().backend
    user_id = orm.User.collection.get_default().pk
    now = datetime.datetime.now(tz=datetime.timezone.utc)
    rows = [
        {
            "uuid": str(uuid.uuid4()),
            "node_type": "data.core.dict.Dict.",
            "process_type": None,
            "label": "bench",
            "description": "",
            "ctime": now,
            "mtime": now,
            "user_id": user_id,
            "dbcomputer_id": None,
            "attributes": attributes_of(i, shape),
            "extras": {},
            "repository_metadata": {},
        }
        for i in range(n)
    ]
    with backend.transaction():
        for start in range(0, n, 10_000):
            backend.bulk_insert(EntityTypes.NODE, rows[start : start + 10_000])
    create_archive(None, filename=archive, overwrite=True)
    # as Cairn's side after its import (dataframe_bench.py): the table read as one that has been in use, not one that
    # autovacuum will visit during the reads
    with backend.get_session().bind.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.exec_driver_sql("VACUUM ANALYZE db_dbnode")


def measure(workload, repeats, warmup, shape, keys=None):
    load_profile()
    w = workloads(shape, keys)[workload]
    projections = ["attributes"] if w["whole"] else ["attributes." + key for key in w["keys"]]
    filters = {"label": "bench", **{"attributes." + k: v for k, v in w["filters"].items()}}

    def run():
        qb = orm.QueryBuilder().append(orm.Dict, filters=filters, project=projections)
        return qb.all()

    for _ in range(warmup):
        rows = run()
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        rows = run()
        seconds.append(time.perf_counter() - start)
    print(json.dumps({"seconds": seconds, "rows": len(rows), "checksum": checksum(rows, w)}))


def arrays(workload, repeats, seed):
    from arrays import arrays_of, checksum

    load_profile()
    store, read, sums = [], [], []
    for r in range(repeats + 1):
        given = arrays_of(workload, seed + r)
        start = time.perf_counter()
        uuids = [orm.ArrayData(a).store().uuid for a in given]
        stored = time.perf_counter() - start
        start = time.perf_counter()
        back = [orm.load_node(u).get_array("default") for u in uuids]
        took = time.perf_counter() - start
        if r > 0:  # the first round warms up
            store.append(stored)
            read.append(took)
            sums.append(checksum(back))
    print(json.dumps({"store": store, "read": read, "checksums": sums}))


def functions(workload, repeats):
    from aiida.engine import calcfunction, workfunction

    from functions import WORKLOADS, step

    load_profile()
    calls, inner = WORKLOADS[workload]

    @calcfunction
    def advance(x, k):
        return orm.Float(step(x.value, k.value))

    @workfunction
    def several(x):
        for k in range(inner):
            x = advance(x, orm.Int(k))
        return x

    seconds, last = [], None
    for r in range(repeats + 1):
        x = orm.Float(r).store()
        start = time.perf_counter()
        for k in range(calls):
            x = several(x) if inner else advance(x, orm.Int(k))
        if r > 0:
            seconds.append(time.perf_counter() - start)
        last = x.value
    print(json.dumps({"seconds": seconds, "last": last}))


if __name__ == "__main__":
    if sys.argv[1] == "functions":
        functions(sys.argv[2], int(sys.argv[3]))
    elif sys.argv[1] == "load":
        load(int(sys.argv[2]), sys.argv[3], sys.argv[4])
    elif sys.argv[1] == "arrays":
        arrays(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        keys = keys_option(sys.argv[6]) if len(sys.argv) > 6 else None
        measure(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], keys)
