#!/usr/bin/env python3
"""disk-objectstore's side of the phase subset_reads of jmh/compare-objectstore.sh.

Packs the workload into a new container (add_objects_to_pack, uncompressed) and times, --reps times each,
bulk reads of random subsets of the keys against a read of all of them, as Cairn's ObjectStoreComparison
does: full_read (every key, one call), full_chunked_read (every key, ten calls of a random tenth), and for
each fraction, subset_read_<pct> (a subset in one call) and subset_chunked_read_<pct> (the same subset in
ten calls). A subset is drawn exactly as Cairn's Subsets.draw draws it (SplitMix64's finaliser of the index
plus a salt per repetition), so both sides read the same keys.

Each read goes through get_objects_stream_and_meta and reads every stream whole, keeping nothing (what
get_objects_content does, without the dict); a second, untimed read of the same calls with
get_objects_content is checked against the workload. Before each timed read: gc.collect() and os.sync(),
as phases.py does, then an untimed read of 16 other keys (Cairn's side does the same:
its first call after a full collection runs with cold caches). Prints "phase seconds objects ratio" lines: the median seconds, the
mean number of keys asked for, and the median over the repetitions of the cost per object over the full
read's in the same repetition.

    subset_reads.py WORKLOAD [--fractions 0.01,0.1,0.5] [--reps 5]
"""

from __future__ import annotations

import argparse
import decimal
import gc
import os
import shutil
import statistics
import sys
import time
from pathlib import Path

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def mix(z: int) -> int:
    """SplitMix64's output function, as Subsets.mix (64-bit wrapping arithmetic)."""
    z &= MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def draw(n: int, fraction: float, rep: int) -> list[int]:
    """The indices of subset `rep`, in the order of their draws: Subsets.draw."""
    threshold = int(fraction * (1 << 53))
    salt = ((rep + 1) * GOLDEN) & MASK
    picked = []
    for i in range(n):
        d = mix(i + salt) >> 11
        if d < threshold:
            picked.append((d, i))
    picked.sort()
    return [i for _, i in picked]


def chunks(items: list, parts: int) -> list[list]:
    size = max(1, -(-len(items) // parts))
    return [items[s:s + size] for s in range(0, len(items), size)]


def percent(fraction: float) -> str:
    """0.01 as 1pct, 0.005 as 0.5pct: ObjectStoreComparison.percent."""
    return format(decimal.Decimal(repr(fraction)).scaleb(2).normalize(), 'f') + 'pct'


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('workload')
    parser.add_argument('--fractions', default='0.01,0.1,0.5')
    parser.add_argument('--reps', type=int, default=5)
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from workload import WORK_ROOT, load_workload, new_container, shuffled  # pylint: disable=import-outside-toplevel

    contents = load_workload(args.workload)
    n = len(contents)
    path = WORK_ROOT / f'subset_reads_{os.getpid()}'
    container = new_container(path)
    try:
        hashes = container.add_objects_to_pack(contents, compress=False)
        expected = dict(zip(hashes, contents))
        settle = [hashes[i] for i in shuffled(n, 5)[:16]]
        kinds = [('full_read', lambda rep: [shuffled(n, 1)]),
                 ('full_chunked_read', lambda rep: chunks(shuffled(n, 3), 10))]
        for f in (float(x) for x in args.fractions.split(',')):
            kinds.append((f'subset_read_{percent(f)}', lambda rep, f=f: [draw(n, f, rep)]))
            kinds.append((f'subset_chunked_read_{percent(f)}', lambda rep, f=f: chunks(draw(n, f, rep), 10)))
        seconds = {name: [] for name, _ in kinds}
        ratios = {name: [] for name, _ in kinds}
        counts = {name: 0 for name, _ in kinds}
        for rep in range(args.reps):
            full_per_object = None
            for name, calls_of in kinds:
                calls = [[hashes[i] for i in call] for call in calls_of(rep)]
                count = sum(len(call) for call in calls)
                secs = timed_read(container, calls, settle)
                check(container, calls, expected)
                if full_per_object is None:
                    full_per_object = secs / count
                seconds[name].append(secs)
                ratios[name].append(secs / count / full_per_object)
                counts[name] += count
        for name, _ in kinds:
            print(f'{name} {statistics.median(seconds[name]):.6f} {counts[name] // args.reps}'
                  f' {statistics.median(ratios[name]):.2f}', flush=True)
    finally:
        container.close()
        shutil.rmtree(path, ignore_errors=True)


def timed_read(container, calls: list[list[str]], settle: list[str]) -> float:
    gc.collect()
    os.sync()
    container.get_objects_content(settle)  # untimed, as on Cairn's side
    t0 = time.perf_counter()
    for call in calls:
        with container.get_objects_stream_and_meta(call) as triplets:
            for _, stream, _ in triplets:
                stream.read()
    return time.perf_counter() - t0


def check(container, calls: list[list[str]], expected: dict[str, bytes]) -> None:
    for call in calls:
        got = container.get_objects_content(call)
        assert len(got) == len(set(call)), (len(got), len(set(call)))
        for h in call:
            assert got[h] == expected[h], f'content mismatch for {h}'


if __name__ == '__main__':
    main()
