"""Writes the shared workload of the graph comparison (Cairn and aiida-core read the same files).

  python gen_graph_workload.py OUT_DIR [--n 100000] [--single 1000] [--trees 500]

OUT_DIR receives
  single.jsonl     structures stored one by one (phase store_single), one JSON object per line
  structures.jsonl structures stored in batches and then queried (store_bulk and the attribute queries)
  trees.json       the shape of the trees for the descendant queries and which roots are asked about
  workload.json    the parameters, the labels both sides give their nodes, the shapes of the files and
                   processes stored one by one (store_files, store_process), and the result count each
                   phase must return; written last, so its presence means the directory is complete

Each structure is the attribute dict of a StructureData node: cell (3x3 floats), pbc1..pbc3 (true),
kinds (2 or 3 of {name, symbols: [name], weights: [1.0], mass}), sites (8 to 64 of {kind_name,
position: 3 floats}). Floats are already rounded to 14 significant digits, as aiida-core rounds
attribute values when it stores them, so both sides hold exactly the same numbers.
Only the standard library is used; output is the same for the same arguments.
"""
import argparse
import json
import os
import random

FORMAT = 2
SEED = 42          # structures, drawn in the order of the peer's db_bench.py: the single ones first
ROOT_SAMPLE_SEED = 7
ROOT_SAMPLE = 50
BRANCHING = 4
DEPTH = 4
SITES_LONGER_THAN = 32
CELL_00_ABOVE = 10.0
KIND_CONTAINED = 'Ba'
ELEMENTS = [('Ba', 137.327), ('Ti', 47.867), ('O', 15.999), ('Si', 28.085), ('Sr', 87.62), ('Ca', 40.078)]
FLOAT_DIGITS = 14

STRUCTURE_TYPE = 'data.core.structure.StructureData.'
INT_TYPE = 'data.core.int.Int.'
CALC_TYPE = 'process.calculation.calcfunction.CalcFunctionNode.'


def random_structure(rng):
    """The same draws, in the same order, as the peer's db_bench.random_structure."""
    nkinds = rng.choice([2, 3])
    kinds = []
    for sym, mass in rng.sample(ELEMENTS, nkinds):
        kinds.append({'name': sym, 'symbols': [sym], 'weights': [1.0], 'mass': mass})
    a = rng.uniform(3.0, 12.0)
    cell = [[a, 0.0, 0.0], [rng.uniform(-0.5, 0.5), a, 0.0], [rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), a]]
    nsites = rng.randint(8, 64)
    sites = [
        {'kind_name': kinds[i if i < nkinds else rng.randrange(nkinds)]['name'],
         'position': [rng.uniform(0, a) for _ in range(3)]}
        for i in range(nsites)
    ]
    return {'cell': cell, 'pbc1': True, 'pbc2': True, 'pbc3': True, 'kinds': kinds, 'sites': sites}


def rounded(value):
    """A value with every float cut to 14 significant digits, the way aiida-core cleans attributes
    (a float that becomes a whole number in exponent notation turns into an int there too)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, float):
        text = f'{value:.{FLOAT_DIGITS}g}'
        cut = float(text)
        return int(cut) if 'e' in text and cut.is_integer() else cut
    if isinstance(value, dict):
        return {k: rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [rounded(v) for v in value]
    return value


class Expected:
    """Result counts of the attribute queries, computed from the data itself."""

    def __init__(self):
        self.stored = 0
        self.sites_longer = 0
        self.cell_00_above = 0
        self.kind_contained = 0

    def add(self, s):
        self.stored += 1
        self.sites_longer += len(s['sites']) > SITES_LONGER_THAN
        self.cell_00_above += s['cell'][0][0] > CELL_00_ABOVE
        self.kind_contained += any(k['name'] == KIND_CONTAINED for k in s['kinds'])


def write_structures(path, rng, count, expected=None):
    with open(path, 'w') as f:
        for _ in range(count):
            s = rounded(random_structure(rng))
            if expected is not None:
                expected.add(s)
            f.write(json.dumps(s, separators=(',', ':')))
            f.write('\n')


def tree_spec(trees):
    """The trees of the descendant queries, as the peer's db_bench.build_trees_bulk builds them."""
    chosen = random.Random(ROOT_SAMPLE_SEED).sample(range(trees), min(ROOT_SAMPLE, trees))
    calcs_per_tree = sum(BRANCHING ** d for d in range(DEPTH))
    outputs_per_tree = sum(BRANCHING ** d for d in range(1, DEPTH + 1))
    return {
        'trees': trees,
        'branching': BRANCHING,
        'depth': DEPTH,
        'chosen_root_indices': chosen,
        'nodes': trees * (1 + calcs_per_tree + outputs_per_tree),
        'links': trees * (calcs_per_tree + outputs_per_tree),
        'descendants_per_root': calcs_per_tree + outputs_per_tree,
        'root': {'node_type': INT_TYPE, 'label': 'tree-root', 'attributes': {'value': '<tree index 0..trees-1>'}},
        'calc': {'node_type': CALC_TYPE, 'process_type': 'bench_tc.split', 'label': 'tree-calc',
                 'attributes': {'process_state': 'finished', 'exit_status': 0, 'sealed': True,
                                'function_name': 'split'}},
        'output': {'node_type': INT_TYPE, 'label': 'tree-d<depth 1..D>', 'attributes': {'value': '<output index 0..B-1>'}},
        'input_link': {'type': 'input_calc', 'label': 'x'},
        'create_link': {'type': 'create', 'label': 'out_<output index 0..B-1>'},
    }


