"""The sweep description (docs/sweeps.md): reading and validating a sweep file.

Everything is checked before anything runs: unknown keys, parameters that name no key of the
SoC description (nor of the presets it names), empty value lists, zipped axes of different
lengths, constraints and metrics naming nothing known. Each error names file, line and key.
"""

import math
import os
import re

from socsim_cpu import CpuModelsError, check_cpu
from socsim_sweep import cost as cost_model
from socsim_sweep import expand, source
from socsim_sweep.expr import Expr, check_names
from socsim_sweep.socconfig import effective_config
from socsim_sweep.source import SweepError

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
# Sweep, model and plot names become file names (`.<sweep>.lock`, `<name>.png.json`): well
# under the 255 bytes a file name may have.
MAX_NAME = 128
REPORTS = ("summary", "probes", "ddr", "npu_layers")  # report files a metric can read
COMPILE_OPTIONS = {
    # option: allowed values (None: checked by _compile_value: a path, a count, numbers,
    # pass names); each is the compiler's option of the same name (scripts/compile_model.py)
    "quantize": (None, "int8"),
    "delegate": (None, "cpu-packed", "npu"),
    "calibration": None,
    "samples": None,
    "npu_config": None,
    "input_type": ("float32", "uint8", "int8"),
    "mean": None,
    "std": None,
    "output_type": ("float32", "int8"),
    "no_pass": None,
}
MAX_CHANNELS = 4096  # values of a compile.mean / compile.std list
RUN_OPTIONS = ("config", "firmware", "cpu", "max_cycles", "args", "input", "timeout_s")
ZOO_MODELS = ("convnet", "mobilenet_v2", "resnet18")  # the zoo's float models
DEFAULT_METRICS = {
    "cycles": "summary.cycles",
    "time_ms": "summary.time_ms",
    "instructions": "summary.instructions",
}
PLOT_KINDS = ("line", "pareto", "heatmap")
# The fields of summary.json (docs/platform.md#reports): a metric reading another one is a
# typo, refused when the sweep file is read rather than found empty on every point.
SUMMARY_FIELDS = ("status", "exit_code", "firmware_exit_code", "message", "cycles",
                  "cycles_exact", "instructions", "time_ms", "clocks", "cpu_model",
                  "cpu_description", "firmware", "config", "host_seconds",
                  "lockstep_checked", "output_errors", "simulated_cycles_per_second",
                  "command_line", "inputs", "firmware_args", "tool", "host")


class Parameter:
    """One swept name: `kind` is 'set' (a SoC key, passed as --set), 'model' (which model),
    'compile' (a compiler option of the model) or 'run' (a `run:` option)."""

    def __init__(self, name, kind, values, node):
        self.name = name
        self.kind = kind
        self.values = values
        self.node = node

    @property
    def option(self):
        """The key inside its kind: 'quantize' for compile.quantize."""
        return self.name.split(".", 1)[1] if self.kind in ("compile", "run") else self.name


