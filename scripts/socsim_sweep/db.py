"""The results database (SQLite, one file per results folder, any number of sweeps).

Tables:
  sweeps(name, file, description, cost_model, updated)
  points(id, sweep, idx, key, params, status, exit_code, error, wall_s, sim_seconds,
         metrics, metric_errors, report_dir, backend, job, task, attempts, active,
         started, finished)
      one row per point of a sweep; params and metrics are JSON objects; wall_s is the
      point's socsim run from start to exit, sim_seconds the simulation alone (as
      summary.json's host_seconds); status is
      pending | running | submitted | ok | failed | estimated (a two-stage study's point
      that its estimate left out of the candidates: not simulated); active is 1 for the
      points of the sweep file as last run (0 for points a changed file no longer has).
      A two-stage study's columns: estimate (its estimate metrics, JSON), estimate_error,
      estimate_key (what they were computed from), candidate (1: simulated as a Pareto
      candidate), est_front (1: on the estimated front).
  point_values(point_id, kind, name, value)
      the same parameters (kind 'param') and metrics (kind 'metric') one per row, for
      plain SQL across sweeps.
  jobs(job, sweep, tasks, script, submitted)
      Slurm job arrays.
The `results` view joins the last two for queries: one row per point, value per name.
"""

import json
import sqlite3
import time

SCHEMA = """
CREATE TABLE IF NOT EXISTS sweeps(
  name TEXT PRIMARY KEY, file TEXT, description TEXT, cost_model TEXT, updated REAL);
CREATE TABLE IF NOT EXISTS points(
  id INTEGER PRIMARY KEY, sweep TEXT NOT NULL, idx INTEGER NOT NULL, key TEXT NOT NULL,
  params TEXT NOT NULL, status TEXT NOT NULL, exit_code INTEGER, error TEXT, wall_s REAL,
  sim_seconds REAL, metrics TEXT, metric_errors TEXT, report_dir TEXT, backend TEXT,
  job TEXT, task INTEGER, attempts INTEGER NOT NULL DEFAULT 0, active INTEGER NOT NULL
  DEFAULT 1, started REAL, finished REAL, UNIQUE(sweep, key));
CREATE TABLE IF NOT EXISTS point_values(
  point_id INTEGER NOT NULL REFERENCES points(id) ON DELETE CASCADE, kind TEXT NOT NULL,
  name TEXT NOT NULL, value, PRIMARY KEY(point_id, kind, name));
CREATE TABLE IF NOT EXISTS jobs(
  job TEXT PRIMARY KEY, sweep TEXT NOT NULL, tasks INTEGER, script TEXT, submitted REAL);
CREATE VIEW IF NOT EXISTS results AS
  SELECT p.id, p.sweep, p.idx, p.status, p.exit_code, p.wall_s, v.kind, v.name, v.value
  FROM points p JOIN point_values v ON v.point_id = p.id WHERE p.active = 1;
"""


# Columns of the two-stage studies, added to a database an earlier version made.
TWO_STAGE_COLUMNS = (("estimate", "TEXT"), ("estimate_error", "TEXT"),
                     ("estimate_key", "TEXT"), ("candidate", "INTEGER"),
                     ("est_front", "INTEGER"))


