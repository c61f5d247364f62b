#!/usr/bin/env python3
"""A client of a Cairn server written only from its OpenAPI document (/v3/api-docs).

It knows the document's address, a token, the entry point it launches (arithmetic.add_multiply)
and the data it uploads; everything else (which operations exist, their parameters, the multipart
field of an upload, the ports of the entry point, what each answer holds) it reads from the
document, and it checks every answer against the document's schema for that status. Then:

  1. uploads data: an Int from JSON, and a file as a multipart upload (read back byte for byte);
  2. submits arithmetic.add_multiply with the uploaded Int as input x, by uuid;
  3. follows the process's events (Server-Sent Events) until it has finished;
  4. reads its provenance: the process's inputs and outputs, the output node, and the output's
     incoming links (CREATE from the calcfunction that made it, RETURN from the work chain).

Usage: openapi_client.py BASE_URL TOKEN. Exits 0 when everything read was as expected; otherwise
prints what differed and exits 1. Uses the standard library and requests only.
"""

import json
import sys
import time

import requests

ENTRY_POINT = "arithmetic.add_multiply"
X, Y, Z = 5, 3, 4
FILE_NAME, FILE_BYTES = "hello.txt", b"hello from a client that read only the document\n"
TIMEOUT = 30
FOLLOW_SECONDS = 60


class Mismatch(Exception):
    """What the server answered is not what the document or the client expected."""


def check(condition, message):
    if not condition:
        raise Mismatch(message)


class Document:
    """The OpenAPI document: operations by method and path, schemas, and a small validator."""

    def __init__(self, doc):
        self.doc = doc
        check(doc.get("openapi", "").startswith("3."), f"not an OpenAPI 3 document: {doc.get('openapi')!r}")

    def operation(self, method, path):
        item = self.doc["paths"].get(path)
        check(item is not None and method in item, f"the document has no operation {method.upper()} {path}")
        return item[method]

    def parameter(self, operation, name, where="query"):
        for p in operation.get("parameters", []):
            if p["name"] == name and p["in"] == where:
                return p
        raise Mismatch(f"operation {operation.get('operationId')} has no {where} parameter {name!r}")

    def resolve(self, schema):
        while "$ref" in schema:
            name = schema["$ref"].rsplit("/", 1)[-1]
            schema = self.doc["components"]["schemas"][name]
        return schema

    def response_schema(self, operation, status, media_type):
        response = operation["responses"].get(str(status))
        check(response is not None, f"{operation.get('operationId')}: status {status} is not documented")
        content = response.get("content", {})
        for candidate in (media_type, "*/*"):
            if candidate in content:
                return content[candidate].get("schema", {})
        raise Mismatch(f"{operation.get('operationId')}: {status} documents {list(content)}, not {media_type}")

    def validate(self, schema, value, where="$"):
        """Checks value against the subset of JSON Schema the document uses: $ref, type, properties,
        required, items, additionalProperties, anyOf/oneOf, enum."""
        schema = self.resolve(schema)
        if "anyOf" in schema or "oneOf" in schema:
            errors = []
            for option in schema.get("anyOf", schema.get("oneOf")):
                try:
                    self.validate(option, value, where)
                    return
                except Mismatch as e:
                    errors.append(str(e))
            raise Mismatch(f"{where}: matches none of its schemas: {errors}")
        types = schema.get("type", schema.get("types"))
        if isinstance(types, str):
            types = [types]
        if types:
            check(any(is_type(value, t) for t in types), f"{where}: {value!r} is not of type {types}")
        if "enum" in schema:
            check(value in schema["enum"], f"{where}: {value!r} is not one of {schema['enum']}")
        if isinstance(value, dict):
            for name in schema.get("required", []):
                check(name in value, f"{where}: required property {name!r} is missing")
            for name, sub in schema.get("properties", {}).items():
                if name in value:
                    self.validate(sub, value[name], f"{where}.{name}")
            extra = schema.get("additionalProperties")
            if isinstance(extra, dict):
                for name, sub in value.items():
                    if name not in schema.get("properties", {}):
                        self.validate(extra, sub, f"{where}.{name}")
        if isinstance(value, list) and "items" in schema:
            for i, item in enumerate(value):
                self.validate(schema["items"], item, f"{where}[{i}]")


