"""Writes the shared workload of the archive comparison (Cairn and aiida-core load the same files).

  python gen_archive_workload.py OUT_DIR [--n 100000] [--trees N/200] [--reuse]

The graph is the graph comparison's (jmh/graph-peer/gen_graph_workload.py): N structures (the same ones
that comparison stores in bulk for the same N) and trees of B=4, D=4, where each data node above the
last level is the single input `x` (INPUT_CALC) of a sealed calcfunction node that CREATEs four Ints
`out_0..out_3`. Here every calcfunction node has one file, so the archives carry objects too.

OUT_DIR receives
  structures.jsonl  the structures' attribute dicts, one JSON object per line
  trees.json        the trees' shape and the attributes of their nodes (the calcs are sealed)
  files.tsv         one line per calc, in calc order: `name offset size` of its file in files.bin
  files.bin         the distinct file contents, one after the other (duplicates point at the first copy)
  workload.json     parameters and the counts an installation holds once loaded (nodes, links, objects);
                    written last, so its presence means the directory is complete

Calc order: tree by tree; within a tree level by level (level 1 is the root's calc); within a level in
the order of the previous level's outputs (calc k of level d takes output k % 4 of calc k // 4 of level
d-1). Both sides give calc i the file of line i.

Files: sizes log-uniform from 100 B to 64 KiB, one in 1000 log-uniform from 256 KiB to 4 MiB, one in 20 a
copy of an earlier file (same bytes, so the same object). Their text is a table of numbers, as a code's
output is: a slice of a pool of generated lines with the digits permuted per file, so every file
compresses like text but no two files share long runs. Standard library only; the same arguments give
the same bytes.
"""
import argparse
import hashlib
import json
import math
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'graph-peer'))
import gen_graph_workload as graph  # noqa: E402  (the structures and trees of the graph comparison)

FORMAT = 1
FILE_SEED = 1729
POOL_BYTES = 8 << 20
SMALL = (100, 64 << 10)
LARGE = (256 << 10, 4 << 20)
LARGE_ONE_IN = 1000
COPY_ONE_IN = 20
FILE_NAMES = ['aiida.out', 'output.txt', '_scheduler-stdout.txt', 'data.dat']
STRUCTURE_LABEL = 'archive-structure'
DIGITS = b'0123456789'


def log_uniform(rng, low, high):
    return int(math.exp(rng.uniform(math.log(low), math.log(high))))


def text_pool(rng):
    """Lines of a code's output: a step number and six floats, about 90 bytes each."""
    lines = []
    size = 0
    step = 0
    while size < POOL_BYTES:
        line = f'{step:8d} ' + ' '.join(f'{rng.uniform(-1e3, 1e3): .10e}' for _ in range(6)) + '\n'
        lines.append(line)
        size += len(line)
        step += 1
    return ''.join(lines).encode('ascii')[:POOL_BYTES]


def write_files(out, calcs):
    """files.bin and files.tsv for `calcs` calcs; returns (distinct objects, their bytes, bytes of all files)."""
    rng = random.Random(FILE_SEED)
    pool = text_pool(rng)
    placed = []  # (name, offset, size) per calc
    keys = set()
    offset = 0
    total = 0
    with open(os.path.join(out, 'files.bin'), 'wb') as blob:
        for i in range(calcs):
            if i > 0 and rng.randrange(COPY_ONE_IN) == 0:
                name, at, size = placed[rng.randrange(i)]
                placed.append((FILE_NAMES[i % len(FILE_NAMES)], at, size))
                total += size
                continue
            size = log_uniform(rng, *LARGE) if rng.randrange(LARGE_ONE_IN) == 0 else log_uniform(rng, *SMALL)
            start = rng.randrange(POOL_BYTES - size)
            digits = list(DIGITS)
            rng.shuffle(digits)
            header = f'# calc {i}\n'.encode('ascii')
            content = (header + pool[start:start + size].translate(bytes.maketrans(DIGITS, bytes(digits))))[:size]
            blob.write(content)
            keys.add(hashlib.sha256(content).digest())
            placed.append((FILE_NAMES[i % len(FILE_NAMES)], offset, size))
            offset += size
            total += size
    with open(os.path.join(out, 'files.tsv'), 'w') as f:
        for name, at, size in placed:
            f.write(f'{name}\t{at}\t{size}\n')
    return len(keys), offset, total


def tree_spec(trees):
    spec = graph.tree_spec(trees)
    spec['calc']['attributes'] = {**spec['calc']['attributes'], 'sealed': True}
    spec['calcs'] = trees * sum(spec['branching'] ** d for d in range(spec['depth']))
    return spec


def parameters(n, trees):
    return {'format': FORMAT, 'seed': graph.SEED, 'file_seed': FILE_SEED, 'structures': n, 'trees': trees}


def generate(out, n, trees):
    os.makedirs(out, exist_ok=True)
    marker = os.path.join(out, 'workload.json')
    if os.path.exists(marker):
        os.remove(marker)
    rng = random.Random(graph.SEED)
    # the graph comparison draws its 1000 single structures first: skip them, so that structures.jsonl
    # holds that comparison's bulk structures
    for _ in range(1000):
        graph.random_structure(rng)
    graph.write_structures(os.path.join(out, 'structures.jsonl'), rng, n)
    spec = tree_spec(trees)
    with open(os.path.join(out, 'trees.json'), 'w') as f:
        json.dump(spec, f, indent=1)
    objects, object_bytes, file_bytes = write_files(out, spec['calcs'])
    workload = {
        **parameters(n, trees),
        'structure_node_type': graph.STRUCTURE_TYPE,
        'structure_label': STRUCTURE_LABEL,
        'expected': {
            'nodes': n + spec['nodes'],
            'links': spec['links'],
            'objects': objects,
            'object_bytes': object_bytes,
            'file_bytes': file_bytes,
            'calcs': spec['calcs'],
        },
    }
    with open(marker + '.tmp', 'w') as f:
        json.dump(workload, f, indent=1)
    os.replace(marker + '.tmp', marker)
    return workload


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('out')
    ap.add_argument('--n', type=int, default=100000, help='structures')
    ap.add_argument('--trees', type=int, help='trees of B=4, D=4 (default: N/200, at least 1)')
    ap.add_argument('--reuse', action='store_true', help='keep OUT if it already holds these parameters')
    a = ap.parse_args()
    trees = a.trees if a.trees is not None else max(1, a.n // 200)
    if a.n < 1 or trees < 1:
        ap.error(f'--n and --trees must be at least 1, were {a.n} and {trees}')
    if a.reuse:
        try:
            with open(os.path.join(a.out, 'workload.json')) as f:
                old = json.load(f)
            if {k: old.get(k) for k in parameters(0, 0)} == parameters(a.n, trees):
                print(json.dumps(old['expected']))
                return
        except (OSError, ValueError):
            pass
    print(json.dumps(generate(a.out, a.n, trees)['expected']))


if __name__ == '__main__':
    main()
