"""Real aiida-core archives for Cairn's AiiDA archive tests, and what aiida-core makes of an archive.

    python aiida_archives.py build ARCHIVE      a small provenance graph made by running real processes,
                                                exported with `verdi archive create --all` to ARCHIVE
    python aiida_archives.py import ARCHIVE     ARCHIVE imported by `verdi archive import` into a fresh
                                                profile

Each works in a throwaway AIIDA_PATH (the directory in $CAIRN_AIIDA_HOME, else a temporary one) with a
profile made by `verdi presto --no-broker`: SQLite storage and no broker, processes run in this
interpreter with `aiida.engine.run`. Each prints one JSON document on standard output, everything else
goes to standard error:

    info         `verdi archive info --detailed ARCHIVE`, as verdi printed it (YAML, parsed)
    counts       rows of the profile per part of Cairn's archive format, objects under "objects"
    node_types   nodes of the profile per node type
    rows         every row of the profile in Cairn's row shapes (docs/archive-format.md), as aiida's
                 ORM reads them: times with their offset, extras without aiida's private `_aiida_*`
    objects      {key: size} of every object some node's files name
    samples      (build) uuids of the nodes the tests look at closely
    files        (build) {uuid: {path: sha256}} of those nodes' files, walked through aiida's API
    before       (import) the counts of the fresh profile before the import (presto's user and computer)
    import_group (import) the uuid of the group aiida put the imported nodes in
"""

import atexit
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

VERDI = os.environ.get('CAIRN_TEST_VERDI') or str(Path(sys.executable).with_name('verdi'))
EMAIL = 'fixture@cairn.example'


def log(message):
    print(f'[aiida_archives] {message}', file=sys.stderr, flush=True)


