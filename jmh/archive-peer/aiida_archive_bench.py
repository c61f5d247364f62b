"""aiida-core's side of the archive comparison: one phase per call, each in a fresh Python process.

  AIIDA_PATH=$CAIRN_PEERS/aiida-archive-src-home python aiida_archive_bench.py load WORKLOAD_DIR
  AIIDA_PATH=$CAIRN_PEERS/aiida-archive-src-home python aiida_archive_bench.py export ARCHIVE
  AIIDA_PATH=$CAIRN_PEERS/aiida-archive-dst-home python aiida_archive_bench.py import ARCHIVE
  AIIDA_PATH=$CAIRN_PEERS/aiida-archive-dst-home python aiida_archive_bench.py reimport ARCHIVE

Prints `phase seconds nodes links objects` on stdout (progress on stderr):

  load      not compared: recreates the profile's database from its template and its repository from
            the copy setup-aiida.sh kept, then loads the workload of gen_archive_workload.py by aiida's
            bulk paths (backend.bulk_insert of node and link rows, batches of 10,000, as the graph
            comparison does; the files straight into the repository's packs with add_objects_to_pack);
            the counts are the installation's
  export    create_archive(None, ARCHIVE): everything, as `verdi archive create --all` does, with its
            defaults (comments and logs included, zip compression level 6); the counts are the archive's
            (rows of its db.sqlite3, entries of its repo/ folder)
  import    recreates the profile's database and repository as for load, then import_archive(ARCHIVE)
            with its defaults (a new import group), as `verdi archive import` does; the counts are the
            installation's
  reimport  import_archive(ARCHIVE) again, without resetting anything: nothing is new

Only the call named is timed, not Python's start nor aiida's imports nor the profile's loading.
"""
import argparse
import json
import mmap
import os
import shutil
import sqlite3
import sys
import tempfile
import time
import uuid
import zipfile

BATCH = 10000


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def profile_name():
    from aiida.manage.configuration import get_config
    return get_config().default_profile_name


