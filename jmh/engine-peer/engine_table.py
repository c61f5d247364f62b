"""Joins the engine comparison's JSON lines into its table (used by jmh/compare-engine.sh).

  python engine_table.py N WORKERS_LIST RESULT_DIR

RESULT_DIR holds cairn-w<W>.json and/or aiida-w<W>.json for each W of WORKERS_LIST (space separated),
each the one JSON line a side printed. Prints
  workers cairn_proc_per_hour aiida_proc_per_hour speedup cairn_median_ms cairn_p99_ms aiida_median_ms aiida_p99_ms
with `-` where a side did not run (--peer-only, --cairn-only); speedup = cairn / aiida processes per hour.
Every result must have the expected keys, workers, n and processes = 3n, and all_ok true; otherwise the
differences go to stderr and the exit status is 1 (the table is printed anyway).
"""
import json
import os
import sys

KEYS = ['system', 'workers', 'n', 'processes', 'wall_seconds', 'processes_per_hour',
        'latency_median_ms', 'latency_p99_ms', 'all_ok']
COLUMNS = ['workers', 'cairn_proc_per_hour', 'aiida_proc_per_hour', 'speedup',
           'cairn_median_ms', 'cairn_p99_ms', 'aiida_median_ms', 'aiida_p99_ms']
PROCESSES_PER_WORKCHAIN = 3


def load(path, workers, n, problems):
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
    if result['all_ok'] is not True:
        problems.append(f'{path}: all_ok is {result["all_ok"]!r} ({result["system"]})')
    return result


def fmt(value, digits):
    if value is None:
        return '-'
    return f'{value:.{digits}f}'


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    n = int(argv[1])
    workers_list = [int(w) for w in argv[2].split()]
    directory = argv[3]
    problems = []
    rows = []
    systems = set()
    for w in workers_list:
        cairn = load(os.path.join(directory, f'cairn-w{w}.json'), w, n, problems)
        aiida = load(os.path.join(directory, f'aiida-w{w}.json'), w, n, problems)
        systems.update(r['system'] for r in (cairn, aiida) if r)
        c = cairn or {}
        a = aiida or {}
        speedup = None
        if c.get('processes_per_hour') and a.get('processes_per_hour'):
            speedup = c['processes_per_hour'] / a['processes_per_hour']
        rows.append([str(w), fmt(c.get('processes_per_hour'), 0), fmt(a.get('processes_per_hour'), 0),
                     fmt(speedup, 2), fmt(c.get('latency_median_ms'), 1), fmt(c.get('latency_p99_ms'), 1),
                     fmt(a.get('latency_median_ms'), 1), fmt(a.get('latency_p99_ms'), 1)])
    widths = [max(len(COLUMNS[i]), *(len(r[i]) for r in rows)) for i in range(len(COLUMNS))]
    print(' '.join(c.rjust(widths[i]) for i, c in enumerate(COLUMNS)))
    for r in rows:
        print(' '.join(v.rjust(widths[i]) for i, v in enumerate(r)))
    print(f'# n={n} work chains ({PROCESSES_PER_WORKCHAIN * n} processes) per run; '
          f'systems: {", ".join(sorted(systems)) or "none"}', file=sys.stderr)
    for p in problems:
        print(f'engine_table: {p}', file=sys.stderr)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
