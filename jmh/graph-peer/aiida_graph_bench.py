"""aiida-core's side of the graph comparison: every phase on the workload of gen_graph_workload.py.

  AIIDA_PATH=/tmp/cairn-peers/aiida-graph-home python aiida_graph_bench.py WORKLOAD_DIR [--json FILE] [--phases P,...]

Prints one line per phase, `phase seconds result_count`, on stdout (progress goes to stderr) and the
details (every repeat, the row-building time of store_bulk, versions) to --json. The work is what the
peer's db_bench.py measured on aiida-core 2.9.4, on the shared workload instead of its own draws:

  store_single      StructureData(...).store() of each structure of single.jsonl, one by one
  store_files       SinglefileData(...).store() of each file the workload's shapes describe, one by one
  store_process     per process: a CalcFunctionNode with two stored Int inputs stored, an Int it CREATEs
                    stored, the process sealed: what recording a calcfunction's run writes (three
                    transactions here, aiida-core's way; one on Cairn's side, the engine's way)
  store_bulk        backend.bulk_insert of the rows of structures.jsonl, batches of 10,000; only the
                    inserts are timed (reading and building the rows is reported apart)
  project_all       attributes.cell, .kinds, .sites of every bulk structure, iterall(batch_size=10000)
  count_longer      count of bulk structures whose attributes.sites is longer than 32
  project_filtered  id, attributes.cell, attributes.sites of those structures
  value_filter      id of bulk structures with attributes.cell.0.0 > 10
  contains          id of bulk structures whose attributes.kinds contains [{'name': 'Ba'}]
  build_trees       the trees of trees.json, nodes and links by bulk_insert in one transaction
  descendants_50    (root id, descendant id) of the 50 chosen roots, one query (with_ancestors)
  descendants_each  the same, one query per root; the count is the sum over the 50

The attribute queries filter on the StructureData type and the bulk label, so the single-stored
nodes are not counted. Query phases are the best of 3. The profile's database is recreated from its
template (see setup-aiida.sh) before anything runs, so each run starts from an empty graph.
"""
import argparse
import datetime
import io
import json
import os
import sys
import time
import uuid

import psycopg

from aiida import __version__ as aiida_version
from aiida import load_profile, orm
from aiida.common.links import LinkType
from aiida.manage.configuration import get_config
from aiida.orm.entities import EntityTypes
from sqlalchemy import text