def reset_profile(name):
    """An empty installation: the database copied again from its template, the repository from its copy."""
    import psycopg
    from aiida.manage.configuration import get_config
    profile = get_config().get_profile(name)
    storage = profile.storage_config
    db = storage['database_name']
    with psycopg.connect(host=storage['database_hostname'], port=storage['database_port'],
                         user=storage['database_username'], password=storage['database_password'],
                         dbname='postgres', autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{db}"')
        conn.execute(f'CREATE DATABASE "{db}" TEMPLATE "{db}_template"')
    repo = storage['repository_uri'].removeprefix('file://')
    shutil.rmtree(repo, ignore_errors=True)
    shutil.copytree(repo + '.template', repo, symlinks=True)
    os.remove(os.path.join(repo, '.made-with'))


def counts():
    """Nodes, links and repository objects of the loaded profile."""
    from aiida.manage import get_manager
    from sqlalchemy import text
    backend = get_manager().get_profile_storage()
    session = backend.get_session()
    nodes = session.execute(text('SELECT count(*) FROM db_dbnode')).scalar()
    links = session.execute(text('SELECT count(*) FROM db_dblink')).scalar()
    with backend.get_repository()._container as container:
        c = container.count_objects()
    return nodes, links, c.packed + c.loose


def archive_counts(path):
    """Nodes, links and repository objects of an archive: rows of its database, entries of its repo/."""
    with zipfile.ZipFile(path) as z:
        objects = sum(1 for name in z.namelist() if name.startswith('repo/') and not name.endswith('/'))
        with tempfile.TemporaryDirectory() as tmp:
            db = z.extract('db.sqlite3', tmp)
            with sqlite3.connect(db) as conn:
                nodes = conn.execute('SELECT count(*) FROM db_dbnode').fetchone()[0]
                links = conn.execute('SELECT count(*) FROM db_dblink').fetchone()[0]
    return nodes, links, objects


def report(phase, seconds, found):
    print(f'{phase} {seconds:.4f} {found[0]} {found[1]} {found[2]}', flush=True)
    log(f'{phase}: {seconds:.2f} s, {found[0]} nodes, {found[1]} links, {found[2]} objects')


class Loader:
    """The workload into the profile by aiida's bulk paths."""

    def __init__(self, workload_dir):
        from aiida import orm
        self.dir = workload_dir
        with open(os.path.join(workload_dir, 'workload.json')) as f:
            self.workload = json.load(f)
        with open(os.path.join(workload_dir, 'trees.json')) as f:
            self.trees = json.load(f)
        user = orm.User.collection.get_default()
        self.backend = user.backend
        self.user_id = user.pk

    def row(self, node_type, attributes, label, process_type=None, repository_metadata=None):
        import datetime
        t = datetime.datetime.now(tz=datetime.timezone.utc)
        return {
            'uuid': str(uuid.uuid4()), 'node_type': node_type, 'process_type': process_type, 'label': label,
            'description': '', 'ctime': t, 'mtime': t, 'user_id': self.user_id, 'dbcomputer_id': None,
            'attributes': attributes, 'extras': {}, 'repository_metadata': repository_metadata or {},
        }

    def structures(self):
        from aiida.orm.entities import EntityTypes
        node_type = self.workload['structure_node_type']
        label = self.workload['structure_label']
        chunk = []
        with open(os.path.join(self.dir, 'structures.jsonl')) as f:
            for line in f:
                chunk.append(self.row(node_type, json.loads(line), label))
                if len(chunk) == BATCH:
                    self.backend.bulk_insert(EntityTypes.NODE, chunk, allow_defaults=False)
                    chunk = []
        if chunk:
            self.backend.bulk_insert(EntityTypes.NODE, chunk, allow_defaults=False)

    def files(self):
        """Every calc's file tree {'o': {name: {'k': key}}}, the distinct contents stored in packs."""
        trees = []
        with open(os.path.join(self.dir, 'files.tsv')) as f:
            placed = [line.rstrip('\n').split('\t') for line in f]
        with open(os.path.join(self.dir, 'files.bin'), 'rb') as f, \
                mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as blob, \
                self.backend.get_repository()._container as container:
            keys = {}
            pending, pending_at, pending_bytes = [], [], 0
            seen = set()

            def flush():
                for at, key in zip(pending_at, container.add_objects_to_pack(pending)):
                    keys[at] = key
                pending.clear()
                pending_at.clear()

            for name, at, size in placed:
                at, size = int(at), int(size)
                if at not in seen:
                    seen.add(at)
                    pending.append(blob[at:at + size])
                    pending_at.append(at)
                    pending_bytes += size
                    if pending_bytes > 64 << 20:
                        flush()
                        pending_bytes = 0
            flush()
            for name, at, size in placed:
                trees.append({'o': {name: {'k': keys[int(at)]}}})
        return trees

    def build_trees(self, files):
        """Level by level over all trees, as the graph comparison does; calc i gets file tree i."""
        from aiida.common.links import LinkType
        from aiida.orm.entities import EntityTypes
        spec = self.trees
        branching, depth, trees = spec['branching'], spec['depth'], spec['trees']
        per_tree = spec['calcs'] // trees
        calc = spec['calc']
        with self.backend.transaction():
            frontier = self.backend.bulk_insert(
                EntityTypes.NODE, [self.row(spec['root']['node_type'], {'value': i}, 'tree-root') for i in range(trees)])
            for level in range(1, depth + 1):
                width = branching ** (level - 1)  # calcs of one tree at this level
                first = (width - 1) // (branching - 1)  # index within its tree of the level's first calc
                rows = [self.row(calc['node_type'], dict(calc['attributes']), calc['label'],
                                 process_type=calc['process_type'],
                                 repository_metadata=files[(j // width) * per_tree + first + j % width])
                        for j in range(len(frontier))]
                calc_ids = []
                for at in range(0, len(rows), BATCH):
                    calc_ids += self.backend.bulk_insert(EntityTypes.NODE, rows[at:at + BATCH])
                outputs = [self.row(spec['output']['node_type'], {'value': j}, f'tree-d{level}')
                           for _ in calc_ids for j in range(branching)]
                out_ids = []
                for at in range(0, len(outputs), BATCH):
                    out_ids += self.backend.bulk_insert(EntityTypes.NODE, outputs[at:at + BATCH])
                links = [{'input_id': d, 'output_id': c, 'label': 'x', 'type': LinkType.INPUT_CALC.value}
                         for d, c in zip(frontier, calc_ids)]
                for k, c in enumerate(calc_ids):
                    for j in range(branching):
                        links.append({'input_id': c, 'output_id': out_ids[k * branching + j], 'label': f'out_{j}',
                                      'type': LinkType.CREATE.value})
                for at in range(0, len(links), BATCH):
                    self.backend.bulk_insert(EntityTypes.LINK, links[at:at + BATCH])
                frontier = out_ids

    def run(self):
        self.structures()
        self.build_trees(self.files())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('phase', choices=['load', 'export', 'import', 'reimport'])
    ap.add_argument('path', help='the workload directory (load) or the archive')
    a = ap.parse_args()

    from aiida import load_profile
    name = profile_name()
    if a.phase in ('load', 'import'):
        reset_profile(name)
    load_profile(name)

    if a.phase == 'load':
        t = time.perf_counter()
        Loader(a.path).run()
        report('load', time.perf_counter() - t, counts())
    elif a.phase == 'export':
        from aiida.tools.archive import create_archive
        t = time.perf_counter()
        create_archive(None, filename=a.path, overwrite=True)
        seconds = time.perf_counter() - t
        report('export', seconds, archive_counts(a.path))
    else:
        from aiida.tools.archive import import_archive
        t = time.perf_counter()
        import_archive(a.path)
        seconds = time.perf_counter() - t
        report(a.phase, seconds, counts())


if __name__ == '__main__':
    main()
