"""Joins the two sides' phase lines into the archive comparison's table, and checks their counts.

  python join_results.py WORKLOAD_DIR/workload.json CAIRN_TXT [PEER_TXT]

CAIRN_TXT holds `phase seconds nodes links objects old_gen_peak_mb` lines (ArchiveComparison), or
`import_aiida n/a (why)`; PEER_TXT `phase seconds nodes links objects` lines (aiida_archive_bench.py).
With PEER_TXT: prints `phase cairn_seconds peer_seconds speedup` (speedup = peer / cairn) for export,
import, reimport and import_aiida, whose peer figure is aiida-core's import (the same operation: its own
archive into an empty profile). Without it: `phase cairn_seconds nodes nodes_per_s old_gen_peak_mb`.
Then a check line: every phase of either side must hold the workload's nodes, links and objects;
otherwise the differences go to stderr and the exit status is 1. The loads are not compared; their
times go to stderr.
"""
import json
import sys

PHASES = ['export', 'import', 'reimport', 'import_aiida']


def load(path):
    """phase -> list of numbers, or a string for a phase that did not run."""
    out = {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            parts = line.split()
            if not parts:
                continue
            if len(parts) > 1 and parts[1] == 'n/a':
                out[parts[0]] = line.split(None, 2)[2].strip() if len(parts) > 2 else 'n/a'
                continue
            try:
                out[parts[0]] = [float(parts[1])] + [int(p) for p in parts[2:]]
            except (ValueError, IndexError):
                sys.exit(f'{path}:{number}: expected "phase seconds nodes links objects ...", got {line.strip()!r}')
    return out


def main(argv):
    if len(argv) not in (3, 4):
        sys.exit(__doc__)
    with open(argv[1]) as f:
        expected = json.load(f)['expected']
    cairn = load(argv[2])
    peer = load(argv[3]) if len(argv) == 4 else None
    if peer is not None and 'import' in peer:
        peer['import_aiida'] = peer['import']

    loads = [f'{name} {side["load"][0]:.1f} s' for name, side in (('Cairn', cairn), ('aiida-core', peer))
             if side is not None and isinstance(side.get('load'), list)]
    if loads:
        print(f'loading the graph (not compared): {", ".join(loads)}', file=sys.stderr)

    if peer is None:
        print('phase cairn_seconds nodes nodes_per_s old_gen_peak_mb')
        for p in ['load'] + PHASES:
            c = cairn.get(p)
            if isinstance(c, list):
                print(f'{p} {c[0]:.4f} {c[1]} {c[1] / max(c[0], 1e-9):.0f} {c[4] if len(c) > 4 else "?"}')
            elif c is not None:
                print(f'{p} n/a {c}')
    else:
        print('phase cairn_seconds peer_seconds speedup')
        for p in PHASES:
            c, a = cairn.get(p), peer.get(p)
            peer_s = f'{a[0]:.4f}' if isinstance(a, list) else 'n/a'
            if isinstance(c, list) and isinstance(a, list):
                print(f'{p} {c[0]:.4f} {peer_s} {a[0] / max(c[0], 1e-9):.1f}')
            elif c is not None or a is not None:
                why = c if isinstance(c, str) else '(not run)'
                print(f'{p} n/a {peer_s} n/a {why}')

    want = (expected['nodes'], expected['links'], expected['objects'])
    problems = []
    checked = []
    for name, side in (('cairn', cairn), ('aiida-core', peer)):
        if side is None:
            continue
        for p in ['load'] + PHASES:
            if name == 'aiida-core' and p == 'import_aiida':
                continue  # the same line as its import
            got = side.get(p)
            if isinstance(got, list):
                checked.append(f'{name} {p}')
                if tuple(got[1:4]) != want:
                    problems.append(f'{name} {p}: nodes, links, objects {tuple(got[1:4])}, the workload holds {want}')
    if problems:
        print('\n!!! COUNT CHECK FAILED !!!', *problems, sep='\n  ', file=sys.stderr)
        return 1
    print(f'check: {want[0]} nodes, {want[1]} links, {want[2]} objects in every archive and installation'
          f' ({", ".join(checked)})', file=sys.stderr)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
