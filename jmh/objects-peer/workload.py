"""What the object store comparison's Python side shares: the workload file and a container of disk-objectstore.

A workload file (written by dev.cairn.jmh.objects.WorkloadGenerator) is little-endian: a uint32 count, then
per object a uint32 length and that many bytes.
"""

from __future__ import annotations

import random
import shutil
import struct
from pathlib import Path

WORK_ROOT = Path('/tmp/cairn-peers/work')


def load_workload(path: str) -> list[bytes]:
    """Every object of the workload file, in its order."""
    with open(path, 'rb') as fh:
        data = fh.read()
    (count,) = struct.unpack_from('<I', data, 0)
    objects, pos = [], 4
    for _ in range(count):
        (length,) = struct.unpack_from('<I', data, pos)
        pos += 4
        objects.append(data[pos:pos + length])
        pos += length
    if pos != len(data):
        raise ValueError(f'{path}: {len(data) - pos} bytes after the last of its {count} objects')
    return objects


def shuffled(n: int, seed: int) -> list[int]:
    """0..n-1 in an order fixed by seed."""
    order = list(range(n))
    random.Random(seed).shuffle(order)
    return order


def new_container(path: Path):
    """A fresh disk-objectstore container at path, with the library's defaults (zlib for compression)."""
    from disk_objectstore import Container  # pylint: disable=import-outside-toplevel

    if path.exists():
        shutil.rmtree(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    container = Container(path)
    container.init_container(clear=True)
    return container