class Distribution:
    """A random parameter: choice, uniform, integer or log_uniform."""

    def __init__(self, parameter, kind, args, step):
        self.parameter = parameter
        self.kind = kind
        self.args = args
        self.step = step

    def draw(self, rng):
        if self.kind == "choice":
            return rng.choice(self.args)
        lo, hi = self.args
        if self.kind == "uniform":
            return rng.uniform(lo, hi)
        if self.kind == "log_uniform":
            import math
            return math.exp(rng.uniform(math.log(lo), math.log(hi)))
        # integer: lo, lo + step, ... <= hi
        return lo + self.step * rng.randrange((hi - lo) // self.step + 1)


class ModelSpec:
    """A model of the sweep: where it comes from (zoo, onnx or program) and how to compile it."""

    def __init__(self, name, node):
        self.name = name
        self.node = node
        self.source = None      # 'zoo' | 'onnx' | 'program'
        self.path = None        # onnx or program file, absolute; the zoo model's name for zoo
        self.image_size = 32
        self.options = {"quantize": None, "delegate": None, "calibration": None,
                        "samples": 8, "npu_config": None}
        self.input = None       # absolute path, 'zoo' (the zoo's sample input) or None


class RunSpec:
    def __init__(self):
        self.config = None
        self.firmware = "executor_runner"
        self.cpu = None
        self.max_cycles = None
        self.args = []
        self.input = None
        self.sets = []          # fixed --set assignments, 'key=value'
        self.timeout_s = None
        self.probes = []


class PlotSpec:
    def __init__(self, kind, fields, node, where=None):
        self.kind = kind
        self.fields = fields    # x, y, series, value, minimize (pareto), label, name
        self.node = node
        self.where = where      # Expr over parameters and metrics, or None


class TwoStage:
    """A sweep file's `two_stage:` section (docs/sweeps.md, "Two-stage studies"): the
    estimate stage's metrics, the objectives whose Pareto front picks the points to
    simulate, and the margin that widens it."""

    def __init__(self, node):
        self.node = node
        self.metrics = []       # (name, Expr) over `estimate`, parameters, cost.*, earlier ones
        self.objectives = []    # metric names, minimised; each an estimate and a run metric
        self.margins = {}       # objective -> fraction (0.1 for 10 %)
        self.batch = 256        # points per `socsim estimate --batch` process

    def definition(self):
        """What an estimate's metrics depend on besides the point (part of its key)."""
        return [[n, e.text] for n, e in self.metrics]


class Sweep:
    """A validated sweep description."""

    def __init__(self, file):
        self.file = os.path.abspath(file)
        self.dir = os.path.dirname(self.file)
        self.socsim = None       # the binary that reads SoC descriptions
        self.name = None
        self.description = ""
        self.run = RunSpec()
        self.models = {}
        self.parameters = []     # grid and zipped parameters, file order
        self.zips = []           # lists of parameter names advancing together
        self.random = None       # (samples, seed, [Distribution]) or None
        self.constraints = []    # Expr
        self.metrics = []        # (name, Expr)
        self.plots = []
        self.cost = cost_model.CostModel()
        self.two_stage = None    # TwoStage or None

    def parameter(self, name):
        for p in self.parameters:
            if p.name == name:
                return p
        if self.random:
            for d in self.random[2]:
                if d.parameter.name == name:
                    return d.parameter
        return None

    def all_parameters(self):
        out = list(self.parameters)
        if self.random:
            out += [d.parameter for d in self.random[2]]
        return out

    def path(self, text):
        """A path of the sweep file, relative to the file's folder."""
        return text if os.path.isabs(text) else os.path.normpath(os.path.join(self.dir, text))


# ---- reading ----------------------------------------------------------------------------

def load(path, default_config, socsim):
    """Reads and validates the sweep file at `path`. `default_config` is socsim's default
    SoC description (used when run.config is not given); the `socsim` binary reads the SoC
    descriptions (socsim config)."""
    root = source.load_file(path)
    if not root.is_map():
        root.fail("a sweep description must be a map (name, run, parameters, metrics, ...)")
    sweep = Sweep(path)
    sweep.socsim = socsim
    top = root.as_map()

    name = top.get("name", required=True)
    sweep.name = name.as_str()
    if not NAME_RE.match(sweep.name):
        name.fail("use letters, digits, '_', '.' and '-' (it names the results)")
    _check_length(sweep.name, name)
    if (d := top.get("description")) is not None:
        sweep.description = d.as_str()
    _read_run(sweep, top.get("run"), default_config)
    if (models := top.get("models")) is not None:
        _read_models(sweep, models)
    if (params := top.get("parameters")) is not None:
        for key, node in params.as_map().entries():
            sweep.parameters.append(_read_parameter(sweep, key, node))
    if (zips := top.get("zip")) is not None:
        _read_zips(sweep, zips)
    if (rnd := top.get("random")) is not None:
        _read_random(sweep, rnd)
    _check_parameters(sweep)
    if (constraints := top.get("constraints")) is not None:
        for c in constraints.as_list():
            expr = Expr(c.as_str(), c)
            check_names(expr, lambda n: sweep.parameter(n) is not None, "a parameter")
            sweep.constraints.append(expr)
    if (cost := top.get("cost")) is not None:
        sweep.cost = cost_model.CostModel.from_node(cost)
    _read_metrics(sweep, top.get("metrics"))
    if (plots := top.get("plots")) is not None:
        _read_plots(sweep, plots)
    if (two := top.get("two_stage")) is not None:
        _read_two_stage(sweep, two)
    top.done()
    if (count := expand.count(sweep)) > expand.MAX_POINTS:
        root.fail(f"the sweep has {count} points before its constraints; at most "
                  f"{expand.MAX_POINTS}")
    return sweep


def _check_length(name, node):
    if len(name) > MAX_NAME:
        node.fail(f"a name of {len(name)} characters: at most {MAX_NAME} (it names files)")


def _read_run(sweep, node, default_config):
    run = sweep.run
    run.config = default_config
    if node is None:
        return
    m = node.as_map()
    if (n := m.get("config")) is not None:
        run.config = sweep.path(n.as_str())
        if not os.path.isfile(run.config):
            n.fail(f"no such SoC description: {run.config}")
    if (n := m.get("firmware")) is not None:
        run.firmware = n.as_str()
    if (n := m.get("cpu")) is not None:
        run.cpu = n.as_str()
        _check_cpu(sweep, run.cpu, n)
    if (n := m.get("max_cycles")) is not None:
        run.max_cycles = n.as_int(minimum=1)
    if (n := m.get("args")) is not None:
        run.args = [a.as_str() if isinstance(a.value, str) else str(a.as_number())
                    for a in n.as_list()]
    if (n := m.get("input")) is not None:
        run.input = sweep.path(n.as_str())
    if (n := m.get("timeout_s")) is not None:
        run.timeout_s = n.as_number()
        if run.timeout_s <= 0:
            n.fail("must be greater than 0")
    if (n := m.get("probes")) is not None:
        run.probes = [p.as_str() for p in n.as_list()]
    if (n := m.get("set")) is not None:
        keys = effective_config(sweep.socsim, run.config)
        for key, value in n.as_map().entries():
            if not value.is_scalar() or value.value is None:
                value.fail("expected a single value")
            if not keys.has(key):
                value.fail(f"'{key}' is not a key of {run.config} (with its presets and "
                           "defaults, as `socsim config` shows it)")
            run.sets.append(f"{key}={format_value(value.value)}")
    m.done()


def _check_cpu(sweep, name, node):
    """A CPU model the sweep's socsim binary runs (it lists them: socsim config --cpu-models)."""
    if not isinstance(name, str):
        node.fail("a CPU model is a name (socsim config --cpu-models lists them)")
    if not sweep.socsim:
        raise SweepError("checking a CPU model needs the socsim binary: run this as "
                         "`socsim sweep`, or give --socsim PATH")
    try:
        message = check_cpu(sweep.socsim, name)
    except CpuModelsError as e:
        raise SweepError(str(e)) from None
    if message:
        node.fail(message)


def _read_models(sweep, node):
    for name, mnode in node.as_map().entries():
        if not NAME_RE.match(name):
            mnode.fail("model names use letters, digits, '_', '.' and '-'")
        _check_length(name, mnode)
        spec = ModelSpec(name, mnode)
        m = mnode.as_map()
        sources = [k for k in ("zoo", "onnx", "program") if k in m]
        if len(sources) != 1:
            mnode.fail("give exactly one of zoo (a zoo model's name), onnx (a file to "
                       "compile) or program (a compiled program file)")
        spec.source = sources[0]
        src = m.get(spec.source)
        if spec.source == "zoo":
            spec.path = src.as_str()
            if spec.path not in ZOO_MODELS:
                src.fail(f"unknown zoo model '{spec.path}' (known: {', '.join(ZOO_MODELS)})")
            if (n := m.get("image_size")) is not None:
                spec.image_size = n.as_int(minimum=8)
        else:
            spec.path = sweep.path(src.as_str())
            if not os.path.isfile(spec.path):
                src.fail(f"no such file: {spec.path}")
        for option in COMPILE_OPTIONS:
            if (n := m.get(option)) is not None:
                if spec.source == "program":
                    n.fail("a compiled program takes no compile options")
                spec.options[option] = _compile_option(sweep, option, n)
        if (n := m.get("input")) is not None:
            text = n.as_str()
            if text == "zoo":
                if spec.source != "zoo":
                    n.fail("'zoo' (the zoo's sample input) needs a zoo model")
                spec.input = "zoo"
            else:
                spec.input = sweep.path(text)
                if not os.path.isfile(spec.input):
                    n.fail(f"no such file: {spec.input}")
        elif spec.source == "zoo":
            spec.input = "zoo"
        m.done()
        sweep.models[name] = spec


def _compile_option(sweep, option, node):
    value = _compile_value(option, node.plain(), node)
    if option in ("calibration", "npu_config"):
        path = sweep.path(value)
        if not os.path.isfile(path):
            node.fail(f"no such file: {path}")
        return path
    return value


def _compile_value(option, value, node):
    """A value of compile option `option` (the models section's or a compile.* parameter's),
    checked as the compiler would: its choices, a count, numbers, pass names."""
    allowed = COMPILE_OPTIONS[option]
    if allowed is not None:
        if value not in allowed:
            node.fail(f"expected one of {', '.join(str(a) for a in allowed)}")
        return value
    if option == "samples":
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            node.fail(f"expected a count of at least 1, got {value!r}")
        return value
    if option in ("mean", "std"):
        # one number, or one per channel (the compiler's --mean/--std M[,M...])
        values = value if isinstance(value, list) else [value]
        if not values or len(values) > MAX_CHANNELS or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                for v in values):
            node.fail(f"compile.{option} is a finite number or a list of 1 to {MAX_CHANNELS} "
                      f"(one per channel), got {value!r}")
        if option == "std" and any(v == 0 for v in values):
            node.fail("compile.std cannot be 0")
        return value
    if option == "no_pass":
        # the front-end passes to skip (the compiler's --no-pass NAME, repeatable)
        names = value if isinstance(value, list) else [value]
        if not all(isinstance(n, str) and n for n in names):
            node.fail(f"compile.no_pass is a pass name or a list of them, got {value!r}")
        return value
    if not isinstance(value, str):  # calibration, npu_config: a path
        node.fail(f"expected a file name, got {value!r}")
    return value


