"""The Slurm backend: the points as one job array, driven through sbatch, squeue and sacct.

`submit` writes the plans of the points to run into tasks.json (a list of tasks, each a few
points) and a batch script whose array task i runs task i (`python3 -m socsim_sweep task
tasks.json i`): the same runner as the local backend, writing the same report folders.
The results folder must be visible from the compute nodes (a shared file system), as the
socsim build is. The database is only written by the submitting side: `refresh` records
the points whose result.json has appeared and marks as failed those whose task left the
queue without one (with sacct's state when accounting is enabled, and the tail of the
task's output).
"""

import json
import os
import shlex
import subprocess
import sys
import time

from socsim_sweep import runner
from socsim_sweep.models import SCRIPTS_DIR
from socsim_sweep.plan import Plan
from socsim_sweep.progress import Progress
from socsim_sweep.source import SweepError

TASKS = "tasks.json"


def _command(argv):
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=120)
    except FileNotFoundError:
        raise SweepError(f"{argv[0]}: not found: is Slurm installed (slurm-client) and on "
                         "PATH? (scripts/slurm-local.sh starts a one-node cluster)") from None
    except subprocess.TimeoutExpired:
        raise SweepError(f"{' '.join(argv)}: no answer in 120 s") from None


def submit(study, todo, options):
    """Submits `todo` as a job array; returns the job id. `options`: points_per_task,
    throttle, partition, time, mem, sbatch_args (list)."""
    sweep, env = study.sweep, study.env
    stamp = time.strftime("%Y%m%d-%H%M%S") + f"-{os.getpid()}"
    folder = os.path.join(env.results_dir, sweep.name, "slurm", stamp)
    os.makedirs(folder)
    per_task = max(1, options.get("points_per_task") or 1)
    tasks = [todo[i:i + per_task] for i in range(0, len(todo), per_task)]
    with open(os.path.join(folder, TASKS), "w") as f:
        json.dump({"socsim": env.socsim, "sweep": sweep.name,
                   "tasks": [[p.to_json() for p in task] for task in tasks]}, f, indent=1)
    script = os.path.join(folder, "job.sh")
    with open(script, "w") as f:
        f.write("#!/bin/sh\n"
                f"# socsim sweep '{sweep.name}': array task i runs task i of {TASKS}.\n"
                f"export PYTHONPATH={shlex.quote(SCRIPTS_DIR)}\n"
                "export PYTHONDONTWRITEBYTECODE=1 SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1\n"
                f"exec {shlex.quote(sys.executable)} -m socsim_sweep task "
                f"{shlex.quote(os.path.join(folder, TASKS))} \"$SLURM_ARRAY_TASK_ID\"\n")
    os.chmod(script, 0o755)
    array = f"0-{len(tasks) - 1}"
    if options.get("throttle"):
        array += f"%{options['throttle']}"
    argv = ["sbatch", "--parsable", f"--array={array}", f"--job-name=socsim-{sweep.name}",
            f"--output={os.path.join(folder, 'slurm-%A_%a.out')}", "--cpus-per-task=1",
            f"--chdir={folder}"]
    for opt in ("partition", "time", "mem"):
        if options.get(opt):
            argv.append(f"--{opt}={options[opt]}")
    argv += options.get("sbatch_args") or []
    argv.append(script)
    with open(os.path.join(folder, "sbatch.txt"), "w") as f:
        f.write(shlex.join(argv) + "\n")
    done = _command(argv)
    if done.returncode != 0:
        raise SweepError(f"sbatch failed: {done.stderr.strip() or done.stdout.strip()}")
    job = done.stdout.strip().split(";")[0]
    if not job:
        raise SweepError(f"sbatch printed no job id: {done.stdout!r}")
    study.db.add_job(job, sweep.name, len(tasks), script)
    task_of = {p.key: i for i, task in enumerate(tasks) for p in task}
    study.db.mark(sweep.name, [p.key for p in todo], "submitted", backend="slurm", job=job,
                    tasks=task_of)
    return job, len(tasks), folder


