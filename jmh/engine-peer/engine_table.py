"""Joins the engine comparison's JSON lines into its table (used by jmh/compare-engine.sh).

  python engine_table.py N WORKERS_LIST RESULT_DIR [WORKLOAD]

RESULT_DIR holds cairn-w<W>.json and/or aiida-w<W>.json for each W of WORKERS_LIST (space separated),
each the one JSON line a side printed. Prints
  workers cairn_proc_per_hour aiida_proc_per_hour speedup cairn_median_ms cairn_p99_ms aiida_median_ms aiida_p99_ms
with `-` where a side did not run (--peer-only, --cairn-only); speedup = cairn / aiida processes per hour.
When a Cairn result has the caching round's figures (EngineComparison --caching), four columns follow:
  cairn_cache_first_s cairn_cache_second_s cairn_cache_speedup cairn_cache_new_workdirs
(the throughput round that filled the cache, the same work chains again, first / second, and the job work
directories the second round created, which must be 0).
Every result must have the expected keys, workers, n and processes = 3n, all_ok true and, when it says and
WORKLOAD is given, that workload; otherwise the differences go to stderr and the exit status is 1 (the
table is printed anyway).
"""
import json
import os
import sys

KEYS = ['system', 'workers', 'n', 'processes', 'wall_seconds', 'processes_per_hour',
        'latency_median_ms', 'latency_p99_ms', 'all_ok']
COLUMNS = ['workers', 'cairn_proc_per_hour', 'aiida_proc_per_hour', 'speedup',
           'cairn_median_ms', 'cairn_p99_ms', 'aiida_median_ms', 'aiida_p99_ms']
CACHE_COLUMNS = [('cairn_cache_first_s', 'cache_first_s', 2), ('cairn_cache_second_s', 'cache_second_s', 2),
                 ('cairn_cache_speedup', 'cache_speedup', 1), ('cairn_cache_new_workdirs', 'cache_new_workdirs', 0)]
PROCESSES_PER_WORKCHAIN = 3


def load(path, workers, n, workload, problems):
    """The result in path, or None when the side did not run; problems collects what is wrong."""
    if not os.path.exists(path):
        return None
    lines = [line for line in open(path).read().splitlines() if line.strip()]
    if len(lines) != 1:
        problems.append(f'{path}: expected exactly one JSON line, got {len(lines)}')
        return None
    try:
        result = json.loads(lines[0])
    except ValueError as e:
        problems.append(f'{path}: not JSON ({e}): {lines[0][:200]}')
        return None
    missing = [k for k in KEYS if k not in result]
    if missing:
        problems.append(f'{path}: missing {", ".join(missing)}')
        return None
    if result['workers'] != workers or result['n'] != n or result['processes'] != PROCESSES_PER_WORKCHAIN * n:
        problems.append(f'{path}: workers/n/processes {result["workers"]}/{result["n"]}/{result["processes"]}, '
                        f'expected {workers}/{n}/{PROCESSES_PER_WORKCHAIN * n}')
    if workload and result.get('workload', workload) != workload:
        problems.append(f'{path}: workload {result["workload"]!r}, expected {workload!r}')
    if result['all_ok'] is not True:
        problems.append(f'{path}: all_ok is {result["all_ok"]!r} ({result["system"]})')
    if result.get('cache_all_ok') is False:
        problems.append(f'{path}: the caching round is not ok: new work directories '
                        f'{result.get("cache_new_workdirs")}, cache hits {result.get("cache_hits")} '
                        f'(expected 0 and {2 * n} in all)')
    return result


def fmt(value, digits):
    if value is None:
        return '-'
    return f'{value:.{digits}f}'


def main(argv):
    if len(argv) not in (4, 5):
        sys.exit(__doc__)
    n = int(argv[1])
    workers_list = [int(w) for w in argv[2].split()]
    directory = argv[3]
    workload = argv[4] if len(argv) == 5 else None
    problems = []
    rows = []
    systems = set()
    results = []
    for w in workers_list:
        cairn = load(os.path.join(directory, f'cairn-w{w}.json'), w, n, workload, problems)
        aiida = load(os.path.join(directory, f'aiida-w{w}.json'), w, n, workload, problems)
        results.append(cairn or {})
        systems.update(r['system'] for r in (cairn, aiida) if r)
        c = cairn or {}
        a = aiida or {}
        speedup = None
        if c.get('processes_per_hour') and a.get('processes_per_hour'):
            speedup = c['processes_per_hour'] / a['processes_per_hour']
        rows.append([str(w), fmt(c.get('processes_per_hour'), 0), fmt(a.get('processes_per_hour'), 0),
                     fmt(speedup, 2), fmt(c.get('latency_median_ms'), 1), fmt(c.get('latency_p99_ms'), 1),
                     fmt(a.get('latency_median_ms'), 1), fmt(a.get('latency_p99_ms'), 1)])
    columns = list(COLUMNS)
    if any('cache_second_s' in c for c in results):
        columns += [name for name, _, _ in CACHE_COLUMNS]
        for row, c in zip(rows, results):
            row += [fmt(c.get(key), digits) for _, key, digits in CACHE_COLUMNS]
    widths = [max(len(columns[i]), *(len(r[i]) for r in rows)) for i in range(len(columns))]
    print(' '.join(c.rjust(widths[i]) for i, c in enumerate(columns)))
    for r in rows:
        print(' '.join(v.rjust(widths[i]) for i, v in enumerate(r)))
    print(f'# n={n} work chains ({PROCESSES_PER_WORKCHAIN * n} processes) per run; '
          f'systems: {", ".join(sorted(systems)) or "none"}'
          + (f'; workload {workload}' if workload else ''), file=sys.stderr)
    for p in problems:
        print(f'engine_table: {p}', file=sys.stderr)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