def _values(node):
    """The values of one axis: a list, or {values: [...]}, or a range."""
    if node.is_list():
        values = node.as_list(allow_empty=False)
        return [v.value for v in values], values
    m = node.as_map()
    if "values" in m:
        vnode = m.get("values")
        values = vnode.as_list(allow_empty=False)
        m.done()
        return [v.value for v in values], values
    if "from" in m:
        start = _finite(m.get("from"))
        stop_node = m.get("to", required=True)
        stop = _finite(stop_node)
        step_node, factor_node = m.get("step"), m.get("factor")
        if step_node is not None and factor_node is not None:
            factor_node.fail("give step (arithmetic) or factor (geometric), not both")
        out = []
        if factor_node is not None:
            factor = _finite(factor_node)
            if factor <= 1 or start <= 0:
                factor_node.fail("a geometric range needs from > 0 and factor > 1")
            v = start
            while v <= stop * (1 + 1e-12):
                _range_cap(out, node)
                out.append(v)
                v = v * factor
        else:
            step = _finite(step_node) if step_node is not None else 1
            if step <= 0:
                (step_node or node).fail("step must be greater than 0")
            i = 0
            while start + i * step <= stop + abs(step) * 1e-9:
                _range_cap(out, node)
                v = start + i * step
                out.append(round(v, 12) if isinstance(v, float) else v)
                i += 1
        m.done()
        if not out:
            stop_node.fail(f"the range from {start} to {stop} is empty")
        return out, None
    node.fail("expected a list of values, {values: [...]} or a range {from, to, step | factor}")


