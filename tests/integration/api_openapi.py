#!/usr/bin/env python3
"""Validates a live labrat serve's replies against schemas/openapi.json.

usage: api_openapi.py DOC BASE TOKEN REQUESTS [NO2XX]

REQUESTS: one request a line, "METHOD TEMPLATE TARGET [BODY]", TEMPLATE a
path of the document ("/api/v1/runs/{id}"), TARGET what is sent (relative
to BASE's host).  Every reply's status must be documented for that
operation, its content type the documented one, and its body valid against
the documented schema (Draft 2020-12, the document's components in scope).
At the end every operation of the document must have had at least one
reply, and every GET a valid 2xx one unless its template is in NO2XX
(comma-separated: objects the store has none of).  Exit 0, or 1 naming
each failure.
"""
import json
import sys
import urllib.error
import urllib.request

from jsonschema import Draft202012Validator


def main():
    doc_path, base, token, reqs = sys.argv[1:5]
    no2xx = set(sys.argv[5].split(",")) if len(sys.argv) > 5 else set()
    with open(doc_path) as f:
        doc = json.load(f)
    assert doc["openapi"].startswith("3.1"), "not OpenAPI 3.1"
    comps = doc["components"]
    for name, s in comps["schemas"].items():
        Draft202012Validator.check_schema(s)
    seen, ok2xx, failures = set(), set(), []
    with open(reqs) as f:
        lines = [l.rstrip("\n") for l in f if l.strip()]
    for line in lines:
        parts = line.split(" ", 3)
        method, tmpl, target = parts[0], parts[1], parts[2]
        body = parts[3].encode() if len(parts) > 3 else None
        opn = doc["paths"].get(tmpl, {}).get(method.lower())
        if opn is None:
            failures.append(f"{method} {tmpl}: not in the document")
            continue
        rq = urllib.request.Request(base + target, data=body, method=method)
        rq.add_header("Authorization", "Bearer " + token)
        if body is not None:
            rq.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(rq, timeout=10) as r:
                status, ctype, data = r.status, r.headers.get_content_type(), r.read()
        except urllib.error.HTTPError as e:
            status, ctype, data = e.code, e.headers.get_content_type(), e.read()
        seen.add((method, tmpl))
        resp = opn["responses"].get(str(status))
        if resp is None:
            failures.append(f"{method} {target}: status {status} is not documented")
            continue
        if ctype not in resp["content"]:
            failures.append(f"{method} {target}: {ctype}, documented {list(resp['content'])}")
            continue
        schema = dict(resp["content"][ctype]["schema"])
        schema["components"] = comps
        inst = data.decode("utf-8")
        if ctype == "application/json":
            try:
                inst = json.loads(inst)
            except ValueError as e:
                failures.append(f"{method} {target}: not JSON: {e}")
                continue
        errs = sorted(Draft202012Validator(schema).iter_errors(inst), key=str)
        for e in errs[:3]:
            failures.append(f"{method} {target} ({status}): {'/'.join(map(str, e.absolute_path))}: {e.message}")
        if not errs and 200 <= status < 300:
            ok2xx.add((method, tmpl))
        print(f"{method} {target}: {status} {'valid' if not errs else 'INVALID'}")
    for path, item in doc["paths"].items():
        for m in item:
            if (m.upper(), path) not in seen:
                failures.append(f"{m.upper()} {path}: never requested")
            elif m == "get" and ("GET", path) not in ok2xx and path not in no2xx:
                failures.append(f"GET {path}: no valid 2xx reply")
    for f in failures:
        print("api_openapi: FAIL: " + f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
