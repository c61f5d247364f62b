"""Checks one answer of jmh/compare-api.sh before its endpoint is loaded: the content, not only the status.

  python check_answer.py SIDE ENDPOINT RESPONSE_FILE EXPECT_JSON

SIDE is cairn or peer; RESPONSE_FILE the body curl saved; EXPECT_JSON what the workload says the answer
holds (the uuids asked about, the structure's attributes, the file's size and sha256, the counts).
Prints nothing and exits 0 when the answer is right; names what is wrong and exits 1 otherwise.
"""
import hashlib
import json
import sys


def items(side, body, tag):
    """The rows of a list answer: Cairn's `items`, aiida-core's `data.<tag>`."""
    if side == 'cairn':
        return body['items']
    return body['data'][tag]


def check(side, endpoint, raw, e):
    if endpoint in ('file_1k', 'file_10m'):
        name = 'small' if endpoint == 'file_1k' else 'big'
        size, digest = len(raw), hashlib.sha256(raw).hexdigest()
        if (size, digest) != (e[name + '_size'], e[name + '_sha256']):
            return f'{size} bytes with sha256 {digest[:12]}…, expected {e[name + "_size"]} with {e[name + "_sha256"][:12]}…'
        return None
    body = json.loads(raw)
    if endpoint == 'node':
        node = body if side == 'cairn' else body['data']['nodes'][0]
        attributes = node['attributes']
        if node['uuid'] != e['structure_uuid']:
            return f'uuid {node["uuid"]}, expected {e["structure_uuid"]}'
        for key in ('cell', 'kinds', 'sites'):
            if attributes.get(key) != e['structure'][key]:
                return f'attribute {key} differs from the workload\'s: {str(attributes.get(key))[:200]}'
    elif endpoint == 'page':
        rows = items(side, body, 'nodes')
        ctimes = [r['ctime'] for r in rows]
        if len(rows) != 20 or any(r['node_type'] != e['structure_type'] for r in rows):
            return f'{len(rows)} rows of types {sorted({r["node_type"] for r in rows})}, expected 20 structures'
        if ctimes != sorted(ctimes, reverse=True):
            return 'rows not newest first'
    elif endpoint == 'links':
        rows = items(side, body, 'incoming')
        types = [r['type'] if side == 'cairn' else r['link_type'] for r in rows]
        if types != ['input_calc']:
            return f'links {types}, expected one input_calc'
    elif endpoint == 'query':
        rows = items(side, body, 's')
        if len(rows) != e['query_count']:
            return f'{len(rows)} rows, expected {e["query_count"]}'
    elif endpoint == 'statistics':
        total = body['total'] if side == 'cairn' else body['data']['total']
        if total != e['nodes']:
            return f'total {total}, expected {e["nodes"]}'
    elif endpoint == 'descendants':
        rows = items(side, body, 'd')
        if len(rows) != e['descendants']:
            return f'{len(rows)} descendants, expected {e["descendants"]}'
    else:
        return f'unknown endpoint {endpoint}'
    return None


def main():
    side, endpoint, path, expect = sys.argv[1:5]
    with open(path, 'rb') as f:
        raw = f.read()
    with open(expect) as f:
        e = json.load(f)
    try:
        problem = check(side, endpoint, raw, e)
    except (KeyError, IndexError, TypeError, ValueError) as error:
        problem = f'unexpected answer ({type(error).__name__}: {error}): {raw[:300]!r}'
    if problem:
        print(f'{side} {endpoint}: {problem}', file=sys.stderr)
        sys.exit(1)


if __name__ == '__main__':
    main()
