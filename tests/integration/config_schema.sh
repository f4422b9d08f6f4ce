#!/bin/sh
# The JSON Schemas and the C loader must agree.  With a real validator
# (python3-jsonschema, Draft 2020-12): every example config and every
# cross-check fixture is valid; for every bad fixture, each error the C
# loader reports (its .expected file, which test_config proves is exactly
# what the loader prints) is matched by a schema error at the same JSON path
# or above it, and each schema error by a loader error at or below it.
# Rules a schema cannot state (references, duplicate names, max >= min) are
# listed in C_ONLY.  The key sets are compared by test_config_schema.
# ctest: parallel
set -eu
: "${LABRAT_SOURCE_DIR:?}"
PY=/usr/bin/python3
if ! "$PY" -c 'import jsonschema; jsonschema.Draft202012Validator' 2>/dev/null; then
	echo "config_schema: python3-jsonschema missing (scripts/install-deps.sh installs it)" >&2
	exit 77
fi
exec "$PY" - "$LABRAT_SOURCE_DIR" <<'PYEOF'
import glob, json, os, re, sys
import jsonschema

src = sys.argv[1]
val = {k: jsonschema.Draft202012Validator(
           json.load(open(os.path.join(src, "schemas", k + ".schema.json"))))
       for k in ("inventory", "plan", "daemon")}
for v in val.values():
    v.check_schema(v.schema)

C_ONLY = ("is not a host of link", "no host named", "has no nic",
          "is also the client", "duplicate ", "no workload runs",
          "is not in links", "is less than min_samples", "out of range 1-64G")
failures = []

def kind(doc):
    if "inventories" in doc:
        return "daemon"
    return "inventory" if "hosts" in doc else "plan"

def schema_paths(doc):
    return ["/".join(str(p) for p in e.absolute_path)
            for e in val[kind(doc)].iter_errors(doc)]

def c_path(line, name):
    rest = line[len(name) + 2:]
    m = re.match(r"([A-Za-z0-9_.\[\]-]+): ", rest)
    if not m or rest.startswith("invalid JSON") or rest.startswith("neither"):
        return ""
    return re.sub(r"\[(\d+)\]", r".\1", m.group(1)).replace(".", "/")

def under(p, top):
    return top == "" or p == top or p.startswith(top + "/")

good = glob.glob(os.path.join(src, "configs", "*.json")) + \
    glob.glob(os.path.join(src, "tests/fixtures/config/cross/*.json"))
for f in sorted(good):
    errs = schema_paths(json.load(open(f)))
    if errs:
        failures.append("%s: valid for labrat, not for the schema: %s" % (f, errs))

bad = sorted(glob.glob(os.path.join(src, "tests/fixtures/config/bad/*.json")))
for f in bad:
    name = os.path.basename(f)
    lines = open(f[:-5] + ".expected").read().splitlines()
    try:
        doc = json.load(open(f))
    except ValueError:
        continue                    # not JSON: nothing for a schema to say
    spaths = schema_paths(doc)
    cpaths = [c_path(l, name) for l in lines
              if not any(s in l for s in C_ONLY)]
    for l, cp in zip([l for l in lines if not any(s in l for s in C_ONLY)], cpaths):
        if not any(under(cp, sp) for sp in spaths):
            failures.append("%s: the schema misses: %s" % (name, l))
    for sp in spaths:
        if not any(under(cp, sp) for cp in cpaths):
            failures.append("%s: only the schema objects at /%s" % (name, sp))
    if not spaths and cpaths:
        failures.append("%s: the schema accepts it" % name)

for f in failures:
    print(f)
print("config_schema: %d good, %d bad files, %d disagreements" %
      (len(good), len(bad), len(failures)))
sys.exit(1 if failures else 0)
PYEOF
