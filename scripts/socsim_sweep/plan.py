"""From points to runs: each point becomes one plain `socsim run` command (a Plan).

A plan's key is the configuration hash: a SHA-256 over everything the run depends on (the
socsim binary, the firmware, the SoC description as socsim reads it with its presets, the
--set assignments and the presets they name, the model program, the input, the firmware
arguments, the CPU model and cycle limit). Points with the same key are the same run; a result is reused wherever the key is
the same, and rerun whenever anything it depends on changes.
"""

import hashlib
import json
import os

from socsim_sweep.models import CompileJob, file_digest
from socsim_sweep.socconfig import effective_config
from socsim_sweep.source import SweepError
from socsim_sweep.spec import format_value


class Plan:
    """One point's run. `options` are socsim run's options before --report; the report goes
    to `report_dir`; `error` is set when the point cannot run (its model did not compile)."""

    def __init__(self, index, params):
        self.index = index
        self.params = params
        self.key = None
        self.options = []
        self.firmware_args = []
        self.report_dir = None
        self.timeout_s = None
        self.error = None
        # what `socsim estimate` needs (the estimate stage of a two-stage study)
        self.config = None
        self.program = None
        self.sets = []

    def to_json(self):
        return {"index": self.index, "params": self.params, "key": self.key,
                "options": self.options, "firmware_args": self.firmware_args,
                "report_dir": self.report_dir, "timeout_s": self.timeout_s,
                "error": self.error}

    @classmethod
    def from_json(cls, d):
        plan = cls(d["index"], d["params"])
        for k in ("key", "options", "firmware_args", "report_dir", "timeout_s", "error"):
            setattr(plan, k, d[k])
        return plan

    def argv(self, socsim, report_dir):
        argv = [socsim, "run"] + self.options + ["--report", report_dir]
        if self.firmware_args:
            argv += ["--"] + self.firmware_args
        return argv


class Environment:
    """Where things are: the socsim binary, its build folder, the results folder."""

    def __init__(self, socsim, results_dir):
        """`socsim` may be None where nothing will run (status, report)."""
        self.socsim = os.path.abspath(socsim) if socsim else None
        self.build_dir = os.path.dirname(os.path.dirname(self.socsim)) if socsim else None
        self.results_dir = os.path.abspath(results_dir)
        self._digests = {}

    def digest(self, path):
        path = os.path.abspath(path)
        if path not in self._digests:
            self._digests[path] = file_digest(path).hexdigest()
        return self._digests[path]

    def firmware(self, text, sweep):
        """A firmware name (an app of this build: executor_runner, hello) or a path."""
        if os.sep in text or text.endswith((".elf", ".hex")):
            path = sweep.path(text)
        else:
            apps = os.path.join(self.build_dir, "firmware", "apps")
            path = os.path.join(apps, text, text + ".elf")
            if not os.path.isfile(path):
                path = os.path.join(apps, text + ".elf")
        if not os.path.isfile(path):
            raise SweepError(f"{sweep.file}: firmware '{text}': no such file {path} (name an "
                             "app of the build, e.g. executor_runner, or give a path)")
        return path


def config_identity(env, config_path, sets):
    """What a point's SoC depends on: the description as socsim reads it (every preset's
    contents merged in), the --set assignments, and the presets they name."""
    identity = [hashlib.sha256(effective_config(env.socsim, config_path).text.encode())
                .hexdigest(), sets]
    base = os.path.dirname(config_path)
    for s in sets:
        key, _, value = s.partition("=")
        path = os.path.normpath(os.path.join(base, value))
        if key.endswith(".preset") and os.path.isfile(path):
            identity.append(env.digest(path))
    return identity


def compile_jobs(sweep, points):
    """One CompileJob per point (None for points without a model)."""
    jobs = []
    default_npu = effective_config(sweep.socsim, sweep.run.config).npu_preset()
    for point in points:
        if not sweep.models:
            jobs.append(None)
            continue
        name = point.get("model", next(iter(sweep.models)))
        spec = sweep.models[name]
        options = {}
        if spec.source != "program":
            options = {k.split(".", 1)[1]: v for k, v in point.items()
                       if k.startswith("compile.")}
            for k in ("calibration", "npu_config"):
                if options.get(k):
                    options[k] = sweep.path(options[k])
        jobs.append(CompileJob(spec, options, default_npu))
    return jobs


def build_plans(sweep, points, jobs, env):
    """Plans for the points (after the compile jobs ran); points with equal keys are merged
    into the first. Returns (plans, duplicates)."""
    socsim_digest = env.digest(env.socsim)
    plans, by_key, duplicates = [], {}, 0
    for index, (point, job) in enumerate(zip(points, jobs)):
        plan = Plan(index, point)
        run = {"config": sweep.run.config, "firmware": sweep.run.firmware,
               "cpu": sweep.run.cpu, "max_cycles": sweep.run.max_cycles,
               "args": list(sweep.run.args), "input": sweep.run.input,
               "timeout_s": sweep.run.timeout_s}
        for k, v in point.items():
            if k.startswith("run."):
                option = k.split(".", 1)[1]
                run[option] = sweep.path(v) if option in ("config", "input") else v
        sets = list(sweep.run.sets) + [f"{k}={format_value(v)}" for k, v in point.items()
                                       if sweep.parameter(k) is not None and
                                       sweep.parameter(k).kind == "set"]
        firmware = env.firmware(str(run["firmware"]), sweep)
        options = ["-q", "--config", run["config"], "--firmware", firmware]
        if run["cpu"]:
            options += ["--cpu", run["cpu"]]
        if run["max_cycles"]:
            options += ["--max-cycles", str(run["max_cycles"])]
        input_path = run["input"]
        program = None
        if job is not None:
            if job.error:
                plan.error = job.error
            program = job.program
            input_path = input_path or job.input
        if program:
            options += ["--model", program]
        if input_path:
            options += ["--input", input_path]
        for s in sets:
            options += ["--set", s]
        for p in sweep.run.probes:
            options += ["--probe", p]
        plan.options = options
        plan.firmware_args = [str(a) for a in run["args"]]
        plan.timeout_s = run["timeout_s"]
        plan.config, plan.program, plan.sets = run["config"], program, sets

        identity = {
            "socsim": socsim_digest,
            "firmware": env.digest(firmware),
            "config": config_identity(env, run["config"], sets),
            "cpu": run["cpu"], "max_cycles": run["max_cycles"],
            "program": env.digest(program) if program else None,
            "model_error": plan.error,
            "input": env.digest(input_path) if input_path else None,
            "args": plan.firmware_args, "probes": sweep.run.probes,
        }
        plan.key = hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()
        plan.report_dir = os.path.join(env.results_dir, "points", plan.key[:16])
        if plan.key in by_key:
            duplicates += 1
            continue
        by_key[plan.key] = plan
        plans.append(plan)
    return plans, duplicates