def task_main(tasks_file, index):
    """A job array task: runs the points of task `index` one after the other."""
    with open(tasks_file) as f:
        tasks = json.load(f)
    if not 0 <= index < len(tasks["tasks"]):
        print(f"socsim sweep task: {tasks_file} has no task {index}", file=sys.stderr)
        return 2
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    for d in tasks["tasks"][index]:
        plan = Plan.from_json(d)
        result = runner.run_plan(plan, tasks["socsim"], env)
        if result is None:
            print(f"point {plan.index}: interrupted", flush=True)
            return 1
        print(f"point {plan.index}: {result['status']}"
              f"{': ' + result['error'] if result.get('error') else ''}"
              f" ({result['wall_s']:.1f} s)", flush=True)
    return 0


def queue_states(jobs):
    """{(job, task): state} of the jobs' tasks still known to squeue; None if squeue
    cannot tell (the controller did not answer)."""
    if not jobs:
        return {}
    done = _command(["squeue", "-h", "-r", "-j", ",".join(sorted(jobs)), "-o", "%i|%T"])
    if done.returncode != 0:
        if "Invalid job id" in done.stderr:
            return {}  # every job has left the controller's memory: none is queued
        return None
    states = {}
    for line in done.stdout.splitlines():
        ident, _, state = line.strip().partition("|")
        job, _, task = ident.partition("_")
        if task.isdigit():
            states[(job, int(task))] = state
    return states


def accounting_state(job, task):
    """sacct's state of a finished task ('TIMEOUT', 'OUT_OF_MEMORY', ...), or None when
    accounting is off."""
    done = _command(["sacct", "-n", "-X", "-P", "-j", f"{job}_{task}", "-o", "State,ExitCode"])
    if done.returncode != 0 or not done.stdout.strip():
        return None
    return done.stdout.strip().splitlines()[0].replace("|", ", exit ")


def refresh(study):
    """Records finished Slurm points; returns {state: count} of the points still queued."""
    rows = study.db.points([study.sweep.name], status=["submitted"])
    if not rows:
        return {}
    states = queue_states({r["job"] for r in rows if r["job"]})
    queued = {}
    for row in rows:
        if _record_if_done(study, row):
            continue
        if states is None:
            queued["unknown"] = queued.get("unknown", 0) + 1
            continue
        state = states.get((row["job"], row["task"]))
        if state is not None:
            queued[state] = queued.get(state, 0) + 1
            continue
        # Left the queue without a result: the task died (time limit, memory, node).
        if _record_if_done(study, row):  # it may have finished since squeue answered
            continue
        folder = job_folder(study, row["job"])
        out = os.path.join(folder, f"slurm-{row['job']}_{row['task']}.out")
        why = accounting_state(row["job"], row["task"])
        tail = _tail(out)
        error = (f"Slurm task {row['job']}_{row['task']} ended without a result" +
                 (f" ({why})" if why else "") + (f"; its output ends: {tail}" if tail else
                                                 f"; see {out}"))
        study.db.record_failure(study.sweep.name, row["key"], error)
    return queued


def _record_if_done(study, row):
    result = runner.read_result(row["report_dir"])
    if result is None or result.get("key") != row["key"]:
        return False
    study.record(row["key"], row["params"], row["report_dir"], result)
    return True


def job_folder(study, job):
    """The folder of a submission (its job.sh, tasks.json and task outputs)."""
    row = study.db.conn.execute("SELECT script FROM jobs WHERE job=?", (job,)).fetchone()
    return os.path.dirname(row["script"]) if row else ""


def _tail(path, lines=2):
    try:
        with open(path, errors="replace") as f:
            content = [line.strip() for line in f if line.strip()]
    except OSError:
        return ""
    return " | ".join(content[-lines:])


def wait(study, keys, poll_s=2.0):
    """Follows the points `keys` (just submitted) until none is queued, with progress."""
    keys = set(keys)
    progress = Progress(len(keys))
    progress.redraw()
    seen = set()
    while True:
        queued = refresh(study)
        for row in study.db.points([study.sweep.name], status=["ok", "failed"]):
            if row["key"] not in keys or row["key"] in seen:
                continue
            seen.add(row["key"])
            ok = row["status"] == "ok"
            message = (f"ok     point {row['idx']} ({row['wall_s'] or 0:.1f} s)" if ok else
                       f"FAILED point {row['idx']}: {row['error']}")
            progress.advance(ok, message)
        if not queued or seen >= keys:
            break
        progress.redraw()
        time.sleep(poll_s)
    progress.close()
