#!/usr/bin/python3
"""End-to-end checks of `socsim sweep` and `socsim compare` on small models (the zoo's
convnet), one case per CTest test:

  local      ~20 points on local cores: one compilation, every point's metrics (checked
             against a bare `socsim run` of one point), CSV, plots (series and point counts),
             a second run that runs nothing, two sweeps in one query
  failing    failing points recorded with their errors while the others finish; one rerun
             alone
  resume     a run killed mid-way resumes: finished points are kept, the others run once
  slurm      the same 6 points through a one-node Slurm cluster (scripts/slurm-local.sh)
             and locally give identical metrics; a failed point resubmitted on request; a
             task cancelled in the queue recorded as failed; no job step daemon left after
             the cluster stops (needs root: exit 77 otherwise)
  slurm_stop slurm-local.sh stop with a job running, normally and with the daemons gone:
             the job and its step daemon end; another cluster's job runs on (root)
  compare    `socsim compare` of two runs
  bad_files  bad sweep files end with status 2 and file:line: key; a metric no point can
             evaluate is in the summary and exits 1
  mobilenet  configs/sweeps/mobilenet_npu.yaml (32 MobileNetV2 points) locally and on Slurm
  two_stage  a two-stage study of 32 points: the estimate stage (batched) against a bare
             `socsim estimate` of every point, the front and the candidates against their
             definition and known numbers, the simulate stage running the candidates alone,
             resuming, a wider margin simulating only the new candidates, status, report,
             CSV, plot, --stage estimate, bad sections
"""

import argparse
import csv
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time

SKIP = 77


def alive(pid):
    """Whether process `pid` runs (a zombie does not)."""
    if not pid:
        return False
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def steps_of(cluster):
    """The pids of the live slurmstepd processes started by the cluster in folder `cluster`
    (slurmd passes its SLURM_CONF on to them)."""
    mark = f"SLURM_CONF={os.path.join(cluster, 'slurm.conf')}".encode()
    pids = []
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/comm") as f:
                if f.read().strip() != "slurmstepd":
                    continue
            with open(f"/proc/{pid}/environ", "rb") as f:
                if mark in f.read().split(b"\0") and alive(pid):
                    pids.append(int(pid))
        except (OSError, ValueError):
            continue
    return pids


def blocks(*parts):
    """YAML text from blocks, each dedented on its own."""
    return "".join(textwrap.dedent(p).strip("\n") + "\n" for p in parts)


def area_mm2(cores, rows, columns, buffer_bytes):
    """The cost model's NPU area (docs/sweeps.md): 419 um^2 a MAC, 1.215 um^2 a bit."""
    return (cores * rows * columns * 419.0 + cores * buffer_bytes * 8 * 600 * 0.045 ** 2) * 1e-6


def pareto_by_definition(values, margins):
    """(front, candidates) by the definition, every point against every other: q leaves p
    out when q_i <= p_i - m_i |p_i| for all i and q_i < p_i for some i."""
    def beats(q, p, m):
        return all(qi <= pi - mi * abs(pi) for qi, pi, mi in zip(q, p, m)) and \
            any(qi < pi for qi, pi in zip(q, p))
    zero = [0.0] * len(margins)
    front = {i for i, p in values.items()
             if not any(beats(q, p, zero) for j, q in values.items() if j != i)}
    cands = {i for i, p in values.items()
             if not any(beats(q, p, margins) for j, q in values.items() if j != i)}
    return front, cands


# The convnet's estimated front and its 5 % candidates over the 32 points of the two_stage
# case (point numbers: rows x columns x cores in file order).
KNOWN_FRONT = [0, 2, 4, 12, 20]
KNOWN_CANDIDATES = [0, 2, 4, 10, 12, 18, 20, 21, 22, 23, 28, 29, 30, 31]