def is_type(value, t):
    return {
        "object": lambda v: isinstance(v, dict),
        "array": lambda v: isinstance(v, list),
        "string": lambda v: isinstance(v, str),
        "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
        "boolean": lambda v: isinstance(v, bool),
        "null": lambda v: v is None,
    }[t](value)


class Client:
    def __init__(self, base, token):
        self.base = base.rstrip("/")
        self.http = requests.Session()
        self.http.headers["Authorization"] = f"Bearer {token}"
        answer = self.http.get(f"{self.base}/v3/api-docs", timeout=TIMEOUT)
        check(answer.status_code == 200, f"GET /v3/api-docs answered {answer.status_code}")
        self.doc = Document(answer.json())

    def call(self, method, path, status, params=None, media_type="application/json", **kwargs):
        """Calls the documented operation, checks the status, and the body against the document."""
        operation = self.doc.operation(method, path)
        url = self.base + path.format(**(params or {}))
        answer = self.http.request(method.upper(), url, timeout=TIMEOUT, **kwargs)
        check(
            answer.status_code == status,
            f"{method.upper()} {url} answered {answer.status_code}, not {status}: {answer.text[:500]}",
        )
        schema = self.doc.response_schema(operation, status, media_type)
        body = answer.json()
        self.doc.validate(schema, body, f"{method.upper()} {path} {status}")
        return body

    def upload_int(self):
        operation = self.doc.operation("post", "/api/v1/nodes")
        check("application/json" in operation["requestBody"]["content"], "POST /api/v1/nodes takes no JSON")
        node = self.call("post", "/api/v1/nodes", 201, json={"type": "int", "value": X, "label": "x"})
        check(node["node_type"].startswith("data.core.int"), f"the uploaded node is a {node['node_type']}")
        check(node["attributes"].get("value") == X, f"the uploaded Int holds {node['attributes']}")
        print(f"uploaded Int {X} as {node['uuid']}")
        return node["uuid"]

    def upload_file(self):
        path = "/api/v1/nodes/files"
        body = self.doc.operation("post", path)["requestBody"]["content"]["multipart/form-data"]
        parts = self.doc.resolve(body["schema"])["properties"]
        field = next(name for name, s in parts.items() if s.get("format") == "binary")
        node = self.call(
            "post", path, 201, files=[(field, (FILE_NAME, FILE_BYTES, "application/octet-stream"))]
        )
        check(node["files"]["count"] == 1, f"the file node has {node['files']} files")
        download = "/api/v1/nodes/{ref}/files/{path}"
        self.doc.operation("get", download)
        answer = self.http.get(
            self.base + download.format(ref=node["uuid"], path=FILE_NAME), timeout=TIMEOUT
        )
        check(answer.status_code == 200, f"downloading {FILE_NAME} answered {answer.status_code}: {answer.text}")
        check(answer.content == FILE_BYTES, f"{FILE_NAME} came back as {answer.content!r}")
        print(f"uploaded {FILE_NAME} ({len(FILE_BYTES)} bytes) as {node['uuid']} and read it back")
        return node["uuid"]

    def submit(self, x_uuid):
        schemas = self.doc.doc["components"]["schemas"]
        inputs = schemas.get(f"{ENTRY_POINT}.inputs")
        check(inputs is not None, f"the document has no schema {ENTRY_POINT}.inputs")
        for port in ("x", "y", "z"):
            check(port in inputs.get("properties", {}), f"{ENTRY_POINT} has no input {port!r}: {inputs}")
        launch = {"entry_point": ENTRY_POINT, "inputs": {"x": {"uuid": x_uuid}, "y": Y, "z": Z}}
        process = self.call("post", "/api/v1/processes", 201, json=launch)
        check(process["entry_point"] == ENTRY_POINT, f"launched {process['entry_point']}")
        print(f"submitted {ENTRY_POINT}(x={x_uuid}, y={Y}, z={Z}) as {process['uuid']}")
        return process["uuid"]

    def follow(self, process):
        """Reads the process's events from the first one on until it ended; returns the last."""
        path = "/api/v1/events"
        operation = self.doc.operation("get", path)
        self.doc.parameter(operation, "process")
        self.doc.parameter(operation, "last_event_id")
        event_schema = self.doc.response_schema(operation, 200, "text/event-stream")
        # from event 0: whatever happened before the stream opened comes first, from the server's table
        params = {"process": process, "last_event_id": "0"}
        with self.http.get(
            self.base + path, params=params, stream=True, timeout=TIMEOUT, headers={"Accept": "text/event-stream"}
        ) as stream:
            if stream.status_code != 200:  # (a 200's body never ends: read it only when it is a problem)
                raise Mismatch(f"GET {path} answered {stream.status_code}: {stream.text[:300]}")
            check(
                stream.headers.get("Content-Type", "").startswith("text/event-stream"),
                f"the stream's Content-Type is {stream.headers.get('Content-Type')}",
            )
            event, data, seen = None, [], []
            deadline = time.monotonic() + FOLLOW_SECONDS
            # chunk_size=1: requests would otherwise wait for 512 bytes before it hands over a line
            for line in stream.iter_lines(chunk_size=1, decode_unicode=True):
                check(time.monotonic() < deadline, f"the process did not end within {FOLLOW_SECONDS} s: {seen}")
                if line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].strip())
                elif line == "" and data:
                    change = json.loads("\n".join(data))
                    self.doc.validate(event_schema, change, f"event {event}")
                    check(event == "state", f"an event of type {event!r}")
                    check(change["process"] == process, f"an event of another process: {change}")
                    seen.append(change["to"])
                    print(f"event {change['event_id']}: {change['from']} -> {change['to']}")
                    if change["to"] in ("finished", "excepted", "killed"):
                        return change, seen
                    event, data = None, []
        raise Mismatch(f"the stream ended before the process did; states seen: {seen}")

    def provenance(self, process, x_uuid):
        detail = self.call("get", "/api/v1/processes/{ref}", 200, params={"ref": process})
        check(detail["process"]["state"] == "finished", f"the process is {detail['process']['state']}")
        check(detail["process"]["exit_status"] == 0, f"exit status {detail['process']['exit_status']}")
        check(detail["inputs"]["x"]["uuid"] == x_uuid, f"input x is {detail['inputs']['x']}, not the upload")
        result = detail["outputs"].get("result")
        check(result is not None, f"no output 'result': {detail['outputs']}")
        check(result["value"] == (X + Y) * Z, f"result is {result['value']}, not ({X} + {Y}) * {Z}")
        called = {c["uuid"]: c["entry_point"] for c in detail["called"]}
        print(f"process {process} finished with result {result['value']}; it called {sorted(called.values())}")

        node = self.call("get", "/api/v1/nodes/{ref}", 200, params={"ref": result["uuid"]})
        check(node["attributes"].get("value") == (X + Y) * Z, f"the output node holds {node['attributes']}")

        links = self.call(
            "get", "/api/v1/nodes/{ref}/links/incoming", 200, params={"ref": result["uuid"]}
        )["items"]
        creates = [link for link in links if link["type"] == "create"]
        returns = [link for link in links if link["type"] == "return"]
        check(len(creates) == 1, f"the output has {len(creates)} CREATE links: {links}")
        creator = creates[0]["node"]
        check(creator["uuid"] in called, f"it was created by {creator['uuid']}, which the work chain did not call")
        check(
            [link["node"]["uuid"] for link in returns] == [process],
            f"the work chain did not return it: {links}",
        )
        print(
            f"output {result['uuid']}: CREATE from {creator['process_type']} {creator['uuid']},"
            f" RETURN from {ENTRY_POINT} {process}"
        )


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        client = Client(argv[1], argv[2])
        x_uuid = client.upload_int()
        client.upload_file()
        process = client.submit(x_uuid)
        last, states = client.follow(process)
        check(last["to"] == "finished" and last["exit_status"] == 0, f"the process ended as {last}")
        check(states[-1] == "finished", f"states {states}")
        client.provenance(process, x_uuid)
    except Mismatch as e:
        print(f"MISMATCH: {e}", file=sys.stderr)
        return 1
    print("the client read everything as the document says")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
