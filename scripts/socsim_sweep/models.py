"""The models of a sweep, each compiled once.

A model is a zoo model (exported with socsim_aot.zoo: random weights, a calibration set and a
sample input), an ONNX file, or a compiled program file. A compiled program is cached under
the results folder by a hash of everything it depends on (the ONNX and calibration files,
the compile options, the NPU preset for `--delegate npu`, and the compiler's and zoo's
sources), so each distinct model is compiled once, whatever the number of points and sweeps
using it.
"""

import concurrent.futures
import hashlib
import json
import os
import subprocess
import sys

from socsim_aot import sources  # a sibling package of scripts/ (standard library only)

SCRIPTS_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class CompileFailure(Exception):
    """A model that could not be exported or compiled; the message says why."""


def file_digest(path, h=None):
    h = h or hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h


def python_env():
    env = dict(os.environ)
    env["PYTHONPATH"] = SCRIPTS_DIR + (os.pathsep + env["PYTHONPATH"]
                                       if env.get("PYTHONPATH") else "")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


class CompileJob:
    """One model with one set of compile options."""

    def __init__(self, spec, options, default_npu_config):
        self.spec = spec
        self.options = dict(spec.options)
        self.options.update(options)
        if self.options.get("delegate") == "npu" and not self.options.get("npu_config"):
            self.options["npu_config"] = default_npu_config
        self.program = None   # path once prepared
        self.input = None     # input file for socsim run --input, or None
        self.error = None

    def identity(self):
        """What makes two jobs the same compilation (before the files are hashed)."""
        return json.dumps([self.spec.source, self.spec.path, self.spec.image_size,
                           sorted(self.options.items())], sort_keys=True)


class ModelCache:
    def __init__(self, results_dir, jobs=1, log=None):
        self.dir = os.path.join(results_dir, "models")
        self.jobs = max(1, jobs)
        self.log = log or (lambda message: None)
        self._compiler = None

    def prepare(self, jobs):
        """Exports and compiles every distinct job (in parallel); sets program/input/error."""
        os.makedirs(self.dir, exist_ok=True)
        distinct = {}
        for job in jobs:
            distinct.setdefault(job.identity(), []).append(job)
        zoo_exports = {(j[0].spec.path, j[0].spec.image_size) for j in distinct.values()
                       if j[0].spec.source == "zoo"}
        zoo_errors = {}
        for name, size in sorted(zoo_exports):
            try:
                self._export_zoo(name, size)
            except CompileFailure as e:
                zoo_errors[(name, size)] = str(e)
        with concurrent.futures.ThreadPoolExecutor(self.jobs) as pool:
            futures = {}
            for key, group in distinct.items():
                first = group[0]
                zoo_key = (first.spec.path, first.spec.image_size)
                if first.spec.source == "zoo" and zoo_key in zoo_errors:
                    for job in group:
                        job.error = zoo_errors[zoo_key]
                    continue
                futures[pool.submit(self._prepare_one, first)] = group
            for future in concurrent.futures.as_completed(futures):
                group = futures[future]
                try:
                    program, input_path = future.result()
                    for job in group:
                        job.program, job.input = program, input_path
                except CompileFailure as e:
                    for job in group:
                        job.error = str(e)
        return list(distinct.values())

    # ---- steps --------------------------------------------------------------------------

    def compiler(self):
        if self._compiler is None:
            self._compiler = sources.digest()
        return self._compiler

    def _zoo_dir(self, name, size):
        # exported again when the zoo's or the compiler's sources change
        return os.path.join(self.dir, f"zoo-{name}-{size}-{self.compiler()[:12]}")

    def _export_zoo(self, name, size):
        out = self._zoo_dir(name, size)
        stamp = os.path.join(out, "export.done")
        if os.path.isfile(stamp):
            return
        self.log(f"exporting zoo model {name} (image size {size})")
        os.makedirs(out, exist_ok=True)
        cmd = [sys.executable, "-m", "socsim_aot.zoo", "-o", out, "--models", name,
               "--image-size", str(size)]
        self._run(cmd, os.path.join(out, "export.log"), f"zoo export of {name}")
        open(stamp, "w").close()

    def _sources(self, job):
        """(onnx, calibration, input) of a job, files on disk."""
        spec = job.spec
        if spec.source == "zoo":
            base = os.path.join(self._zoo_dir(spec.path, spec.image_size), spec.path)
            calibration = job.options.get("calibration") or base + ".calibration.npz"
            input_path = base + ".input.bin" if spec.input == "zoo" else spec.input
            return base + ".onnx", calibration, input_path
        return spec.path, job.options.get("calibration"), spec.input

    def _prepare_one(self, job):
        if job.spec.source == "program":
            return job.spec.path, job.spec.input
        onnx, calibration, input_path = self._sources(job)
        options = dict(job.options)
        if options.get("quantize") is None:
            calibration = None
        h = hashlib.sha256()
        h.update(self.compiler().encode())
        h.update(json.dumps(sorted((k, v) for k, v in options.items()
                                   if k not in ("calibration", "npu_config"))).encode())
        for path in (onnx, calibration, options.get("npu_config")):
            h.update(b"|")
            if path:
                if not os.path.isfile(path):
                    raise CompileFailure(f"model '{job.spec.name}': no such file {path}")
                file_digest(path, h)
        key = h.hexdigest()[:16]
        program = os.path.join(self.dir, f"{job.spec.name}-{key}.pte")
        if os.path.isfile(program):
            return program, input_path
        self.log(f"compiling model {job.spec.name} ({describe_options(options)})")
        cmd = [sys.executable, "-m", "socsim_aot.compiler", onnx, "-o", program + ".tmp",
               "--format", "pte"]
        cmd += compiler_arguments(options, calibration)
        self._run(cmd, program + ".log", f"compiling model '{job.spec.name}'")
        os.replace(program + ".tmp", program)
        return program, input_path

    def _run(self, cmd, log_path, what):
        with open(log_path, "w") as log:
            log.write(" ".join(cmd) + "\n")
            log.flush()
            result = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT,
                                    env=python_env(), cwd=self.dir)
        if result.returncode != 0:
            with open(log_path) as log:
                lines = [line.strip() for line in log if line.strip()]
            reason = lines[-1] if len(lines) > 1 else f"exit status {result.returncode}"
            raise CompileFailure(f"{what} failed: {reason} (log: {log_path})")


def compiler_arguments(options, calibration):
    """The compiler's command-line options for a job's compile options (scripts/
    compile_model.py: the option of the same name, '_' written '-')."""
    cmd = []
    if options.get("quantize"):
        cmd += ["--quantize", options["quantize"], "--samples", str(options["samples"])]
        if calibration:
            cmd += ["--calibration", calibration]
    if options.get("delegate"):
        cmd += ["--delegate", options["delegate"]]
    if options.get("npu_config"):
        cmd += ["--npu-config", options["npu_config"]]
    for option in ("input_type", "output_type"):
        if options.get(option):
            cmd += ["--" + option.replace("_", "-"), options[option]]
    for option in ("mean", "std"):
        if options.get(option) is not None:
            values = options[option] if isinstance(options[option], list) else [options[option]]
            cmd += ["--" + option, ",".join(repr(float(v)) for v in values)]
    names = options.get("no_pass") or []
    for name in names if isinstance(names, list) else [names]:
        cmd += ["--no-pass", name]
    return cmd


def describe_options(options):
    parts = [f"{k}={os.path.basename(v) if isinstance(v, str) and os.sep in v else v}"
             for k, v in sorted(options.items()) if v is not None and k != "samples"]
    return ", ".join(parts) or "float32"