def _finite(node):
    value = node.as_number()
    if isinstance(value, float) and not math.isfinite(value):
        node.fail(f"expected a finite number, got {value}")
    return value


def _range_cap(values, node):
    if len(values) >= expand.MAX_POINTS:
        node.fail(f"the range has more than {expand.MAX_POINTS} values")


def _read_parameter(sweep, key, node):
    values, value_nodes = _values(node)
    kind = _kind(sweep, key, node)
    if kind == "compile":  # list values (compile.mean per channel) as plain lists
        values = [n.plain() for n in value_nodes] if value_nodes else values
    param = Parameter(key, kind, values, node)
    for i, v in enumerate(values):
        vnode = value_nodes[i] if value_nodes else node
        _check_value(sweep, param, v, vnode)
    return param


def _kind(sweep, key, node):
    if key == "model":
        return "model"
    head, _, rest = key.partition(".")
    if head == "compile":
        if rest not in COMPILE_OPTIONS:
            node.fail(f"unknown compile option '{rest}' (known: "
                      f"{', '.join(COMPILE_OPTIONS)})")
        if not sweep.models:
            node.fail("compile options need a models section")
        return "compile"
    if head == "run":
        if rest not in RUN_OPTIONS:
            node.fail(f"unknown run option '{rest}' (known: {', '.join(RUN_OPTIONS)})")
        return "run"
    return "set"  # checked against the SoC descriptions by _check_parameters


