#!/usr/bin/env python3
"""disk-objectstore's side of jmh/compare-objectstore.sh: the phases Cairn's ObjectStoreComparison times.

Runs the asked-for phases on the workload with disk-objectstore's public API, each timed once (wall clock,
time.perf_counter) after gc.collect() and os.sync(), so that one phase's dirty pages are not written during
the next; contents are checked after each read, outside the timing. Prints "phase seconds" lines, with the
names ObjectStoreComparison prints:

  loose_write            Container.add_object of every object, one call each, into an empty container
  pack_all_loose         pack_all_loose(compress=False) of those loose objects
  clean_storage          clean_storage(): their loose copies deleted
  pack_write             add_objects_to_pack(every object, compress=False) into an empty container
  pack_write_compressed  the same with compress=True (zlib), into another empty container
  bulk_read              get_objects_content of every key in one call, in a shuffled order
  single_reads           get_object_content of every key, one call each, in a shuffled order
  chunked_read           get_objects_content of every key in ten calls of a shuffled tenth each
  validate               validate() of the uncompressed packed container

    phases.py WORKLOAD --phases loose_write,pack_write,...
"""

from __future__ import annotations

import argparse
import gc
import os
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from workload import WORK_ROOT, load_workload, new_container, shuffled  # noqa: E402  pylint: disable=wrong-import-position

ALL = ['loose_write', 'pack_all_loose', 'clean_storage', 'pack_write', 'pack_write_compressed', 'bulk_read',
       'single_reads', 'chunked_read', 'validate']
READS = {'bulk_read', 'single_reads', 'chunked_read', 'validate'}


def timed(name: str, action):
    gc.collect()
    os.sync()
    start = time.perf_counter()
    result = action()
    print(f'{name} {time.perf_counter() - start:.6f}', flush=True)
    return result


def check(got: dict, hashes: list[str], contents: list[bytes], what: str) -> None:
    for key, content in zip(hashes, contents):
        if got.get(key) != content:
            raise SystemExit(f'{what}: the content of {key} differs from the workload')


def loose_then_packed(base: Path, contents: list[bytes], phases: set[str]) -> None:
    container = new_container(base / 'loose')
    add = container.add_object
    timed('loose_write', lambda: [add(c) for c in contents])
    if phases & {'pack_all_loose', 'clean_storage'}:
        timed('pack_all_loose', lambda: container.pack_all_loose(compress=False))
        timed('clean_storage', container.clean_storage)
    container.close()


def reads(container, hashes: list[str], contents: list[bytes], phases: set[str]) -> None:
    n = len(hashes)
    if 'bulk_read' in phases:
        keys = [hashes[i] for i in shuffled(n, 1)]
        check(timed('bulk_read', lambda: container.get_objects_content(keys)), hashes, contents, 'bulk_read')
    if 'single_reads' in phases:
        keys = [hashes[i] for i in shuffled(n, 2)]
        get = container.get_object_content
        got = timed('single_reads', lambda: [get(k) for k in keys])
        check(dict(zip(keys, got)), hashes, contents, 'single_reads')
    if 'chunked_read' in phases:
        order = shuffled(n, 3)
        size = -(-n // 10)
        calls = [[hashes[i] for i in order[s:s + size]] for s in range(0, n, size)]
        parts = timed('chunked_read', lambda: [container.get_objects_content(call) for call in calls])
        merged = {}
        for part in parts:
            merged.update(part)
        check(merged, hashes, contents, 'chunked_read')
    if 'validate' in phases:
        issues = timed('validate', container.validate)
        if not issues.is_valid():
            raise SystemExit(f'validate found faults: {issues}')


def packed(base: Path, contents: list[bytes], phases: set[str]) -> None:
    container = new_container(base / 'packed')
    hashes = timed('pack_write', lambda: container.add_objects_to_pack(contents, compress=False))
    reads(container, hashes, contents, phases)
    container.close()
    if 'pack_write_compressed' in phases:
        compressed = new_container(base / 'compressed')
        timed('pack_write_compressed', lambda: compressed.add_objects_to_pack(contents, compress=True))
        compressed.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('workload')
    parser.add_argument('--phases', default=','.join(ALL))
    args = parser.parse_args()
    phases = set(args.phases.split(','))
    unknown = phases - set(ALL)
    if unknown:
        raise SystemExit(f'unknown phases {sorted(unknown)}; the phases are {ALL}')
    contents = load_workload(args.workload)
    base = WORK_ROOT / f'phases_{os.getpid()}'
    try:
        if phases & {'loose_write', 'pack_all_loose', 'clean_storage'}:
            loose_then_packed(base, contents, phases)
        if phases & ({'pack_write', 'pack_write_compressed'} | READS):
            packed(base, contents, phases)
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == '__main__':
    main()