def verdi(*args, capture=False):
    """Runs verdi in this script's AIIDA_PATH; its output goes to standard error unless captured."""
    log('verdi ' + ' '.join(args))
    result = subprocess.run(
        [VERDI, *args],
        env=os.environ,
        stdout=subprocess.PIPE if capture else sys.stderr,
        stderr=sys.stderr,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise SystemExit(f'verdi {" ".join(args)} failed with exit code {result.returncode}')
    return result.stdout


def fresh_profile(name):
    """A presto profile in a new AIIDA_PATH, loaded; aiida is imported only after AIIDA_PATH is set."""
    home = os.environ.get('CAIRN_AIIDA_HOME')
    if not home:
        home = tempfile.mkdtemp(prefix='cairn-aiida-')
        atexit.register(shutil.rmtree, home, ignore_errors=True)
    os.environ['AIIDA_PATH'] = home
    os.environ.setdefault('AIIDA_WARN_v3', '0')
    verdi('presto', '--no-broker', '--non-interactive', '--profile-name', name, '--email', EMAIL)
    import aiida

    aiida.load_profile(name)
    log(f'profile {name} in {home} (aiida-core {aiida.__version__})')
    return home


def archive_info(path):
    import yaml

    return yaml.safe_load(verdi('archive', 'info', '--detailed', str(path), capture=True))


def iso(when):
    return when.isoformat() if when is not None else None


def public_extras(extras):
    # aiida's importer drops its private extras (the hash among them): the rows say what an import keeps
    return {k: v for k, v in extras.items() if not k.startswith('_aiida_')}


def repository_keys(metadata):
    """The keys of a repository_metadata tree."""
    if 'k' in metadata:
        yield metadata['k']
    for entry in metadata.get('o', {}).values():
        yield from repository_keys(entry)


def dump_profile():
    """Every row of the loaded profile in Cairn's row shapes, with counts, node types and objects."""
    from aiida import orm
    from aiida.manage import get_manager

    rows = {}
    rows['users'] = [
        {'email': u.email, 'first_name': u.first_name, 'last_name': u.last_name, 'institution': u.institution}
        for u in orm.User.collection.all()
    ]
    rows['computers'] = [
        {
            'uuid': c.uuid,
            'label': c.label,
            'hostname': c.hostname,
            'description': c.description,
            'transport_type': c.transport_type,
            'scheduler_type': c.scheduler_type,
            'metadata': c.metadata,
        }
        for c in orm.Computer.collection.all()
    ]
    rows['authinfos'] = []
    rows['groups'] = [
        {
            'uuid': g.uuid,
            'label': g.label,
            'type_string': g.type_string,
            'description': g.description,
            'time': iso(g.time),
            'user': g.user.email,
            'extras': g.base.extras.all,
        }
        for g in orm.Group.collection.all()
    ]
    nodes = []
    for n in orm.QueryBuilder().append(orm.Node).iterall():
        n = n[0]
        nodes.append(
            {
                'uuid': n.uuid,
                'node_type': n.node_type,
                'process_type': n.process_type,
                'label': n.label,
                'description': n.description,
                'ctime': iso(n.ctime),
                'mtime': iso(n.mtime),
                'user': n.user.email,
                'computer': n.computer.uuid if n.computer else None,
                'attributes': n.base.attributes.all,
                'extras': public_extras(n.base.extras.all),
                'repository_metadata': n.base.repository.serialize(),
            }
        )
    rows['nodes'] = nodes
    qb = orm.QueryBuilder().append(orm.Node, tag='in', project='uuid')
    qb.append(orm.Node, with_incoming='in', project='uuid', edge_project=['type', 'label'])
    rows['links'] = [{'input': i, 'output': o, 'type': t, 'label': lb} for i, o, t, lb in qb.iterall()]
    qb = orm.QueryBuilder().append(orm.Group, tag='g', project='uuid')
    qb.append(orm.Node, with_group='g', project='uuid')
    rows['group_members'] = [{'group': g, 'node': n} for g, n in qb.iterall()]
    rows['comments'] = [
        {
            'uuid': c.uuid,
            'node': c.node.uuid,
            'user': c.user.email,
            'ctime': iso(c.ctime),
            'mtime': iso(c.mtime),
            'content': c.content,
        }
        for c in orm.Comment.collection.all()
    ]
    rows['logs'] = [
        {
            'uuid': entry.uuid,
            'node': orm.load_node(entry.dbnode_id).uuid,
            'time': iso(entry.time),
            'logger_name': entry.loggername,
            'level_name': entry.levelname,
            'message': entry.message,
            'metadata': entry.metadata,
        }
        for entry in orm.Log.collection.all()
    ]
    repository = get_manager().get_profile_storage().get_repository()
    objects = {}
    for node in nodes:
        for key in repository_keys(node['repository_metadata']):
            objects[key] = len(repository.get_object_content(key))
    node_types = {}
    for node in nodes:
        node_types[node['node_type']] = node_types.get(node['node_type'], 0) + 1
    counts = {part: len(part_rows) for part, part_rows in rows.items()}
    counts['objects'] = len(objects)
    return {'counts': counts, 'node_types': node_types, 'rows': rows, 'objects': objects}


def build_graph():
    """A few processes of each kind and data of each core type; returns the uuids the tests look at."""
    import numpy as np

    from aiida import engine, orm
    from aiida.plugins import CalculationFactory, WorkflowFactory

    @engine.calcfunction
    def scale_structure(structure, factors):
        """A volume scan: one ArrayData with the cells, one XyData of volume against factor."""
        cells = np.array([np.array(structure.cell) * f for f in factors.get_list()])
        volumes = np.array([abs(np.linalg.det(c)) for c in cells])
        array = orm.ArrayData()
        array.set_array('cells', cells)
        array.set_array('volumes', volumes)
        curve = orm.XyData()
        curve.set_x(np.array(factors.get_list()), 'factor', '1')
        curve.set_y(volumes, 'volume', 'angstrom^3')
        return {'cells': array, 'curve': curve}

    @engine.calcfunction
    def summarise(values):
        total = float(sum(values.get_list()))
        return {
            'total': orm.Float(total),
            'summary': orm.Dict({'count': len(values), 'mean': total / len(values), 'nested': {'ok': True}}),
            'positive': orm.Bool(total > 0),
            'text': orm.Str(f'total {total} \u2713'),
        }

    @engine.workfunction
    def analyse(values, structure, factors):
        """Calls both calcfunctions and returns some of their outputs (return links)."""
        summary = summarise(values)
        scan = scale_structure(structure, factors)
        return {'total': summary['total'], 'curve': scan['curve']}

    code = orm.InstalledCode(
        label='bash',
        computer=orm.load_computer('localhost'),
        filepath_executable='/bin/bash',
        default_calc_job_plugin='core.arithmetic.add',
    ).store()

    structure = orm.StructureData(cell=[[4.0, 0.0, 0.0], [0.0, 4.0, 0.0], [0.0, 0.0, 4.0]])
    structure.append_atom(position=(0.0, 0.0, 0.0), symbols='Ba')
    structure.append_atom(position=(2.0, 2.0, 2.0), symbols='Ti')
    structure.append_atom(position=(2.0, 2.0, 0.0), symbols='O')
    structure.label = 'BaTiO3 (cubic, incomplete)'
    structure.store()
    values = orm.List([1.5, 2.5, -0.5, 4]).store()
    factors = orm.List([0.98, 1.0, 1.02]).store()

    log('running the work function analyse (two calc functions)')
    analyse(values, structure, factors)

    log('running the work chain core.arithmetic.multiply_add (a calc function and a calc job)')
    _, workchain = engine.run_get_node(
        WorkflowFactory('core.arithmetic.multiply_add'), x=orm.Int(3), y=orm.Int(4), z=orm.Int(5), code=code
    )
    log('running the calc job core.arithmetic.add')
    _, calcjob = engine.run_get_node(
        CalculationFactory('core.arithmetic.add'), x=orm.Int(20), y=orm.Int(22), code=code
    )
    if not (workchain.is_finished_ok and calcjob.is_finished_ok):
        raise SystemExit(f'processes failed: {workchain.exit_status} {calcjob.exit_status}')

    single = orm.SinglefileData(io.BytesIO(b'line one\nline two\n'), filename='notes.txt').store()
    folder = orm.FolderData()
    folder.base.repository.put_object_from_bytes(b'{"a": 1}\n', 'input/params.json')
    folder.base.repository.put_object_from_bytes(b'line one\nline two\n', 'input/same-as-notes.txt')
    folder.base.repository.put_object_from_bytes(b'', 'empty')
    folder.base.repository.put_object_from_bytes(bytes(range(256)) * 64, 'blob.bin')
    folder.store()
    flag = orm.Bool(False).store()
    flag.base.extras.set_many({'reviewed': True, 'score': 0.5, 'tags': ['x', 'y']})

    group = orm.Group(label='cairn-fixture', description='nodes the tests look at').store()
    group.base.extras.set_many(
        {'project': 'cairn', 'round': 2, 'owners': ['ada', 'grace'], 'meta': {'k': None}}
    )
    group.add_nodes([structure, values, single, folder, workchain, calcjob])

    structure.base.comments.add('cubic cell; oxygen sites incomplete on purpose')
    calcjob.base.comments.add('added by the fixture\nsecond line')
    orm.Log(
        time=calcjob.ctime, loggername='cairn.fixture', levelname='WARNING', dbnode_id=calcjob.pk,
        message='a warning with metadata', metadata={'attempt': 1},
    ).store()

    retrieved = calcjob.outputs.retrieved
    scan = orm.QueryBuilder().append(orm.XyData).first(flat=True)
    array = orm.QueryBuilder().append(orm.ArrayData, subclassing=False).first(flat=True)
    samples = {
        'structure': structure.uuid,
        'array': array.uuid,
        'xy': scan.uuid,
        'calcjob': calcjob.uuid,
        'retrieved': retrieved.uuid,
        'remote': calcjob.outputs.remote_folder.uuid,
        'workchain': workchain.uuid,
        'singlefile': single.uuid,
        'folder': folder.uuid,
        'code': code.uuid,
        'group': group.uuid,
        'bool_with_extras': flag.uuid,
    }
    files = {
        uuid: node_files(orm.load_node(uuid))
        for uuid in (array.uuid, scan.uuid, retrieved.uuid, folder.uuid)
    }
    return samples, files


def node_files(node):
    """{path: sha256} of a node's files, walked through aiida's repository API (not its metadata)."""
    out = {}

    def walk(path):
        for entry in node.base.repository.list_objects(path):
            sub = f'{path}/{entry.name}' if path else entry.name
            if entry.file_type.name == 'DIRECTORY':
                walk(sub)
            else:
                out[sub] = hashlib.sha256(node.base.repository.get_object_content(sub, mode='rb')).hexdigest()

    walk('')
    return out


def build(archive):
    fresh_profile('cairn-build')
    samples, files = build_graph()
    report = dump_profile()
    archive = Path(archive).resolve()
    verdi('archive', 'create', '--all', '--force', str(archive))
    report.update(
        {'archive': str(archive), 'info': archive_info(archive), 'samples': samples, 'files': files}
    )
    return report


def import_archive(archive):
    fresh_profile('cairn-import')
    from aiida import orm

    before = dump_profile()
    archive = Path(archive).resolve()
    info = archive_info(archive)
    verdi('archive', 'import', str(archive))
    report = dump_profile()
    known = {g['uuid'] for g in before['rows']['groups']}
    added = [
        g for g in report['rows']['groups'] if g['uuid'] not in known and g['type_string'] == 'core.import'
    ]
    report.update(
        {
            'archive': str(archive),
            'info': info,
            'before': before['counts'],
            'import_group': added[0]['uuid'] if added else None,
        }
    )
    return report


def main(argv):
    if len(argv) != 3 or argv[1] not in ('build', 'import'):
        raise SystemExit(__doc__)
    report = build(argv[2]) if argv[1] == 'build' else import_archive(argv[2])
    json.dump(report, sys.stdout, indent=1, sort_keys=True, default=str)
    sys.stdout.write('\n')


if __name__ == '__main__':
    main(sys.argv)