def _check_value(sweep, param, value, node):
    if param.kind == "model":
        if not isinstance(value, str) or value not in sweep.models:
            node.fail(f"'{value}' is not a model of the models section")
    elif param.kind == "compile":
        _compile_value(param.option, value, node)
    elif param.kind == "run":
        if param.option == "args":
            if not isinstance(value, list):
                node.fail("run.args values are lists of firmware arguments")
        elif param.option == "cpu":
            _check_cpu(sweep, value, node)
        elif param.option in ("config", "input"):
            if not isinstance(value, str) or not os.path.isfile(sweep.path(value)):
                node.fail(f"no such file: {value}")
        elif param.option == "firmware" and not isinstance(value, str):
            node.fail("expected a firmware name or path")
        elif param.option in ("max_cycles", "timeout_s") and (
                isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0):
            node.fail("expected a number greater than 0")
    elif isinstance(value, (list, dict)) or value is None:
        node.fail(f"{param.name}: values are single values, got {source.describe(value)}")


def _read_zips(sweep, node):
    seen = set()
    for group in node.as_list():
        names = [n.as_str() for n in group.as_list(allow_empty=False)]
        if len(names) < 2:
            group.fail("a zipped axis needs at least two parameters")
        lengths = set()
        for n in names:
            p = sweep.parameter(n)
            if p is None:
                group.fail(f"'{n}' is not a parameter of the parameters section")
            if n in seen:
                group.fail(f"'{n}' is in more than one zipped axis")
            seen.add(n)
            lengths.add(len(p.values))
        if len(lengths) != 1:
            group.fail("zipped parameters need as many values each; got " +
                       ", ".join(f"{n}: {len(sweep.parameter(n).values)}" for n in names))
        sweep.zips.append(names)


def _read_random(sweep, node):
    m = node.as_map()
    samples_node = m.get("samples", required=True)
    samples = samples_node.as_int(minimum=1)
    if samples > expand.MAX_POINTS:
        samples_node.fail(f"at most {expand.MAX_POINTS} samples")
    seed = m.get("seed", required=True).as_int()
    dists = []
    for key, dnode in m.get("parameters", required=True).as_map().entries():
        if sweep.parameter(key) is not None:
            dnode.fail(f"'{key}' is also a grid parameter")
        dm = dnode.as_map()
        kinds = [k for k in ("choice", "uniform", "integer", "log_uniform") if k in dm]
        if len(kinds) != 1:
            dnode.fail("give one of choice: [values], uniform: [lo, hi], "
                       "integer: [lo, hi] (with an optional step), log_uniform: [lo, hi]")
        kind = kinds[0]
        anode = dm.get(kind)
        args = [a.value for a in anode.as_list(allow_empty=False)]
        step = None
        if kind != "choice":
            if len(args) != 2 or not all(isinstance(a, (int, float)) and
                                         not isinstance(a, bool) and math.isfinite(a)
                                         for a in args):
                anode.fail("expected [lo, hi], two finite numbers")
            if args[0] > args[1]:
                anode.fail("lo must not exceed hi")
            if kind == "log_uniform" and args[0] <= 0:
                anode.fail("log_uniform needs lo > 0")
            if kind == "integer":
                if not all(isinstance(a, int) for a in args):
                    anode.fail("integer bounds must be integers")
                step_node = dm.get("step")
                step = step_node.as_int(minimum=1) if step_node is not None else 1
        dm.done()
        param = Parameter(key, _kind(sweep, key, dnode), args, dnode)
        if kind == "choice":
            for a in anode.value:
                _check_value(sweep, param, a.value, a)
        dists.append(Distribution(param, kind, args, step))
    m.done()
    sweep.random = (samples, seed, dists)


