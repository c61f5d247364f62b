"""Joins the two sides' `phase seconds result_count` lines into the comparison table.

  python join_results.py WORKLOAD_DIR/workload.json PEER_TXT [CAIRN_TXT] [--phases P,...]

With CAIRN_TXT: prints `phase cairn_seconds peer_seconds speedup` (speedup = peer / cairn).
Without it: prints `phase peer_seconds result_count`.
Either way every side's result count must equal the count the workload expects for the phase, and
every main phase (or every phase of --phases) must be there; otherwise the differences go to stderr
and the exit status is 1.
"""
import json
import sys

PHASES = ['store_single', 'store_files', 'store_process', 'store_bulk', 'project_all', 'count_longer', 'project_filtered', 'value_filter',
          'contains', 'descendants_50', 'descendants_each']
EXTRA = ['build_trees']  # shown when both sides report it


def load(path):
    """phase -> (seconds, result_count)."""
    out = {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            parts = line.split()
            if not parts:
                continue
            try:
                if len(parts) != 3:
                    raise ValueError
                out[parts[0]] = (float(parts[1]), int(parts[2]))
            except ValueError:
                sys.exit(f'{path}:{number}: expected "phase seconds result_count", got {line.strip()!r}')
    return out


def main(argv):
    asked = None
    if '--phases' in argv[:-1]:
        at = argv.index('--phases')
        asked = argv[at + 1].split(',')
        argv = argv[:at] + argv[at + 2:]
    if len(argv) not in (3, 4):
        sys.exit(__doc__)
    with open(argv[1]) as f:
        expected = json.load(f)['expected_counts']
    peer = load(argv[2])
    cairn = load(argv[3]) if len(argv) == 4 and argv[3] else None
    sides = {'aiida-core': peer} if cairn is None else {'cairn': cairn, 'aiida-core': peer}
    shown = PHASES + [p for p in EXTRA if all(p in side for side in sides.values())]
    if asked is not None:
        shown = [p for p in PHASES + EXTRA if p in asked]

    if cairn is None:
        print('phase peer_seconds result_count')
        for p in shown:
            if p in peer:
                print(f'{p} {peer[p][0]:.4f} {peer[p][1]}')
    else:
        print('phase cairn_seconds peer_seconds speedup')
        for p in shown:
            if p in cairn and p in peer:
                print(f'{p} {cairn[p][0]:.4f} {peer[p][0]:.4f} {peer[p][0] / max(cairn[p][0], 1e-9):.1f}')

    problems = []
    for p in shown:
        for name, side in sides.items():
            if p not in side:
                problems.append(f'{p}: {name} reported no result')
            elif side[p][1] != expected[p]:
                problems.append(f'{p}: {name} returned {side[p][1]}, the workload expects {expected[p]}')
    for name, side in sides.items():
        unknown = sorted(set(side) - set(shown))
        if unknown:
            print(f'note: {name} also reported {", ".join(unknown)} (not compared)', file=sys.stderr)
    if problems:
        print('\n!!! RESULT CHECK FAILED !!!', *problems, sep='\n  ', file=sys.stderr)
        return 1
    print(f'result counts agree with the workload ({" and ".join(sides)}) on all {len(shown)} phases',
          file=sys.stderr)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