class Database:
    def __init__(self, path):
        self.path = path
        self.conn = sqlite3.connect(path, timeout=60)
        self.conn.row_factory = sqlite3.Row
        self.conn.execute("PRAGMA foreign_keys = ON")
        self.conn.executescript(SCHEMA)
        have = {r["name"] for r in self.conn.execute("PRAGMA table_info(points)")}
        with self.conn:
            for name, kind in TWO_STAGE_COLUMNS:
                if name not in have:
                    self.conn.execute(f"ALTER TABLE points ADD COLUMN {name} {kind}")

    def close(self):
        self.conn.close()

    # ---- sweeps and points --------------------------------------------------------------

    def register(self, sweep, plans):
        """Records the sweep and its points: new points as pending; the points of earlier
        runs keep their results; points no longer in the file become inactive."""
        with self.conn:
            self.conn.execute(
                "INSERT INTO sweeps(name, file, description, cost_model, updated) "
                "VALUES(?,?,?,?,?) ON CONFLICT(name) DO UPDATE SET file=excluded.file, "
                "description=excluded.description, cost_model=excluded.cost_model, "
                "updated=excluded.updated",
                (sweep.name, sweep.file, sweep.description,
                 json.dumps(sweep.cost.describe()), time.time()))
            self.conn.execute("UPDATE points SET active = 0 WHERE sweep = ?", (sweep.name,))
            for plan in plans:
                params = json.dumps(plan.params)
                cur = self.conn.execute(
                    "UPDATE points SET idx=?, params=?, report_dir=?, active=1 "
                    "WHERE sweep=? AND key=?",
                    (plan.index, params, plan.report_dir, sweep.name, plan.key))
                if cur.rowcount == 0:
                    cur = self.conn.execute(
                        "INSERT INTO points(sweep, idx, key, params, status, report_dir) "
                        "VALUES(?,?,?,?, 'pending', ?)",
                        (sweep.name, plan.index, plan.key, params, plan.report_dir))
                    self._set_values(cur.lastrowid, "param", plan.params)
                else:
                    point_id = self.point_id(sweep.name, plan.key)
                    self.conn.execute("DELETE FROM point_values WHERE point_id=? AND "
                                      "kind='param'", (point_id,))
                    self._set_values(point_id, "param", plan.params)

    def point_id(self, sweep, key):
        row = self.conn.execute("SELECT id FROM points WHERE sweep=? AND key=?",
                                (sweep, key)).fetchone()
        return row["id"] if row else None

    def point(self, sweep, key):
        return self.conn.execute("SELECT * FROM points WHERE sweep=? AND key=?",
                                 (sweep, key)).fetchone()

    def mark(self, sweep, keys, status, backend=None, job=None, tasks=None):
        """Sets the status of points (running, submitted); `tasks` maps key -> task."""
        now = time.time()
        with self.conn:
            for key in keys:
                self.conn.execute(
                    "UPDATE points SET status=?, backend=COALESCE(?, backend), job=?, "
                    "task=?, started=?, attempts=attempts+1 WHERE sweep=? AND key=?",
                    (status, backend, job, tasks.get(key) if tasks else None, now, sweep,
                     key))

    def unmark_running(self, sweep, keys):
        """Points of `keys` still marked running go back to pending (an interrupted run
        stopped them); their attempts stay as counted."""
        with self.conn:
            for key in keys:
                self.conn.execute("UPDATE points SET status='pending' WHERE sweep=? AND key=? "
                                  "AND status='running'", (sweep, key))

    def record(self, sweep, key, result, metrics, metric_errors, sim_seconds=None):
        """Stores a finished point: its result.json, metrics, and the simulator's own time
        (summary.json's host_seconds)."""
        with self.conn:
            self.conn.execute(
                "UPDATE points SET status=?, exit_code=?, error=?, wall_s=?, sim_seconds=?, "
                "metrics=?, metric_errors=?, started=?, finished=? WHERE sweep=? AND key=?",
                (result["status"], result.get("exit_code"), result.get("error"),
                 result.get("wall_s"), sim_seconds, json.dumps(metrics),
                 json.dumps(metric_errors) if metric_errors else None,
                 result.get("started"), result.get("finished"), sweep, key))
            point_id = self.point_id(sweep, key)
            self.conn.execute("DELETE FROM point_values WHERE point_id=? AND kind='metric'",
                              (point_id,))
            self._set_values(point_id, "metric", metrics)

    def record_failure(self, sweep, key, error):
        """A point that ended without a result (a lost Slurm task)."""
        with self.conn:
            self.conn.execute("UPDATE points SET status='failed', error=?, finished=? "
                              "WHERE sweep=? AND key=?", (error, time.time(), sweep, key))

    def record_estimates(self, sweep, items):
        """Stores estimates: (key, estimate key, metrics or None, error or None) each."""
        with self.conn:
            for key, estimate_key, metrics, error in items:
                self.conn.execute(
                    "UPDATE points SET estimate=?, estimate_error=?, estimate_key=? "
                    "WHERE sweep=? AND key=?",
                    (json.dumps(metrics) if metrics is not None else None, error,
                     estimate_key, sweep, key))
                point_id = self.point_id(sweep, key)
                self.conn.execute("DELETE FROM point_values WHERE point_id=? AND "
                                  "kind='estimate'", (point_id,))
                self._set_values(point_id, "estimate", metrics)

    def estimate_keys(self, sweep):
        """{point key: estimate key} of the points that have an estimate (or its error)."""
        return {r["key"]: r["estimate_key"] for r in self.conn.execute(
            "SELECT key, estimate_key FROM points WHERE sweep=? AND estimate_key IS NOT NULL",
            (sweep,))}

    def set_selection(self, sweep, flags):
        """Stores the estimate stage's choice: {key: (candidate, on the estimated front)}.
        Points not yet run become pending (candidates) or estimated (the others)."""
        with self.conn:
            for key, (candidate, front) in flags.items():
                self.conn.execute(
                    "UPDATE points SET candidate=?, est_front=?, status=CASE WHEN status IN "
                    "('pending', 'estimated') THEN ? ELSE status END WHERE sweep=? AND key=?",
                    (int(candidate), int(front), "pending" if candidate else "estimated",
                     sweep, key))

    def _set_values(self, point_id, kind, values):
        for name, value in (values or {}).items():
            if isinstance(value, (list, dict)):
                value = json.dumps(value)
            self.conn.execute("INSERT OR REPLACE INTO point_values VALUES(?,?,?,?)",
                              (point_id, kind, name, value))

    # ---- queries ------------------------------------------------------------------------

    def sweeps(self):
        return [r["name"] for r in self.conn.execute("SELECT name FROM sweeps ORDER BY name")]

    def sweep_row(self, name):
        return self.conn.execute("SELECT * FROM sweeps WHERE name=?", (name,)).fetchone()

    def points(self, sweeps, active_only=True, status=None):
        """Rows of points (dicts with params and metrics decoded), sweep then index order."""
        marks = ",".join("?" * len(sweeps))
        sql = f"SELECT * FROM points WHERE sweep IN ({marks})"
        args = list(sweeps)
        if active_only:
            sql += " AND active = 1"
        if status:
            sql += f" AND status IN ({','.join('?' * len(status))})"
            args += list(status)
        sql += " ORDER BY sweep, idx"
        out = []
        for r in self.conn.execute(sql, args):
            d = dict(r)
            d["params"] = json.loads(d["params"])
            d["metrics"] = json.loads(d["metrics"]) if d["metrics"] else {}
            d["metric_errors"] = json.loads(d["metric_errors"]) if d["metric_errors"] else {}
            d["estimate"] = json.loads(d["estimate"]) if d.get("estimate") else None
            out.append(d)
        return out

    def counts(self, sweep):
        rows = self.conn.execute("SELECT status, COUNT(*) AS n FROM points WHERE sweep=? AND "
                                 "active=1 GROUP BY status", (sweep,))
        return {r["status"]: r["n"] for r in rows}

    def add_job(self, job, sweep, tasks, script):
        with self.conn:
            self.conn.execute("INSERT OR REPLACE INTO jobs VALUES(?,?,?,?,?)",
                              (job, sweep, tasks, script, time.time()))

    def query(self, sql):
        cur = self.conn.execute(sql)
        names = [d[0] for d in cur.description] if cur.description else []
        return names, [tuple(r) for r in cur.fetchall()]