def _check_parameters(sweep):
    """Every --set parameter must be a key of every SoC description the sweep runs (as
    socsim reads it: presets merged, defaults filled); compile options sweep nothing when
    every model is a compiled program."""
    configs = [sweep.run.config]
    config_param = sweep.parameter("run.config")
    if config_param is not None:
        configs = [sweep.path(v) for v in config_param.values]
    keys = {c: effective_config(sweep.socsim, c) for c in configs}
    for p in sweep.all_parameters():
        if p.kind != "set":
            continue
        for config, k in keys.items():
            if not k.has(p.name):
                p.node.fail(f"'{p.name}' is not a key of {config} (with its presets and "
                            "defaults, as `socsim config` shows it)")
    if sweep.models and all(m.source == "program" for m in sweep.models.values()):
        for p in sweep.all_parameters():
            if p.kind == "compile":
                p.node.fail("every model of the models section is a compiled program: there "
                            "are no compile options to sweep")


def _read_metrics(sweep, node):
    names = set()

    def known(prefix):
        return (prefix in REPORTS or prefix == "cost" or prefix in names or
                sweep.parameter(prefix) is not None)

    for name, text in DEFAULT_METRICS.items():
        sweep.metrics.append((name, Expr(text, source.Node(text, sweep.file, 1, name))))
        names.add(name)
    if node is None:
        return
    for name, mnode in node.as_map().entries():
        if not NAME_RE.match(name) or name in REPORTS or name == "cost":
            mnode.fail("metric names use letters, digits, '_', '.' and '-' and are not "
                       f"{', '.join(REPORTS)} or cost")
        expr = Expr(mnode.as_str(), mnode)
        check_names(expr, known, "a report (" + ", ".join(REPORTS) +
                    "), cost, a parameter or an earlier metric")
        _check_summary_fields(expr, known)
        sweep.metrics = [(n, e) for n, e in sweep.metrics if n != name]
        sweep.metrics.append((name, expr))
        names.add(name)


def _check_summary_fields(expr, known):
    """A name read from summary.json must name one of its fields."""
    for name in expr.names:
        parts = name.split(".")
        prefix = next(k for k in range(len(parts), 0, -1) if known(".".join(parts[:k])))
        if ".".join(parts[:prefix]) != "summary":
            continue
        if prefix == len(parts):
            continue  # the whole summary, e.g. summary["cycles"]
        if parts[prefix] not in SUMMARY_FIELDS:
            expr.node.fail(f"'{expr.text}' reads summary.{parts[prefix]}, which is not a "
                           f"field of summary.json (fields: {', '.join(SUMMARY_FIELDS)})")


