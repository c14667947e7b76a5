"""The CPU models a socsim binary runs (`cpu.model` in a SoC file, `--cpu` of `socsim run`),
as the binary lists them: `socsim config --cpu-models`, one a line, its name, a tab and what
it is. The C++ CPU-model registry (models/cpu/cpu_registry.h) is the one place that names
them; the tools ask it instead of keeping a list of their own.
"""

import subprocess

_cache = {}


class CpuModelsError(Exception):
    """The binary could not be asked (missing, not executable, or it failed)."""


def cpu_models(socsim):
    """The names of the CPU models `socsim` runs, sorted, asked once per binary."""
    if socsim not in _cache:
        try:
            done = subprocess.run([socsim, "config", "--cpu-models"], capture_output=True,
                                  text=True)
        except OSError as e:
            raise CpuModelsError(f"{socsim}: cannot run: {e.strerror}") from None
        if done.returncode != 0:
            message = done.stderr.strip().splitlines()
            raise CpuModelsError(f"{socsim} config --cpu-models failed ({done.returncode})"
                                 + (f": {message[-1]}" if message else ""))
        names = sorted(line.split("\t", 1)[0] for line in done.stdout.splitlines() if line)
        if not names:
            raise CpuModelsError(f"{socsim} config --cpu-models listed no CPU model")
        _cache[socsim] = names
    return _cache[socsim]


def expected(names):
    """"'iss' or 'rtl'", "'a', 'b' or 'c'": the names for a message."""
    quoted = [f"'{n}'" for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


def check_cpu(socsim, name):
    """None if `socsim` runs the CPU model `name`, else a one-line message."""
    names = cpu_models(socsim)
    if name in names:
        return None
    return f"unknown CPU model '{name}': expected {expected(names)}"