def single_shapes(single):
    """The other shapes stored one at a time, both sides building them from this description: files (a
    SinglefileData whose file holds the line 'line <i>', newline included, `repeats` times; i counts from
    0) and processes (a finished, sealed CalcFunctionNode with the same two stored Int inputs each time,
    which CREATEs one Int, their sum)."""
    return {
        'files': {'count': single, 'filename': 'data.txt', 'line': 'line <i>', 'repeats': 200,
                  'label': 'graph-file'},
        'processes': {'count': max(1, single // 4), 'node_type': CALC_TYPE, 'process_type': 'bench.add',
                      'label': 'graph-process', 'inputs': {'x': 1, 'y': 2}, 'output_label': 'result',
                      'attributes': {'process_state': 'finished', 'exit_status': 0, 'function_name': 'add'}},
    }


def parameters(n, single, trees):
    return {'format': FORMAT, 'seed': SEED, 'structures': n, 'single': single, 'trees': trees}


def generate(out, n, single, trees):
    os.makedirs(out, exist_ok=True)
    marker = os.path.join(out, 'workload.json')
    if os.path.exists(marker):
        os.remove(marker)
    rng = random.Random(SEED)
    write_structures(os.path.join(out, 'single.jsonl'), rng, single)
    expected = Expected()
    write_structures(os.path.join(out, 'structures.jsonl'), rng, n, expected)
    spec = tree_spec(trees)
    with open(os.path.join(out, 'trees.json'), 'w') as f:
        json.dump(spec, f, indent=1)
    roots = len(spec['chosen_root_indices'])
    workload = {
        **parameters(n, single, trees),
        'float_significant_digits': FLOAT_DIGITS,
        'structure_node_type': STRUCTURE_TYPE,
        'labels': {'single': 'graph-single', 'bulk': 'graph-bulk'},
        'bulk_batch': 10000,
        'queries': {
            'sites_longer_than': SITES_LONGER_THAN,
            'cell_00_above': CELL_00_ABOVE,
            'kinds_contain_name': KIND_CONTAINED,
        },
        'shapes': single_shapes(single),
        'expected_counts': {
            'store_single': single,
            'store_files': single,
            'store_process': single_shapes(single)['processes']['count'],
            'store_bulk': n,
            'project_all': n,
            'count_longer': expected.sites_longer,
            'project_filtered': expected.sites_longer,
            'value_filter': expected.cell_00_above,
            'contains': expected.kind_contained,
            'build_trees': spec['nodes'],
            'descendants_50': roots * spec['descendants_per_root'],
            'descendants_each': roots * spec['descendants_per_root'],
        },
    }
    with open(marker + '.tmp', 'w') as f:
        json.dump(workload, f, indent=1)
    os.replace(marker + '.tmp', marker)
    return workload


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('out')
    ap.add_argument('--n', type=int, default=100000, help='structures stored in bulk and queried')
    ap.add_argument('--single', type=int, default=1000, help='structures stored one by one')
    ap.add_argument('--trees', type=int, default=500, help='trees (B=4, D=4) for the descendant queries')
    ap.add_argument('--reuse', action='store_true', help='keep OUT if it already holds these parameters')
    a = ap.parse_args()
    for name in ('n', 'single', 'trees'):
        if getattr(a, name) < 1:
            ap.error(f'--{name} must be at least 1, was {getattr(a, name)}')
    if a.reuse:
        try:
            with open(os.path.join(a.out, 'workload.json')) as f:
                old = json.load(f)
            if {k: old.get(k) for k in parameters(0, 0, 0)} == parameters(a.n, a.single, a.trees):
                return
        except (OSError, ValueError):
            pass
    w = generate(a.out, a.n, a.single, a.trees)
    print(json.dumps(w['expected_counts']))


if __name__ == '__main__':
    main()