class Check:
    def __init__(self, args):
        self.socsim = args.socsim
        self.zoo = args.zoo
        self.root = args.root
        self.work = args.work
        self.failures = 0
        old_cluster = os.path.join(self.work, "cluster")  # left by an interrupted run
        if os.path.isfile(os.path.join(old_cluster, "slurm.conf")):
            subprocess.run([os.path.join(self.root, "scripts", "slurm-local.sh"), "stop",
                            old_cluster], check=False)
        shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.work)

    def expect(self, condition, what):
        print(("ok    " if condition else "FAIL  ") + what, flush=True)
        if not condition:
            self.failures += 1
        return condition

    def sweep_file(self, name, *parts):
        """Writes a sweep file from YAML blocks."""
        path = os.path.join(self.work, name + ".yaml")
        with open(path, "w") as f:
            f.write(f"name: {name}\n" + blocks(*parts))
        return path

    def sweep(self, *args, check_status=None, env=None):
        """Runs `socsim sweep ARGS`; returns (status, stdout, stderr)."""
        done = subprocess.run([self.socsim, "sweep", *args], capture_output=True, text=True,
                              env=env, timeout=900)
        if check_status is not None and done.returncode != check_status:
            print(done.stdout + done.stderr)
        return done.returncode, done.stdout, done.stderr

    def rows(self, results, sweep):
        conn = sqlite3.connect(os.path.join(results, "results.db"))
        conn.row_factory = sqlite3.Row
        out = [dict(r) for r in conn.execute(
            "SELECT * FROM points WHERE sweep=? AND active=1 ORDER BY idx", (sweep,))]
        conn.close()
        for r in out:
            r["params"] = json.loads(r["params"])
            r["metrics"] = json.loads(r["metrics"]) if r["metrics"] else {}
        return out

    # ---- sweep files --------------------------------------------------------------------

    def convnet_program(self):
        return textwrap.dedent(f"""
            models:
              convnet:
                program: {self.zoo}/convnet_int8_npu.pte
                input: {self.zoo}/convnet.input.bin
            """)

    METRICS = """
        metrics:
          execute_cycles: probes.regions["execute"].cycles
          npu_cycles: sum(npu_layers.layers.total_cycles)
          mac_usage: mean(npu_layers.layers.mac_usage_percent)
          ddr_gbps: ddr.ddr.total.bandwidth_gbps
          layers: count(npu_layers.layers)
          ddr_bound: count(select(npu_layers.layers, bound="ddr"))
          dma_bound: count(select(npu_layers.layers, bound="on-chip-dma"))
          compute_bound: count(select(npu_layers.layers, bound="compute"))
        """

    # ---- cases --------------------------------------------------------------------------

    def case_local(self):
        results = os.path.join(self.work, "results")
        body = blocks(f"""
            run:
              config: {self.root}/configs/soc/default.yaml
              cpu: iss
            models:
              convnet:
                onnx: {self.zoo}/convnet.onnx
                calibration: {self.zoo}/convnet.calibration.npz
                input: {self.zoo}/convnet.input.bin
                quantize: int8
                delegate: npu
            parameters:
              npu.mac_array.rows: [8, 16, 32, 64]
              npu.mac_array.columns: {{from: 16, to: 256, factor: 2}}
            constraints:
              - npu.mac_array.rows * npu.mac_array.columns <= 4096
            """, self.METRICS, """
            plots:
              - {kind: pareto, x: cost.npu_area_mm2, y: npu_cycles, name: pareto}
              - {kind: line, x: npu.mac_array.columns, y: npu_cycles,
                 series: npu.mac_array.rows, name: line}
              - {kind: heatmap, x: npu.mac_array.rows, y: npu.mac_array.columns,
                 value: npu_cycles, name: heat}
            """)
        path = self.sweep_file("local", body)
        status, out, err = self.sweep("run", path, "--dir", results, "-j", "2",
                                      check_status=0)
        self.expect(status == 0, f"sweep run exits 0 (got {status})")
        self.expect("17 points (3 excluded by constraints, 1 distinct model(s))" in err,
                    "17 points after the constraint, one distinct model")
        self.expect(err.count("compiling model convnet") == 1, "the model is compiled once")
        programs = [f for f in os.listdir(os.path.join(results, "models"))
                    if f.endswith(".pte")]
        self.expect(len(programs) == 1, f"one program file in models/ ({programs})")
        rows = self.rows(results, "local")
        self.expect(len(rows) == 17 and all(r["status"] == "ok" for r in rows),
                    "17 points, all ok")
        complete = all(isinstance(r["metrics"].get(m), (int, float)) for r in rows
                       for m in ("cycles", "execute_cycles", "npu_cycles", "mac_usage",
                                 "ddr_gbps", "cost.npu_area_mm2", "cost.energy_uj"))
        self.expect(complete, "every point has every metric")
        # The Bound classes of npu_layers.json (docs/npu.md): every layer is in exactly one,
        # so a class renamed in the report and not here shows as a missing layer.
        classes = [(r["metrics"].get("layers"), r["metrics"].get("ddr_bound"),
                    r["metrics"].get("dma_bound"), r["metrics"].get("compute_bound"))
                   for r in rows]
        self.expect(all(all(isinstance(x, (int, float)) for x in row) and row[0] > 0 and
                        row[0] == sum(row[1:]) for row in classes),
                    f"ddr + on-chip-dma + compute bound layers = all layers ({classes[:3]})")
        self.expect(any(isinstance(row[1], (int, float)) and isinstance(row[2], (int, float))
                        and row[1] + row[2] > 0 for row in classes),
                    "some point has DMA-bound layers (the wider arrays: 1 or 2 of 5)")
        by_shape = {(r["params"]["npu.mac_array.rows"], r["params"]["npu.mac_array.columns"]):
                    r for r in rows}
        self.expect(by_shape[(8, 16)]["metrics"]["npu_cycles"] >
                    by_shape[(64, 64)]["metrics"]["npu_cycles"],
                    "a 64x64 array takes fewer NPU cycles than an 8x16 one")
        self.expect(by_shape[(8, 16)]["metrics"]["cost.npu_area_mm2"] <
                    by_shape[(64, 64)]["metrics"]["cost.npu_area_mm2"],
                    "and costs more area")
        self.bare_run_agrees(by_shape[(32, 64)])

        csv_path = os.path.join(results, "local", "results.csv")
        with open(csv_path) as f:
            table = list(csv.DictReader(f))
        self.expect(len(table) == 17 and "npu.mac_array.rows" in table[0] and
                    "npu_cycles" in table[0] and "cost.npu_area_mm2" in table[0],
                    "the CSV has a row per point with parameters and metrics")
        plot_dir = os.path.join(results, "local", "plots")
        descriptions = {}
        for name in ("pareto", "line", "heat"):
            png = os.path.join(plot_dir, name + ".png")
            ok = os.path.isfile(png) and open(png, "rb").read(4) == b"\x89PNG"
            self.expect(ok, f"{name}.png is a PNG")
            with open(png + ".json") as f:
                descriptions[name] = json.load(f)
        p = descriptions["pareto"]
        self.expect(p["front"] + p["dominated"] == 17 and p["front"] >= 2,
                    f"pareto: {p['front']} on the front + {p['dominated']} greyed = 17")
        front_ok = all(not (q["metrics"]["cost.npu_area_mm2"] <=
                            rows[i]["metrics"]["cost.npu_area_mm2"] and
                            q["metrics"]["npu_cycles"] < rows[i]["metrics"]["npu_cycles"])
                       for i in p["front_points"] for q in rows)
        self.expect(front_ok, "no point is strictly better than a front point in both")
        line = descriptions["line"]
        expected = {f"rows={r}": n for r, n in ((8, 5), (16, 5), (32, 4), (64, 3))}
        self.expect(line["series"] == expected and line["points"] == 17,
                    f"line plot: one series per row count ({line['series']})")
        heat = descriptions["heat"]
        self.expect(heat["shape"] == [5, 4] and heat["cells"] == 17,
                    f"heat map: 5 x 4 cells, 17 filled ({heat})")

        t0 = time.monotonic()
        status, out, err = self.sweep("run", path, "--dir", results)
        self.expect(status == 0 and "17 point(s) already have results" in err and
                    "running" not in err, "a second run runs nothing")
        print(f"      (second run: {time.monotonic() - t0:.2f} s)")

        # a metric added afterwards is read from the kept reports, without running
        with open(path) as f:
            text = f.read().replace("metrics:\n", "metrics:\n  conv_layers: count(select("
                                    "npu_layers.layers, op_type=\"ConvRelu\"))\n", 1)
        with open(path, "w") as f:
            f.write(text)
        status, out, err = self.sweep("report", path, "--dir", results, "--recompute")
        rows = self.rows(results, "local")
        self.expect(status == 0 and "read again for 17 points" in err and
                    all(r["metrics"].get("conv_layers") == 2 for r in rows),
                    "report --recompute adds a new metric to every point without a run")

        # an edited metric with a typo in a layer field: --recompute shows the block run and
        # status end with and exits 1; fixed and recomputed, the report is clean again
        with open(path, "w") as f:
            f.write(text.replace("npu_layers.layers, op_type", "npu_layers.layerz, op_type", 1))
        status, out, err = self.sweep("report", path, "--dir", results, "--recompute")
        self.expect(status == 1 and "metric errors (1 metric(s) without a value)" in out and
                    "conv_layers: 17 point(s)" in out and "Traceback" not in err,
                    f"report --recompute names a metric it cannot evaluate: {status} "
                    f"{out[-400:]} {err.strip()}")
        with open(path, "w") as f:
            f.write(text)
        status, out, err = self.sweep("report", path, "--dir", results, "--recompute")
        self.expect(status == 0 and "metric errors" not in out,
                    f"a fixed metric recomputed clears the block: {status} {err.strip()}")

        # a second sweep in the same database; both queried together
        other = self.sweep_file("local2", body.replace("[8, 16, 32, 64]", "[128]"))
        status, _, err = self.sweep("run", other, "--dir", results, "-j", "2")
        self.expect(status == 0 and "compiling" not in err,
                    "a second sweep reuses the compiled model")
        status, out, _ = self.sweep(
            "query", "--dir", results,
            "SELECT sweep, COUNT(*) FROM results WHERE kind='metric' AND name='npu_cycles' "
            "GROUP BY sweep ORDER BY sweep")
        self.expect(re.search(r"local\s+17\s*\nlocal2\s+2\s*$", out) is not None,
                    f"one query over both sweeps:\n{out}")
        status, out, _ = self.sweep("report", "local", "local2", "--dir", results,
                                    "--columns", "npu.mac_array.rows,npu_cycles",
                                    "--pareto", "cost.npu_area_mm2,npu_cycles")
        self.expect(status == 0 and "local2" in out and
                    os.path.isfile(os.path.join(results, "report-local+local2",
                                                "results.csv")),
                    "a report of both sweeps, with their CSV")

    def bare_run_agrees(self, row):
        with open(os.path.join(row["report_dir"], "result.json")) as f:
            argv = json.load(f)["argv"]
        bare = os.path.join(self.work, "bare")
        argv[argv.index("--report") + 1] = bare
        subprocess.run(argv, capture_output=True, check=True)
        with open(os.path.join(bare, "npu_layers.json")) as f:
            layers = json.load(f)["layers"]
        with open(os.path.join(bare, "summary.json")) as f:
            cycles = json.load(f)["cycles"]
        self.expect(sum(x["total_cycles"] for x in layers) == row["metrics"]["npu_cycles"] and
                    cycles == row["metrics"]["cycles"],
                    "a bare socsim run of a point gives its metrics")

    def case_failing(self):
        results = os.path.join(self.work, "results")
        path = self.sweep_file("failing", """
            run:
              cpu: iss
            """, self.convnet_program(), """
            parameters:
              cpu.clock_mhz: [400, 0, 200]
              run.max_cycles: [200000000, 5000]
            """, self.METRICS)
        status, out, err = self.sweep("run", path, "--dir", results, "-j", "2")
        self.expect(status == 1, f"a run with failed points exits 1 (got {status})")
        rows = self.rows(results, "failing")
        by = {(r["params"]["cpu.clock_mhz"], r["params"]["run.max_cycles"]): r for r in rows}
        ok = [k for k, r in by.items() if r["status"] == "ok"]
        self.expect(sorted(ok) == [(200, 200000000), (400, 200000000)],
                    f"the two good points finished ({ok})")
        bad_clock = by[(0, 200000000)]
        self.expect(bad_clock["status"] == "failed" and bad_clock["exit_code"] == 2 and
                    "clock_mhz" in (bad_clock["error"] or ""),
                    f"clock 0: exit 2 and the config error ({bad_clock['error']})")
        limit = by[(400, 5000)]
        self.expect(limit["status"] == "failed" and limit["exit_code"] == 124 and
                    "CYCLE LIMIT" in (limit["error"] or ""),
                    f"max_cycles 5000: exit 124, cycle limit ({limit['error']})")
        self.expect(isinstance(limit["metrics"].get("cycles"), int),
                    "a failed run's summary still gives metrics")
        status, out, _ = self.sweep("status", "failing", "--dir", results)
        self.expect(status == 1 and "2 ok, 4 failed" in out and
                    f"point {bad_clock['idx']} [" in out and "--point" in out,
                    "status lists the failed points with their errors and how to rerun them")
        stamps = {r["idx"]: os.path.getmtime(os.path.join(r["report_dir"], "result.json"))
                  for r in rows}
        status, out, err = self.sweep("run", path, "--dir", results,
                                      "--point", str(limit["idx"]))
        again = {r["idx"]: r for r in self.rows(results, "failing")}
        self.expect("running 1 point(s)" in err and again[limit["idx"]]["attempts"] == 2,
                    "--point reruns that point alone")
        others = [i for i in stamps if i != limit["idx"]]
        self.expect(all(os.path.getmtime(os.path.join(again[i]["report_dir"], "result.json"))
                        == stamps[i] for i in others), "the other points were left alone")

    def case_resume(self):
        results = os.path.join(self.work, "results")
        path = self.sweep_file("resume", """
            run:
              cpu: rtl
            """, self.convnet_program(), """
            parameters:
              npu.mac_array.rows: [8, 16, 32]
              npu.cores: [1, 3]
            """, self.METRICS)
        proc = subprocess.Popen([self.socsim, "sweep", "run", path, "--dir", results, "-j",
                                 "1"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        points = os.path.join(results, "points")

        def finished(folder):
            """The points of a results folder with a result.json."""
            folder = os.path.join(folder, "points")
            if not os.path.isdir(folder):
                return []
            return [d for d in os.listdir(folder)
                    if os.path.isfile(os.path.join(folder, d, "result.json"))]

        deadline = time.monotonic() + 300
        while len(finished(results)) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        time.sleep(1.0)
        done_before = {d: os.path.getmtime(os.path.join(points, d, "result.json"))
                       for d in finished(results)}
        k = len(done_before)
        self.expect(2 <= k < 6, f"killed after {k} of 6 points")
        time.sleep(1.0)
        self.expect(len(finished(results)) == k, "the killed run left no run behind")
        # The killed run's temporary folder, and one more of a process that is gone (the
        # killed sweep's own pid), are removed by the next run; nothing else is.
        os.makedirs(os.path.join(points, f"0123456789abcdef.tmp-{proc.pid}-1"))
        stale = [d for d in os.listdir(points) if ".tmp-" in d]
        status, out, err = self.sweep("run", path, "--dir", results, "-j", "1")
        self.expect(status == 0 and f"{k} point(s) already have results" in err and
                    f"running {6 - k} point(s)" in err,
                    f"the next run runs only the {6 - k} others")
        self.expect(f"removed {len(stale)} temporary folder(s)" in err and
                    not [d for d in os.listdir(points) if ".tmp-" in d],
                    f"the next run removed the {len(stale)} stale temporary folders: "
                    f"{err.strip()}")
        rows = self.rows(results, "resume")
        self.expect(len(rows) == 6 and all(r["status"] == "ok" for r in rows),
                    "all 6 points ok")
        self.expect(all(os.path.getmtime(os.path.join(points, d, "result.json")) == t
                        for d, t in done_before.items()),
                    "the points finished before the kill were not run again")
        self.expect(all(r["attempts"] <= 1 for r in rows if os.path.basename(r["report_dir"])
                        in done_before), "nor started again")

        # Ctrl-C: the points cut short are not failures, the next run runs them
        path = self.sweep_file("interrupt", """
            run:
              cpu: rtl
            """, self.convnet_program(), """
            parameters:
              npu.mac_array.rows: [8, 16, 32, 64]
              npu.cores: [2]
            """, self.METRICS)
        results = os.path.join(self.work, "interrupted")
        proc = subprocess.Popen([self.socsim, "sweep", "run", path, "--dir", results, "-j",
                                 "2"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True)
        deadline = time.monotonic() + 300
        while not finished(results) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        time.sleep(0.3)  # the next points have started
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        rows = self.rows(results, "interrupt")
        self.expect(proc.returncode == 130 and "interrupted" in err,
                    f"an interrupted run exits 130 ({proc.returncode})")
        kept = [json.load(open(os.path.join(results, "points", d, "result.json")))
                for d in finished(results)]
        self.expect(not [r for r in rows if r["status"] == "failed"] and
                    all(r["status"] == "ok" for r in kept),
                    "no point cut short is recorded as failed (database, result.json)")
        # a point whose run ended as the signal came has its result.json without its row:
        # the next run records it, so what runs again is what has no result.json
        left = 4 - len(finished(results))
        status, out, err = self.sweep("run", path, "--dir", results, "-j", "2")
        self.expect(status == 0 and left > 0 and f"running {left} point(s)" in err and
                    all(r["status"] == "ok" for r in self.rows(results, "interrupt")),
                    f"the next run runs the {left} others: {err.strip()}")

        # SIGTERM (a batch system's stop) as Ctrl-C: 143, no point left marked running, no
        # temporary folder left, and the next run runs the rest
        results = os.path.join(self.work, "terminated")
        proc = subprocess.Popen([self.socsim, "sweep", "run", path, "--dir", results, "-j",
                                 "2"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True)
        deadline = time.monotonic() + 300
        while not finished(results) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        time.sleep(0.3)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
        rows = self.rows(results, "interrupt")
        self.expect(proc.returncode == 143 and "interrupted by SIGTERM" in err,
                    f"a terminated run exits 143 ({proc.returncode}): {err.strip()[-300:]}")
        self.expect(not [r for r in rows if r["status"] in ("running", "failed")],
                    "no point left running or failed: "
                    f"{sorted(r['status'] for r in rows)}")
        points = os.path.join(results, "points")
        self.expect(os.path.isdir(points) and not [d for d in os.listdir(points) if ".tmp-" in d],
                    "no temporary folder left")
        left = 4 - len(finished(results))
        status, out, err = self.sweep("run", path, "--dir", results, "-j", "2")
        self.expect(status == 0 and left > 0 and f"running {left} point(s)" in err,
                    f"after SIGTERM the next run runs the {left} others: {err.strip()}")

        # A report that cannot be written (the disk full: its CSV on /dev/full) is an error
        # naming the file, status 74, not a traceback
        csv_path = os.path.join(results, "interrupt", "results.csv")
        if os.path.exists(csv_path):
            os.remove(csv_path)
        os.symlink("/dev/full", csv_path)
        status, out, err = self.sweep("report", "interrupt", "--dir", results)
        self.expect(status == 74 and f"I/O error on {csv_path}: No space left on device" in err
                    and "Traceback" not in err, f"a report on a full disk: {status} {err.strip()}")

    def case_slurm(self):
        if os.geteuid() != 0:
            print("skipped: starting a Slurm cluster needs root")
            return SKIP
        cluster = os.path.join(self.work, "cluster")
        script = os.path.join(self.root, "scripts", "slurm-local.sh")
        started = subprocess.run([script, "start", cluster], capture_output=True, text=True)
        if not self.expect(started.returncode == 0, "the one-node cluster starts"):
            print(started.stdout + started.stderr)
            return 1
        env = dict(os.environ, SLURM_CONF=os.path.join(cluster, "slurm.conf"))
        daemons = [self.pid_of(cluster, f) for f in ("ctld/slurmctld.pid",
                                                     "slurmd/slurmd.pid",
                                                     "munge-run/munged.pid")]
        self.expect(all(alive(p) for p in daemons), f"slurmctld, slurmd, munged run {daemons}")
        try:
            self.slurm_checks(env)
        finally:
            subprocess.run([script, "stop", cluster], env=env)
            self.expect(not any(alive(p) for p in daemons), "the cluster is shut down")
            self.expect(not steps_of(cluster), f"no job step daemon is left {steps_of(cluster)}")

    def case_slurm_stop(self):
        """`slurm-local.sh stop` with a job running: its step daemon and the job's processes
        end, on the normal path (scancel) and when the daemons are gone already, and another
        cluster's job on the same host runs on."""
        if os.geteuid() != 0:
            print("skipped: starting a Slurm cluster needs root")
            return SKIP
        script = os.path.join(self.root, "scripts", "slurm-local.sh")
        clusters = [os.path.join(self.work, name) for name in ("a", "b")]
        try:
            for cluster in clusters:
                started = subprocess.run([script, "start", cluster], capture_output=True,
                                         text=True)
                if not self.expect(started.returncode == 0, f"cluster {cluster} starts"):
                    print(started.stdout + started.stderr)
                    return 1
            a, b = clusters
            job_a, job_b = self.running_job(a), self.running_job(b)
            if not self.expect(job_a and job_b, f"a job runs on each cluster {job_a} {job_b}"):
                return 1
            done = subprocess.run([script, "stop", a], capture_output=True, text=True)
            self.expect(done.returncode == 0 and not any(alive(p) for p in job_a),
                        f"stop ends the running job and its step daemon {job_a}")
            self.expect(not steps_of(a), "no step daemon of the stopped cluster is left")
            self.expect(all(alive(p) for p in job_b),
                        f"the other cluster's job and step daemon run on {job_b}")
            # the daemons gone (killed) before stop: the step daemon is left alone by Slurm
            for name in ("ctld/slurmctld.pid", "slurmd/slurmd.pid"):
                os.kill(self.pid_of(b, name), signal.SIGKILL)
            time.sleep(0.5)
            self.expect(all(alive(p) for p in job_b), "killed daemons leave the job running")
            done = subprocess.run([script, "stop", b], capture_output=True, text=True)
            self.expect(done.returncode == 0 and not any(alive(p) for p in job_b) and
                        "ending job step daemons left after the shutdown" in done.stderr,
                        f"stop ends the orphaned step daemon and its job: {done.stderr.strip()}")
            self.expect(not steps_of(b), "no step daemon of that cluster is left")
        finally:
            for cluster in clusters:
                subprocess.run([script, "stop", cluster], capture_output=True)

    def running_job(self, cluster):
        """Submits a job of 300 s to `cluster`; returns (job shell pid, step daemon pid) once
        it runs, [] if it does not within 60 s."""
        env = dict(os.environ, SLURM_CONF=os.path.join(cluster, "slurm.conf"))
        pid_file = os.path.join(cluster, "job.pids")
        job = os.path.join(cluster, "job.sh")
        with open(job, "w") as f:
            f.write(f"#!/bin/sh\necho $$ $PPID > {pid_file}.tmp\nmv {pid_file}.tmp {pid_file}\n"
                    "sleep 300\n")
        os.chmod(job, 0o755)
        subprocess.run(["sbatch", "--parsable", f"--chdir={cluster}",
                        f"--output={cluster}/job.out", job], env=env, check=True,
                       capture_output=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if os.path.isfile(pid_file):
                with open(pid_file) as f:
                    return [int(x) for x in f.read().split()]
            time.sleep(0.2)
        return []

    @staticmethod
    def pid_of(cluster, name):
        try:
            with open(os.path.join(cluster, name)) as f:
                return int(f.read())
        except (OSError, ValueError):
            return None

    def slurm_checks(self, env):
        body = blocks("""
            run:
              cpu: iss
            """, self.convnet_program(), """
            parameters:
              npu.mac_array.rows: [16, 32, 64]
              npu.cores: [1, 3]
            """, self.METRICS)
        path = self.sweep_file("six", body)
        local, remote = os.path.join(self.work, "local"), os.path.join(self.work, "slurm")
        status, _, _ = self.sweep("run", path, "--dir", local, "-j", "2")
        self.expect(status == 0, "6 points locally")
        status, out, err = self.sweep("run", path, "--dir", remote, "--backend", "slurm",
                                      "--throttle", "2", "--partition", "main", "--time",
                                      "00:10:00", "--mem", "500M", "--wait", "--poll", "0.5",
                                      check_status=0, env=env)
        self.expect(status == 0 and "submitted 6 point(s) as Slurm job array" in err,
                    "6 points as a Slurm job array (throttle 2, partition, time, memory)")
        script = re.search(r"files in (\S+)\)", err)
        if script:
            with open(os.path.join(script.group(1), "sbatch.txt")) as f:
                sbatch = f.read()
            self.expect("--array=0-5%2" in sbatch and "--partition=main" in sbatch and
                        "--time=00:10:00" in sbatch and "--mem=500M" in sbatch,
                        f"the sbatch command line: {sbatch.strip()}")
        a, b = self.rows(local, "six"), self.rows(remote, "six")
        self.expect(len(a) == len(b) == 6 and all(r["backend"] == "slurm" for r in b),
                    "6 results each, the second from Slurm")
        same = all(x["params"] == y["params"] and x["metrics"] == y["metrics"] and x["metrics"]
                   for x, y in zip(a, b))
        self.expect(same, "identical metrics on both backends")
        outs = [f for _, _, files in os.walk(os.path.join(remote, "six", "slurm"))
                for f in files if f.startswith("slurm-")]
        self.expect(len(outs) == 6, f"one output per array task ({len(outs)})")

        # a failed point resubmitted on request
        bad = self.sweep_file("resubmit", body.replace("npu.cores: [1, 3]",
                                                       "cpu.clock_mhz: [400, 0]"))
        status, _, _ = self.sweep("run", bad, "--dir", remote, "--backend", "slurm",
                                  "--wait", "--poll", "0.5", env=env)
        rows = self.rows(remote, "resubmit")
        failed = [r for r in rows if r["status"] == "failed"]
        self.expect(status == 1 and len(failed) == 3 and
                    all("clock_mhz" in r["error"] for r in failed),
                    "the failing points are recorded with their error")
        status, out, err = self.sweep("run", bad, "--dir", remote, "--backend", "slurm",
                                      "--rerun-failed", "--wait", "--poll", "0.5", env=env)
        again = self.rows(remote, "resubmit")
        self.expect("submitted 3 point(s)" in err and
                    all(r["attempts"] == 2 for r in again if r["status"] == "failed") and
                    all(r["attempts"] == 1 for r in again if r["status"] == "ok"),
                    "--rerun-failed resubmits the failed points only")

        # a task that leaves the queue without a result
        lost = self.sweep_file("lost", body.replace("[16, 32, 64]", "[8]"))
        status, out, err = self.sweep("run", lost, "--dir", remote, "--backend", "slurm",
                                      "--sbatch-arg=--begin=now+3600", env=env)
        job = re.search(r"Slurm job array (\d+)", err)
        self.expect(status == 0 and job is not None, "submitted without --wait")
        if job:
            subprocess.run(["scancel", job.group(1)], env=env, check=False)
            time.sleep(1.0)
        status, out, _ = self.sweep("status", lost, "--dir", remote, env=env)
        rows = self.rows(remote, "lost")
        self.expect(status == 1 and all(r["status"] == "failed" and
                                        "ended without a result" in r["error"]
                                        for r in rows),
                    f"cancelled tasks are recorded as failed:\n{out}")

    def case_mobilenet(self):
        """The example of docs/sweeps.md: 32 MobileNetV2 points locally, then on Slurm."""
        path = os.path.join(self.root, "configs", "sweeps", "mobilenet_npu.yaml")
        local = os.path.join(self.work, "local")
        t0 = time.monotonic()
        status, out, err = self.sweep("run", path, "--dir", local, "-j", "2", check_status=0)
        print(f"      (local: {time.monotonic() - t0:.1f} s)")
        rows = self.rows(local, "mobilenet_npu")
        self.expect(status == 0 and len(rows) == 32 and all(r["status"] == "ok" for r in rows),
                    "32 points ok on local cores")
        with open(os.path.join(local, "mobilenet_npu", "results.csv")) as f:
            self.expect(len(list(csv.DictReader(f))) == 32, "the CSV has 32 rows")
        with open(os.path.join(local, "mobilenet_npu", "plots",
                               "pareto-area-npu-time.png.json")) as f:
            pareto = json.load(f)
        self.expect(pareto["front"] + pareto["dominated"] == 32 and pareto["front"] >= 2,
                    f"the Pareto plot: {pareto['front']} on the front of 32")
        if os.geteuid() != 0:
            print("Slurm part skipped: starting a Slurm cluster needs root")
            return
        cluster = os.path.join(self.work, "cluster")
        script = os.path.join(self.root, "scripts", "slurm-local.sh")
        started = subprocess.run([script, "start", cluster], capture_output=True, text=True)
        if not self.expect(started.returncode == 0, "the one-node cluster starts"):
            print(started.stdout + started.stderr)
            return
        env = dict(os.environ, SLURM_CONF=os.path.join(cluster, "slurm.conf"))
        try:
            remote = os.path.join(self.work, "slurm")
            t0 = time.monotonic()
            status, _, _ = self.sweep("run", path, "--dir", remote, "--backend", "slurm",
                                      "--wait", check_status=0, env=env)
            print(f"      (Slurm: {time.monotonic() - t0:.1f} s)")
            other = self.rows(remote, "mobilenet_npu")
            self.expect(status == 0 and len(other) == 32 and
                        all(a["metrics"] == b["metrics"] for a, b in zip(rows, other)),
                        "the same 32 points on Slurm, with identical metrics")
        finally:
            subprocess.run([script, "stop", cluster], env=env)

    def case_compare(self):
        a, b = os.path.join(self.work, "a"), os.path.join(self.work, "b")
        for folder, rows in ((a, 16), (b, 32)):
            subprocess.run([self.socsim, "run", "-q", "--cpu", "iss", "--firmware",
                            self.runner(), "--model", f"{self.zoo}/convnet_int8_npu.pte",
                            "--input", f"{self.zoo}/convnet.input.bin", "--set",
                            f"npu.mac_array.rows={rows}", "--report", folder],
                           capture_output=True, check=True)
        done = subprocess.run([self.socsim, "compare", a, b], capture_output=True, text=True)
        out = done.stdout
        self.expect(done.returncode == 0, "compare exits 0")
        for section in ("Summary", "Configuration", "Probes", "NPU layers", "DDR"):
            self.expect(f"\n{section}" in out, f"section {section}")
        self.expect(re.search(r"\*\s+cycles\s+\d+\s+\d+\s+[-+]\d+", out) is not None,
                    "the cycles differ and are marked")
        self.expect("-    rows: 16" in out and "+    rows: 32" in out,
                    "the configuration difference is shown")
        self.expect(re.search(r"\*\s+execute\s", out) is not None,
                    "the execute region differs")
        self.expect(re.search(r"^  \*\s+/conv1/Conv\s+ConvRelu\s", out, re.M) is not None,
                    "NPU layers are shown (and matched) by name")
        same = subprocess.run([self.socsim, "compare", a, a, "--diff-only"],
                              capture_output=True, text=True).stdout
        self.expect("(no differences)" in same and "*" not in same.replace("***", ""),
                    "a run compared with itself has no differences")
        bad = subprocess.run([self.socsim, "compare", a, os.path.join(self.work, "nothing")],
                             capture_output=True, text=True)
        self.expect(bad.returncode == 2 and "no summary.json" in bad.stderr,
                    "a folder without reports is an error (status 2)")

    def runner(self):
        build = os.path.dirname(os.path.dirname(self.socsim))
        return os.path.join(build, "firmware", "apps", "executor_runner",
                            "executor_runner.elf")

    def case_bad_files(self):
        cases = {
            "unknown key": ("parameters:\n  npu.cores: [1]\nmetric:\n  x: summary.cycles\n",
                            r"bad\.yaml:4: metric: unknown key 'metric'"),
            "not in the config": ("parameters:\n  npu.mac_array.rowz: [16]\n",
                                  r"bad\.yaml:3: parameters\.npu\.mac_array\.rowz: "
                                  r"'npu\.mac_array\.rowz' is not a key of"),
            "empty grid": ("parameters:\n  npu.cores: []\n",
                           r"bad\.yaml:3: parameters\.npu\.cores: is empty"),
            "summary field typo": ("metrics:\n  x: summary.cycels / 2\n",
                                   r"bad\.yaml:3: metrics\.x: 'summary\.cycels / 2' reads "
                                   r"summary\.cycels, which is not a field of summary\.json"),
            "NaN timeout": ("run:\n  timeout_s: .nan\n",
                            r"bad\.yaml:3: run\.timeout_s: expected a finite number, got "
                            r"\.nan"),
            "NUL in run.args": ('run:\n  args: ["a\\0b"]\n',
                                r"bad\.yaml:3: run\.args\[0\]: contains a NUL character"),
            "metric syntax": ("metrics:\n  x: summary.cycles +\n", r"bad\.yaml:3: metrics\.x: "),
        }
        cases["300-character name"] = (
            None, r"bad\.yaml:1: name: a name of 300 characters: at most 128")
        for what, (text, pattern) in cases.items():
            path = os.path.join(self.work, "bad.yaml")
            with open(path, "w") as f:
                f.write("name: " + "a" * 300 + "\n" if text is None else "name: bad\n" + text)
            for command in ("run", "points"):
                status, out, err = self.sweep(command, path, "--dir",
                                              os.path.join(self.work, "r")) \
                    if command == "run" else self.sweep(command, path)
                self.expect(status == 2 and re.search(pattern, err) is not None,
                            f"{what} ({command}): status 2, {err.strip()}")
        self.expect(not os.path.exists(os.path.join(self.work, "r", "points")),
                    "nothing ran")
        self.metric_errors()

    def metric_errors(self):
        """A metric no point can evaluate is shown in the summary and the exit status, not
        only as an empty column and a message in the database."""
        results = os.path.join(self.work, "metric-errors")
        path = self.sweep_file("metric_errors", """
            run:
              cpu: iss
            """, self.convnet_program(), """
            parameters:
              cpu.clock_mhz: [200, 400]
            metrics:
              npu_cycles: sum(npu_layers.layers.total_cyclez)
            """)
        status, out, err = self.sweep("run", path, "--dir", results, "-j", "2")
        self.expect(status == 1 and "2 points: 2 ok" in out and
                    "metric errors (1 metric(s) without a value):" in out and
                    re.search(r"^  npu_cycles: 2 point\(s\) \[0,1\]: no field 'total_cyclez'",
                              out, re.M) is not None,
                    f"a metric error is in the summary and exits 1 (status {status}): "
                    f"{out.strip()[-400:]}")
        status, out, _ = self.sweep("status", "metric_errors", "--dir", results)
        self.expect(status == 1 and "npu_cycles: 2 point(s)" in out,
                    f"status shows it too and exits 1 ({status})")

    def case_two_stage(self):
        results = os.path.join(self.work, "results")
        sweep_body = blocks(f"""
            run:
              config: {self.root}/configs/soc/default.yaml
              cpu: iss
            """, self.convnet_program(), """
            parameters:
              npu.mac_array.rows: [8, 16, 32, 64]
              npu.mac_array.columns: [8, 16, 32, 64]
              npu.cores: [1, 2]
            metrics:
              npu_time_us: >-
                sum(select(npu_layers.layers, frame=0).elapsed_cycles) / npu_layers.clock_mhz
            two_stage:
              metrics:
                npu_time_us: estimate.frame_us
              objectives: [cost.npu_area_mm2, npu_time_us]
              margin_percent: {npu_time_us: MARGIN}
              batch: 5
            plots:
              - {kind: pareto, x: cost.npu_area_mm2, y: npu_time_us, name: pareto}
            """)
        path = self.sweep_file("two", sweep_body.replace("MARGIN", "5"))

        # stage 1 alone
        status, out, err = self.sweep("run", path, "--dir", results, "-j", "2", "--stage",
                                      "estimate", check_status=0)
        self.expect(status == 0, f"--stage estimate exits 0 (got {status})")
        self.expect("estimate stage: 32 point(s) estimated" in err and
                    "7 batch(es) of up to 5" in err, "32 points estimated in 7 batches of 5")
        rows = self.rows(results, "two")
        self.expect(all(r["status"] in ("pending", "estimated") for r in rows) and
                    not any(os.path.isdir(r["report_dir"]) for r in rows),
                    "the estimate stage simulates nothing")

        # every estimate against a bare `socsim estimate --json` of the point
        buffer_bytes = 384 * 1024  # the rk3588-like preset's buffer_per_core (384KiB)
        values, mismatches = {}, []
        for r in rows:
            p = r["params"]
            out_json = os.path.join(self.work, "est.json")
            subprocess.run([self.socsim, "estimate", "--model", f"{self.zoo}/convnet_int8_npu.pte",
                            "-c", f"{self.root}/configs/soc/default.yaml",
                            "--set", f"npu.mac_array.rows={p['npu.mac_array.rows']}",
                            "--set", f"npu.mac_array.columns={p['npu.mac_array.columns']}",
                            "--set", f"npu.cores={p['npu.cores']}", "--json", out_json],
                           check=True, capture_output=True)
            with open(out_json) as f:
                bare = json.load(f)
            frame_us = sum(l["elapsed_cycles"] for l in bare["layers"]) / bare["clock_mhz"]
            est = json.loads(r["estimate"])
            area = area_mm2(p["npu.cores"], p["npu.mac_array.rows"], p["npu.mac_array.columns"],
                            buffer_bytes)
            if abs(est["npu_time_us"] - frame_us) > 1e-9 or \
                    abs(est["cost.npu_area_mm2"] - area) > 1e-12:
                mismatches.append((r["idx"], est, frame_us, area))
            values[r["idx"]] = (area, frame_us)
        self.expect(not mismatches, f"batched estimates = bare socsim estimate, area by hand "
                                    f"({mismatches[:2]})")
        front, cands = pareto_by_definition(values, [0.0, 0.05])
        got_front = {r["idx"] for r in rows if r["est_front"]}
        got_cands = {r["idx"] for r in rows if r["candidate"]}
        self.expect(got_front == front and got_cands == cands,
                    f"front {sorted(got_front)} and candidates {sorted(got_cands)} as defined "
                    f"({sorted(front)}, {sorted(cands)})")
        # Known numbers (the convnet on the rk3588-like preset; they change with the NPU's
        # timing model): the front and the points 5 % behind it.
        self.expect(sorted(got_front) == KNOWN_FRONT and sorted(got_cands) == KNOWN_CANDIDATES,
                    f"front {sorted(got_front)} == {KNOWN_FRONT}, candidates "
                    f"{sorted(got_cands)} == {KNOWN_CANDIDATES}")
        self.expect(all(r["status"] == ("pending" if r["candidate"] else "estimated")
                        for r in rows), "candidates pending, the others estimated")

        # an estimate lost (a stage killed half-way): only it is estimated again
        conn = sqlite3.connect(os.path.join(results, "results.db"))
        with conn:
            conn.execute("UPDATE points SET estimate_key=NULL WHERE sweep='two' AND idx < 3")
        conn.close()
        status, out, err = self.sweep("run", path, "--dir", results, "--stage", "estimate")
        self.expect(status == 0 and "estimate stage: 3 point(s) estimated" in err and
                    "29 kept from before" in err, "a rerun estimates the 3 points without one")

        # stage 2: the candidates alone are simulated
        status, out, err = self.sweep("run", path, "--dir", results, "-j", "2", check_status=0)
        rows = self.rows(results, "two")
        simulated = {r["idx"] for r in rows if r["status"] == "ok"}
        self.expect(status == 0 and simulated == got_cands and
                    f"running {len(got_cands)} point(s)" in err,
                    f"the {len(got_cands)} candidates are simulated, nothing else "
                    f"({sorted(simulated)})")
        self.expect(all(os.path.isdir(r["report_dir"]) == (r["idx"] in got_cands) for r in rows),
                    "report folders for the candidates only")
        with open(os.path.join(results, "two", "two_stage.json")) as f:
            comparison = json.load(f)
        sim = {r["idx"]: (r["metrics"]["cost.npu_area_mm2"], r["metrics"]["npu_time_us"])
               for r in rows if r["status"] == "ok"}
        sim_front, _ = pareto_by_definition(sim, [0.0, 0.0])
        self.expect(comparison["simulated_front"] == sorted(sim_front) and
                    comparison["estimated_front"] == sorted(front) and
                    comparison["fronts_agree"] == (sorted(sim_front) == sorted(front)),
                    f"the simulated front {comparison['simulated_front']} by definition")
        table = {i["point"]: i for i in comparison["candidates_table"]}
        self.expect(set(table) == got_cands and all(
            abs(table[i]["simulated"]["npu_time_us"] - sim[i][1]) < 1e-9 and
            abs(table[i]["estimate"]["npu_time_us"] - values[i][1]) < 1e-9 and
            table[i]["error_percent"]["cost.npu_area_mm2"] == 0 for i in table),
            "estimate beside simulation per candidate; the area the same on both sides")
        self.expect("fronts agree" in out or "fronts differ" in out,
                    "run prints the comparison")
        png = os.path.join(results, "two", "plots", "two-stage.png")
        with open(png + ".json") as f:
            drawn = json.load(f)
        self.expect(open(png, "rb").read(4) == b"\x89PNG" and drawn["estimated"] == 32 and
                    drawn["candidates"] == len(got_cands) and
                    drawn["simulated"] == len(got_cands), f"two-stage.png draws it ({drawn})")
        with open(os.path.join(results, "two", "two_stage.csv")) as f:
            table_rows = list(csv.DictReader(f))
        self.expect(len(table_rows) == 32 and "estimate.npu_time_us" in table_rows[0] and
                    "simulated.npu_time_us" in table_rows[0], "two_stage.csv: 32 points")

        # nothing to do the second time
        status, out, err = self.sweep("run", path, "--dir", results)
        self.expect(status == 0 and "0 point(s) estimated" in err and "running" not in err,
                    "a second run estimates and simulates nothing")
        # a wider margin: the new candidates alone are simulated, no estimate is redone
        with open(path, "w") as f:
            f.write("name: two\n" + sweep_body.replace("MARGIN", "30"))
        wide_front, wide = pareto_by_definition(values, [0.0, 0.30])
        status, out, err = self.sweep("run", path, "--dir", results, "-j", "2", check_status=0)
        rows = self.rows(results, "two")
        self.expect(status == 0 and "0 point(s) estimated" in err and
                    f"running {len(wide - got_cands)} point(s)" in err and
                    {r["idx"] for r in rows if r["status"] == "ok"} == wide,
                    f"30 %: {len(wide - got_cands)} more candidates simulated, the others kept")
        status, out, _ = self.sweep("status", "two", "--dir", results)
        self.expect(status == 0 and f"{32 - len(wide)} estimated" in out and
                    f"{len(wide)} candidates, {len(wide)} of them simulated" in out,
                    f"status counts the stages: {out.strip()}")
        status, out, _ = self.sweep("report", "two", "--dir", results)
        self.expect(status == 0 and f"({32 - len(wide)} point(s) estimated only" in out and
                    "order of npu_time_us:" in out,
                    "report: the simulated points and the comparison")

        # socsim estimate --batch: a point's bad SoC is that point's error; a line that is
        # not a point ends the batch with status 2, naming the line
        prog = f"{self.zoo}/convnet_int8_npu.pte"
        soc = f"{self.root}/configs/soc/default.yaml"
        lines = "".join(json.dumps(p) + "\n" for p in (
            {"id": 1, "model": prog, "config": soc, "set": ["npu.cores=2"]},
            {"id": 2, "model": prog, "config": soc, "set": ["npu.mac_array.rowz=8"]}))
        done = subprocess.run([self.socsim, "estimate", "--batch", "-"], input=lines,
                              capture_output=True, text=True)
        answers = [json.loads(line) for line in done.stdout.splitlines()]
        self.expect(done.returncode == 0 and len(answers) == 2 and
                    answers[0]["estimate"]["cores"] == 2 and "rowz" in answers[1]["error"],
                    f"estimate --batch: one answer per point, errors per point ({done.stderr})")
        done = subprocess.run([self.socsim, "estimate", "--batch", "-"],
                              input=lines + "[1, 2]\n", capture_output=True, text=True)
        self.expect(done.returncode == 2 and "-:3: expected {" in done.stderr,
                    f"estimate --batch: a line that is not a point: {done.stderr.strip()}")

        # bad sections: status 2, file, line and key
        bad = self.sweep_file("bad_two", sweep_body.replace("MARGIN", "5").replace(
            "objectives: [cost.npu_area_mm2, npu_time_us]",
            "objectives: [cost.npu_area_mm2, npu_cycles]"))
        status, _, err = self.sweep("run", bad, "--dir", results)
        self.expect(status == 2 and re.search(r"bad_two.yaml:\d+: two_stage.objectives.*"
                                              "npu_cycles", err), f"a bad objective: {err.strip()}")
        plain = self.sweep_file("plain", self.convnet_program(), """
            parameters:
              npu.cores: [1, 2]
            """)
        status, _, err = self.sweep("run", plain, "--dir", results, "--stage", "estimate")
        self.expect(status == 2 and "has no two_stage section" in err,
                    f"--stage estimate without a two_stage section: {err.strip()}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("case", choices=["local", "failing", "resume", "slurm", "slurm_stop",
                                         "compare", "bad_files", "mobilenet", "two_stage"])
    parser.add_argument("--socsim", required=True)
    parser.add_argument("--zoo", required=True, help="the build's model zoo folder")
    parser.add_argument("--root", required=True, help="the source tree")
    parser.add_argument("--work", required=True, help="scratch folder (emptied)")
    args = parser.parse_args()
    check = Check(args)
    status = getattr(check, "case_" + args.case)()
    if status == SKIP:
        return SKIP
    if check.failures:
        print(f"{check.failures} check(s) failed")
        return 1
    return status or 0


if __name__ == "__main__":
    sys.exit(main())
