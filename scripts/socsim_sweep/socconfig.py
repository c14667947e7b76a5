"""A SoC description as socsim itself reads it: `socsim config --plain` (presets merged in,
defaults filled in), parsed once per file version.

socsim's configuration reader is the one authority on what a description holds: a sweep's
--set parameters are checked against it, the configuration hash covers it (the presets'
contents included), and the compiler's default NPU preset is the one it names.
"""

import os
import subprocess

from socsim_sweep.source import SweepError, load_yaml_text

_cache = {}


class EffectiveConfig:
    def __init__(self, path, text):
        self.path = path
        self.text = text
        self.data = load_yaml_text(text, path) or {}

    def has(self, dotted):
        """Whether `dotted` names a single value (not a map) of the description."""
        node = self.data
        for part in dotted.split("."):
            if not isinstance(node, dict) or part not in node:
                return False
            node = node[part]
        return not isinstance(node, dict)

    def npu_preset(self):
        """The NPU preset the description names (a path), or None."""
        npu = self.data.get("npu") if isinstance(self.data, dict) else None
        if isinstance(npu, dict) and isinstance(npu.get("preset"), str):
            return os.path.normpath(os.path.join(os.path.dirname(self.path), npu["preset"]))
        return None


def effective_config(socsim, path):
    """The EffectiveConfig of the SoC description at `path`; a SweepError with socsim's own
    message when the description is not valid."""
    if not socsim:
        raise SweepError("reading a SoC description needs the socsim binary: run this as "
                         "`socsim sweep`, or give --socsim PATH")
    try:
        stat = os.stat(path)
    except OSError as e:
        raise SweepError(f"{path}: cannot read: {e.strerror}") from None
    key = (socsim, os.path.abspath(path), stat.st_mtime_ns, stat.st_size)
    if key not in _cache:
        done = subprocess.run([socsim, "config", "--plain", "--config", path],
                              capture_output=True, text=True)
        if done.returncode != 0:
            message = done.stderr.strip().removeprefix("socsim: error: ")
            raise SweepError(f"{path}: {message or 'socsim config failed'}")
        _cache[key] = EffectiveConfig(os.path.abspath(path), done.stdout)
    return _cache[key]
