"""Fuzz target `sweep_spec` (atheris, libFuzzer's engine for Python): a sweep file read by
`spec.load` and expanded into its points by `expand.expand`, as `socsim sweep points` does.

A SweepError (the loader's answer to a bad file, naming file, line and key) is an accepted
outcome; any other exception, an input that takes longer than libFuzzer's -timeout or more
memory than -rss_limit_mb is a failure. Only the sweep package is instrumented for coverage.

Run through scripts/fuzz.sh (target sweep_spec), which passes libFuzzer's arguments. The
SoC descriptions a sweep names are read by socsim itself (`socsim config --plain`): the
binary is $SOCSIM_BINARY, else build/bin/socsim. The input is written as
configs/sweeps/input.yaml of a scratch tree whose configs/soc, configs/ddr and configs/npu
are the repository's, so the relative paths of the shipped sweep files resolve.
"""

import atexit
import os
import shutil
import sys
import tempfile

import atheris

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

with atheris.instrument_imports(include=["socsim_sweep"]):
    from socsim_sweep import expand, socconfig, spec
    from socsim_sweep.source import SweepError


def _scratch():
    base = os.environ.get("TMPDIR") or ("/dev/shm" if os.path.isdir("/dev/shm") else None)
    top = tempfile.mkdtemp(prefix="socsim-fuzz-sweep-", dir=base)
    atexit.register(shutil.rmtree, top, True)
    os.makedirs(os.path.join(top, "configs", "sweeps"))
    for sub in ("soc", "ddr", "npu"):
        os.symlink(os.path.join(ROOT, "configs", sub), os.path.join(top, "configs", sub))
    return top


SOCSIM = os.environ.get("SOCSIM_BINARY") or os.path.join(ROOT, "build", "bin", "socsim")
SCRATCH = _scratch()
INPUT = os.path.join(SCRATCH, "configs", "sweeps", "input.yaml")
DEFAULT_CONFIG = os.path.join(SCRATCH, "configs", "soc", "default.yaml")

# socsim's answer for one SoC file is fixed while the file is: remember refusals too (the
# loader itself remembers only the descriptions socsim accepts), so an input naming a
# shipped preset as its SoC does not start socsim again at every execution.
_answers = {}


def _effective_config(socsim, path):
    try:
        stat = os.stat(path)
        key = (os.path.abspath(path), stat.st_mtime_ns, stat.st_size)
    except OSError:
        key = None
    if key is not None and key in _answers:
        answer = _answers[key]
        if isinstance(answer, SweepError):
            raise SweepError(*answer.args)
        return answer
    try:
        answer = socconfig.effective_config(socsim, path)
    except SweepError as e:
        answer = e
    if key is not None:
        _answers[key] = answer
    if isinstance(answer, SweepError):
        raise answer
    return answer


spec.effective_config = _effective_config


def test_one_input(data):
    with open(INPUT, "wb") as f:
        f.write(data)
    try:
        sweep = spec.load(INPUT, DEFAULT_CONFIG, SOCSIM)
        expand.expand(sweep)
    except SweepError:
        pass


def main():
    if not os.access(SOCSIM, os.X_OK):
        sys.stderr.write(f"fuzz_sweep_spec: no socsim binary at {SOCSIM} (build it with "
                         "scripts/build.sh, or set SOCSIM_BINARY)\n")
        sys.exit(2)
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