def _read_plots(sweep, node):
    metric_names = {n for n, _ in sweep.metrics} | set(cost_model.COST_METRICS)
    for pnode in node.as_list():
        m = pnode.as_map()
        kind_node = m.get("kind", required=True)
        kind = kind_node.as_str()
        if kind not in PLOT_KINDS:
            kind_node.fail(f"expected one of {', '.join(PLOT_KINDS)}")
        fields = {}
        wanted = {"line": ("x", "y", "series"), "pareto": ("x", "y", "label"),
                  "heatmap": ("x", "y", "value")}[kind]
        for field in wanted:
            f = m.get(field, required=field != "series" and field != "label")
            if f is None:
                continue
            fields[field] = f.as_str()
            is_param = sweep.parameter(fields[field]) is not None
            is_metric = fields[field] in metric_names
            if not (is_param or is_metric):
                f.fail(f"'{fields[field]}' is neither a parameter nor a metric")
        if (n := m.get("minimize")) is not None:
            if kind != "pareto":
                n.fail("only a pareto plot takes minimize")
            flags = n.as_list()
            if len(flags) != 2 or not all(isinstance(f.value, bool) for f in flags):
                n.fail("expected [true|false, true|false] for x and y")
            fields["minimize"] = [f.value for f in flags]
        if (n := m.get("name")) is not None:
            fields["name"] = n.as_str()
            if not NAME_RE.match(fields["name"]):
                n.fail("plot names use letters, digits, '_', '.' and '-'")
            _check_length(fields["name"], n)
        where = None
        if (n := m.get("where")) is not None:
            where = Expr(n.as_str(), n)
            check_names(where, lambda name: name in metric_names or
                        sweep.parameter(name) is not None, "a parameter or a metric")
        m.done()
        sweep.plots.append(PlotSpec(kind, fields, pnode, where))


# The cost model's figures an estimate has (docs/sweeps.md, "Two-stage studies"): the NPU's
# area from its configuration, MAC and buffer energy from its layers; no DDR energy.
ESTIMATE_COSTS = ("cost.npu_area_mm2", "cost.mac_area_mm2", "cost.sram_area_mm2",
                  "cost.mac_energy_uj", "cost.sram_energy_uj")
MAX_BATCH = 100_000


def _read_two_stage(sweep, node):
    if not sweep.models:
        node.fail("a two-stage study estimates a compiled model: it needs a models section")
    two = TwoStage(node)
    m = node.as_map()
    names = set()

    def known(prefix):
        return (prefix in ("estimate", "cost") or prefix in names or
                sweep.parameter(prefix) is not None)

    metrics_node = m.get("metrics", required=True)
    for name, mnode in metrics_node.as_map().entries():
        if not NAME_RE.match(name) or name in ("estimate", "cost") or name in REPORTS:
            mnode.fail("estimate metric names use letters, digits, '_', '.' and '-' and are "
                       "not estimate, cost or a report's name")
        expr = Expr(mnode.as_str(), mnode)
        check_names(expr, known, "estimate (socsim estimate --json), cost, a parameter or an "
                    "earlier estimate metric")
        two.metrics = [(n, e) for n, e in two.metrics if n != name]
        two.metrics.append((name, expr))
        names.add(name)
    run_metrics = {n for n, _ in sweep.metrics} | set(cost_model.COST_METRICS)
    objectives_node = m.get("objectives", required=True)
    items = objectives_node.as_list(allow_empty=False)
    if len(items) < 2:
        objectives_node.fail("a Pareto front needs at least two objectives")
    for item in items:
        name = item.as_str()
        if name in two.objectives:
            item.fail(f"'{name}' is an objective twice")
        if name not in names and name not in ESTIMATE_COSTS:
            item.fail(f"'{name}' is not a metric of two_stage.metrics (nor an estimate's cost: "
                      f"{', '.join(ESTIMATE_COSTS)})")
        if name not in run_metrics:
            item.fail(f"'{name}' is not a metric of the metrics section (the simulated value "
                      "the estimate's is compared with)")
        two.objectives.append(name)
    if (n := m.get("margin_percent")) is not None:
        if n.is_map():
            for name, v in n.as_map().entries():
                if name not in two.objectives:
                    v.fail(f"'{name}' is not an objective ({', '.join(two.objectives)})")
                two.margins[name] = _margin(v)
        else:
            margin = _margin(n)
            two.margins = {name: margin for name in two.objectives}
    if (n := m.get("batch")) is not None:
        two.batch = n.as_int(minimum=1)
        if two.batch > MAX_BATCH:
            n.fail(f"at most {MAX_BATCH} points per estimate process")
    m.done()
    sweep.two_stage = two


def _margin(node):
    value = _finite(node)
    if not 0 <= value < 100:
        node.fail(f"a margin is a percentage from 0 to below 100, got {value}")
    return value / 100


def format_value(value):
    """A parameter value as socsim's --set reads it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)