REPEATS = 3
QUERY_PHASES = {'project_all', 'count_longer', 'project_filtered', 'value_filter', 'contains'}
PHASES = ['store_single', 'store_files', 'store_process', 'store_bulk', *sorted(QUERY_PHASES), 'build_trees',
          'descendants_50', 'descendants_each']


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def recreate_database(profile_name):
    """Drops the profile's database and copies it again from `<name>_template`."""
    storage = get_config().get_profile(profile_name).storage_config
    name = storage['database_name']
    with psycopg.connect(host=storage['database_hostname'], port=storage['database_port'],
                         user=storage['database_username'], password=storage['database_password'],
                         dbname='postgres', autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{name}_template"')


def now():
    return datetime.datetime.now(tz=datetime.timezone.utc)


def node_row(node_type, attributes, user_id, label, process_type=None):
    """A db_dbnode row for bulk_insert, as db_bench.node_row builds it."""
    t = now()
    return {
        'uuid': str(uuid.uuid4()),
        'node_type': node_type,
        'process_type': process_type,
        'label': label,
        'description': '',
        'ctime': t,
        'mtime': t,
        'user_id': user_id,
        'dbcomputer_id': None,
        'attributes': attributes,
        'extras': {},
        'repository_metadata': {},
    }


def read_jsonl(path, batch):
    """Yields lists of at most `batch` parsed lines."""
    chunk = []
    with open(path) as f:
        for line in f:
            chunk.append(json.loads(line))
            if len(chunk) == batch:
                yield chunk
                chunk = []
    if chunk:
        yield chunk


def best_of(fn, repeat=REPEATS):
    times = []
    result = None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return result, times


class Bench:
    def __init__(self, workload_dir):
        self.dir = workload_dir
        with open(os.path.join(workload_dir, 'workload.json')) as f:
            self.workload = json.load(f)
        with open(os.path.join(workload_dir, 'trees.json')) as f:
            self.trees = json.load(f)
        user = orm.User.collection.get_default()
        self.backend = user.backend
        self.user_id = user.pk
        self.phases = {}

    def record(self, phase, seconds, count, **details):
        self.phases[phase] = {'seconds': round(seconds, 4), 'result_count': count, **details}
        print(f'{phase} {seconds:.4f} {count}', flush=True)
        log(phase, self.phases[phase])

    def analyze(self, *tables):
        session = self.backend.get_session()
        for table in tables:
            session.execute(text(f'ANALYZE {table}'))
        session.commit()

    # --- storing

    def store_single(self):
        label = self.workload['labels']['single']
        structures = [s for chunk in read_jsonl(os.path.join(self.dir, 'single.jsonl'), 10000) for s in chunk]
        t = time.perf_counter()
        for s in structures:
            node = orm.StructureData(cell=s['cell'])
            for k in s['kinds']:
                node.append_kind(orm.Kind(name=k['name'], symbols=k['symbols'], weights=k['weights'], mass=k['mass']))
            for site in s['sites']:
                node.append_site(orm.Site(kind_name=site['kind_name'], position=site['position']))
            node.label = label
            node.store()
        dt = time.perf_counter() - t
        self.record('store_single', dt, len(structures), nodes_per_s=round(len(structures) / dt, 1))

    def store_files(self):
        spec = self.workload['shapes']['files']
        contents = [(spec['line'].replace('<i>', str(i)) + '\n').encode() * spec['repeats']
                    for i in range(spec['count'])]
        t = time.perf_counter()
        for content in contents:
            node = orm.SinglefileData(io.BytesIO(content), filename=spec['filename'])
            node.label = spec['label']
            node.store()
        dt = time.perf_counter() - t
        self.record('store_files', dt, len(contents), nodes_per_s=round(len(contents) / dt, 1))

    def store_process(self):
        spec = self.workload['shapes']['processes']
        inputs = {label: orm.Int(value).store() for label, value in spec['inputs'].items()}
        total = sum(spec['inputs'].values())
        t = time.perf_counter()
        for _ in range(spec['count']):
            calc = orm.CalcFunctionNode()
            calc.set_process_type(spec['process_type'])
            calc.label = spec['label']
            calc.set_process_state(spec['attributes']['process_state'])
            calc.set_exit_status(spec['attributes']['exit_status'])
            calc.base.attributes.set('function_name', spec['attributes']['function_name'])
            for label, node in inputs.items():
                calc.base.links.add_incoming(node, LinkType.INPUT_CALC, label)
            calc.store()
            out = orm.Int(total)
            out.base.links.add_incoming(calc, LinkType.CREATE, spec['output_label'])
            out.store()
            calc.seal()
        dt = time.perf_counter() - t
        self.record('store_process', dt, spec['count'], processes_per_s=round(spec['count'] / dt, 1))

    def store_bulk(self):
        label = self.workload['labels']['bulk']
        node_type = self.workload['structure_node_type']
        batch = self.workload['bulk_batch']
        build_s = insert_s = 0.0
        stored = 0
        t = time.perf_counter()
        for chunk in read_jsonl(os.path.join(self.dir, 'structures.jsonl'), batch):
            rows = [node_row(node_type, s, self.user_id, label) for s in chunk]
            build_s += time.perf_counter() - t
            t = time.perf_counter()
            stored += len(self.backend.bulk_insert(EntityTypes.NODE, rows, allow_defaults=False))
            insert_s += time.perf_counter() - t
            t = time.perf_counter()
        self.record('store_bulk', insert_s, stored, batch=batch, read_and_build_rows_s=round(build_s, 3),
                    nodes_per_s=round(stored / insert_s, 1))
        self.analyze('db_dbnode')

    # --- attribute queries

    def query_phases(self):
        q = self.workload['queries']
        base = {'label': self.workload['labels']['bulk']}
        longer = {**base, 'attributes.sites': {'longer': q['sites_longer_than']}}

        def project_all():
            qb = orm.QueryBuilder().append(orm.StructureData, filters=base,
                                           project=['attributes.cell', 'attributes.kinds', 'attributes.sites'])
            return sum(1 for _ in qb.iterall(batch_size=10000))

        def count_longer():
            return orm.QueryBuilder().append(orm.StructureData, filters=longer).count()

        def project_filtered():
            qb = orm.QueryBuilder().append(orm.StructureData, filters=longer,
                                           project=['id', 'attributes.cell', 'attributes.sites'])
            return len(qb.all())

        def value_filter():
            qb = orm.QueryBuilder().append(orm.StructureData,
                                           filters={**base, 'attributes.cell.0.0': {'>': q['cell_00_above']}},
                                           project=['id'])
            return len(qb.all())

        def contains():
            qb = orm.QueryBuilder().append(
                orm.StructureData, filters={**base, 'attributes.kinds': {'contains': [{'name': q['kinds_contain_name']}]}},
                project=['id'])
            return len(qb.all())

        for name, fn in [('project_all', project_all), ('count_longer', count_longer),
                         ('project_filtered', project_filtered), ('value_filter', value_filter),
                         ('contains', contains)]:
            count, times = best_of(fn)
            self.record(name, min(times), count, times_s=[round(x, 4) for x in times])

    # --- trees and descendants

    def build_trees(self):
        """Per tree: a root Int; each Int above the last level is the single input ('x', INPUT_CALC) of a
        CalcFunctionNode that CREATEs B Ints ('out_0'..). Level by level, all trees at once."""
        spec = self.trees
        branching, depth = spec['branching'], spec['depth']
        calc = spec['calc']
        t = time.perf_counter()
        nodes = links_total = 0
        with self.backend.transaction():
            roots = self.backend.bulk_insert(
                EntityTypes.NODE, [node_row(spec['root']['node_type'], {'value': i}, self.user_id, 'tree-root')
                                   for i in range(spec['trees'])])
            nodes += len(roots)
            frontier = list(roots)
            for level in range(1, depth + 1):
                calc_ids = self.backend.bulk_insert(
                    EntityTypes.NODE, [node_row(calc['node_type'], dict(calc['attributes']), self.user_id,
                                                calc['label'], process_type=calc['process_type'])
                                       for _ in frontier])
                out_ids = self.backend.bulk_insert(
                    EntityTypes.NODE, [node_row(spec['output']['node_type'], {'value': j}, self.user_id,
                                                f'tree-d{level}')
                                       for _ in calc_ids for j in range(branching)])
                links = [{'input_id': d, 'output_id': c, 'label': 'x', 'type': LinkType.INPUT_CALC.value}
                         for d, c in zip(frontier, calc_ids)]
                next_frontier = []
                for k, c in enumerate(calc_ids):
                    for j in range(branching):
                        o = out_ids[k * branching + j]
                        links.append({'input_id': c, 'output_id': o, 'label': f'out_{j}',
                                      'type': LinkType.CREATE.value})
                        next_frontier.append(o)
                self.backend.bulk_insert(EntityTypes.LINK, links)
                nodes += len(calc_ids) + len(out_ids)
                links_total += len(links)
                frontier = next_frontier
        self.record('build_trees', time.perf_counter() - t, nodes, links=links_total)
        self.analyze('db_dbnode', 'db_dblink')
        return roots

    def descendants(self, roots):
        chosen = [roots[i] for i in self.trees['chosen_root_indices']]

        def one_query():
            qb = orm.QueryBuilder().append(orm.Node, filters={'id': {'in': chosen}}, tag='root', project='id')
            qb.append(orm.Node, with_ancestors='root', project='id')
            return len(qb.all())

        def query_each():
            total = 0
            for r in chosen:
                qb = orm.QueryBuilder().append(orm.Node, filters={'id': r}, tag='root')
                qb.append(orm.Node, with_ancestors='root', project='id')
                total += len(qb.all())
            return total

        for name, fn in [('descendants_50', one_query), ('descendants_each', query_each)]:
            count, times = best_of(fn)
            self.record(name, min(times), count, roots=len(chosen), times_s=[round(x, 4) for x in times])

    def run(self, phases):
        """The phases asked for, in the order of PHASES (the queries need store_bulk, the descendants
        build_trees)."""
        for phase in ('store_single', 'store_files', 'store_process', 'store_bulk'):
            if phase in phases:
                getattr(self, phase)()
        if QUERY_PHASES & phases:
            self.query_phases()
        if {'build_trees', 'descendants_50', 'descendants_each'} & phases:
            roots = self.build_trees()
            self.descendants(roots)
        return {
            'peer': f'aiida-core {aiida_version}',
            'workload': self.workload,
            'db_total_nodes': orm.QueryBuilder().append(orm.Node).count(),
            'phases': self.phases,
        }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('workload', help='directory written by gen_graph_workload.py')
    ap.add_argument('--json', help='write the details here')
    ap.add_argument('--profile', default='cairn-graph')
    ap.add_argument('--phases', default=','.join(PHASES),
                    help='comma-separated phases to run (the queries store the bulk structures first)')
    a = ap.parse_args()
    phases = set(a.phases.split(','))
    if not phases <= set(PHASES):
        ap.error(f'unknown phases {sorted(phases - set(PHASES))}; phases: {",".join(PHASES)}')
    if QUERY_PHASES & phases:
        phases.add('store_bulk')
    if not os.path.exists(os.path.join(a.workload, 'workload.json')):
        ap.error(f'{a.workload} holds no complete workload (no workload.json): run gen_graph_workload.py first')
    started = now().isoformat(timespec='seconds')
    load_before = os.getloadavg()
    recreate_database(a.profile)
    load_profile(a.profile)
    result = {'started_utc': started, **Bench(a.workload).run(phases)}
    result['load_average_before_after'] = [round(load_before[0], 2), round(os.getloadavg()[0], 2)]
    if a.json:
        with open(a.json, 'w') as f:
            json.dump(result, f, indent=1)


if __name__ == '__main__':
    main()
