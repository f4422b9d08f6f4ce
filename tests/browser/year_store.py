#!/usr/bin/env python3
# year_store.py DB: turns a copy of the nightly_store fixture into a year of
# nights, for the trend's time to first render (tests/browser/trend_year.mjs;
# README Dashboard). Not part of the suite.
# A year of nights: night 4's run (run 19) copied 361 times further back in
# time, one night a day, each with its own revision (host_facts copied).
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
c = db.cursor()
cols = lambda t: [r[1] for r in c.execute(f"PRAGMA table_info({t})")]
def copy(t, row_id, changes):
    cs = [x for x in cols(t) if x != 'id']
    row = dict(zip(cs, c.execute(f"SELECT {','.join(cs)} FROM {t} WHERE id=?", (row_id,)).fetchone()))
    row.update(changes)
    c.execute(f"INSERT INTO {t} ({','.join(row)}) VALUES ({','.join('?'*len(row))})", list(row.values()))
    return c.lastrowid
DAY = 86400000
jobs = [r[0] for r in c.execute("SELECT id FROM jobs WHERE run_id=19")]
facts = sorted({r[0] for r in c.execute("SELECT client_facts_id FROM jobs WHERE run_id=19")} | {r[0] for r in c.execute("SELECT server_facts_id FROM jobs WHERE run_id=19")})
night = c.execute("SELECT id FROM nights WHERE run_id=19").fetchone()[0]
for i in range(1, 362):
    dt = -(i + 4) * DAY
    rev = f"r{199900 - i}"
    run = copy('runs', 19, {})
    c.execute("UPDATE runs SET created_at=created_at+?, finished_at=finished_at+? WHERE id=?", (dt, dt, run))
    fmap = {f: copy('host_facts', f, {'run_id': run, 'revision': rev}) for f in facts}
    for j in jobs:
        nj = copy('jobs', j, {'run_id': run})
        c.execute("UPDATE jobs SET client_facts_id=?, server_facts_id=? WHERE id=?",
                  (fmap.get(c.execute("SELECT client_facts_id FROM jobs WHERE id=?", (j,)).fetchone()[0]),
                   fmap.get(c.execute("SELECT server_facts_id FROM jobs WHERE id=?", (j,)).fetchone()[0]), nj))
        c.execute("INSERT INTO samples (job_id, metric, value, unit, interval) SELECT ?, metric, value * (0.98 + 0.04 * ((? * 7919) % 100) / 100.0), unit, interval FROM samples WHERE job_id=?", (nj, i, j))
    slot, ca, fa = c.execute("SELECT slot, created_at, finished_at FROM nights WHERE id=?", (night,)).fetchone()
    copy('nights', night, {'run_id': run, 'revision': rev, 'confirm_run_id': None, 'good': 1, 'verdicts': '[]',
                           'slot': slot + dt, 'created_at': ca + dt, 'finished_at': fa + dt})
db.commit()
print(c.execute("SELECT count(*) FROM nights").fetchone(), c.execute("SELECT count(*) FROM runs").fetchone(), c.execute("SELECT count(*) FROM samples").fetchone())
