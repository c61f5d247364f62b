"""aiida-core's side of jmh/compare-api.sh: loads the shared workload into the profile of setup-aiida-api.sh.

  AIIDA_PATH=/tmp/cairn-peers/aiida-api-home python load_aiida.py WORKLOAD_DIR FILES_DIR OUT_JSON

Recreates the profile's database from its template, then stores what Cairn's side stores
(dev.cairn.jmh.graph.GraphComparison's store_bulk and build_trees): the bulk structures of structures.jsonl and the provenance trees of
trees.json, the same way the graph comparison does (graph-peer/aiida_graph_bench.py, bulk_insert), and two
SinglefileData nodes holding FILES_DIR/small.bin (1 KiB) and FILES_DIR/big.bin (10 MiB) by the ORM.
Writes to OUT_JSON the uuids the load asks about: `structure` (the bulk structure at index
`structure_index` of the workload), `calc` (the first calculation of the first chosen tree), `root`
(that tree's root), `small`, `big`, and the node count; and to --bodies the querybuilder POST bodies.
"""
import argparse
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, '..', 'graph-peer'))

from aiida import load_profile, orm  # noqa: E402

import aiida_graph_bench as graph  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('workload')
    ap.add_argument('files')
    ap.add_argument('out')
    ap.add_argument('--profile', default='cairn-api')
    ap.add_argument('--structure-index', type=int, required=True)
    ap.add_argument('--query-cell-above', type=float, required=True)
    ap.add_argument('--bodies', required=True, help='directory for peer-query.json and peer-descendants.json')
    a = ap.parse_args()
    graph.recreate_database(a.profile)
    load_profile(a.profile, allow_switch=True)
    bench = graph.Bench(a.workload)
    sys.stdout = sys.stderr   # Bench prints its phases; this script's output is OUT_JSON
    bench.store_bulk()
    roots = bench.build_trees()
    files = {}
    for name in ('small', 'big'):
        node = orm.SinglefileData(os.path.join(a.files, f'{name}.bin'))
        node.label = f'api-{name}'
        node.store()
        files[name] = node.uuid
    label = bench.workload['labels']['bulk']
    structure = (orm.QueryBuilder()
                 .append(orm.StructureData, filters={'label': label}, project='uuid')
                 .order_by({orm.StructureData: {'id': 'asc'}})
                 .offset(a.structure_index).limit(1).all()[0][0])
    root_id = roots[bench.trees['chosen_root_indices'][0]]
    root = orm.load_node(root_id)
    calc = (orm.QueryBuilder()
            .append(orm.Node, filters={'id': root_id}, tag='root')
            .append(orm.CalcFunctionNode, with_incoming='root', project='uuid').one()[0])
    result = {'structure': structure, 'calc': calc, 'root': root.uuid, **files,
              'nodes': orm.QueryBuilder().append(orm.Node).count()}
    write_bodies(a.bodies, label, a.query_cell_above, root.uuid)
    with open(a.out, 'w') as f:
        json.dump(result, f, indent=1)


def write_bodies(directory, label, cell_above, root_uuid):
    """The POST bodies of /api/v4/querybuilder, as QueryBuilder.as_dict() writes them: the structures
    whose attributes.cell.0.0 is above `cell_above` (their uuids), and every descendant of the root (the REST
    API has no descendants endpoint; its nodes' default projection, as a page of nodes holds them)."""
    query = orm.QueryBuilder().append(
        orm.StructureData, tag='s', project=['uuid'],
        filters={'label': label, 'attributes.cell.0.0': {'>': cell_above}})
    descendants = (orm.QueryBuilder()
                   .append(orm.Node, tag='root', filters={'uuid': root_uuid}, project=[])
                   .append(orm.Node, tag='d', with_ancestors='root', project=['*']))
    for name, qb in (('peer-query.json', query), ('peer-descendants.json', descendants)):
        with open(os.path.join(directory, name), 'w') as f:
            json.dump(qb.as_dict(), f, indent=1)


if __name__ == '__main__':
    main()
