"""Metrics of a point, read from its report folder (summary.json, probes.json, ddr.json,
npu_layers.json) by the sweep's metric expressions, plus the cost model's figures.

Both backends leave the same report folders, and metrics are computed from them in one
place: the results of a Slurm sweep and a local one are the same by construction, and
metrics added to a sweep file later can be computed again without rerunning (`report
--recompute`).
"""

import json
import os

from socsim_sweep.expr import EvalError
from socsim_sweep.source import SweepError
from socsim_sweep.spec import REPORTS


class Reports:
    """The report files of one folder, parsed when first read."""

    def __init__(self, report_dir):
        self.dir = report_dir
        self._cache = {}

    def get(self, name):
        if name not in self._cache:
            path = os.path.join(self.dir, name + ".json")
            try:
                with open(path) as f:
                    self._cache[name] = json.load(f)
            except OSError:
                self._cache[name] = None
            except ValueError as e:
                raise EvalError(f"{path}: not valid JSON: {e}") from None
        return self._cache[name]

    def all(self):
        return {name: self.get(name) for name in REPORTS}


def earlier_or_param(name, values, params, what):
    """(True, value) when `name` is a metric evaluated before (`values`; one without a value
    is an error) or a parameter of the point, else (False, None)."""
    if name in values:
        if values[name] is None:
            raise EvalError(f"{what} '{name}' has no value")
        return True, values[name]
    if name in params:
        return True, params[name]
    return False, None


def evaluate(sweep, params, report_dir):
    """(metrics, errors, reports): metric name -> value (None when it could not be read),
    metric name -> why not, and the point's Reports."""
    reports = Reports(report_dir)
    metrics, errors = {}, {}
    cost = {}
    cost_done = [False]

    def costs():
        if not cost_done[0]:
            cost_done[0] = True
            try:
                cost.update(sweep.cost.evaluate(reports.all()))
            except (EvalError, SweepError, ValueError, TypeError) as e:
                errors["cost"] = str(e)
        return cost

    def lookup(name):
        found = earlier_or_param(name, metrics, params, "metric")
        if found[0]:
            return found
        if name in REPORTS:
            value = reports.get(name)
            if value is None:
                raise EvalError(f"the run wrote no {name}.json")
            return True, value
        if name.startswith("cost."):
            c = costs()
            if name in c:
                return True, c[name]
            raise EvalError(f"no {name} for this configuration" +
                            (f" ({errors['cost']})" if "cost" in errors else ""))
        if name == "cost":
            return True, {k.split(".", 1)[1]: v for k, v in costs().items()}
        return False, None

    for name, expr in sweep.metrics:
        try:
            metrics[name] = _plain(expr.evaluate(lookup))
        except EvalError as e:
            metrics[name] = None
            errors[name] = str(e)
    for name, value in costs().items():
        metrics.setdefault(name, value)
    return metrics, errors, reports


def _plain(value):
    """A metric value for the database: a number, a string, a bool or None; a list of
    numbers is kept as a list (stored as JSON)."""
    if isinstance(value, (int, float, str, bool)) or value is None:
        return value
    if isinstance(value, list) and all(isinstance(v, (int, float)) for v in value):
        return value
    raise EvalError(f"the value is a {type(value).__name__}, not a number: reduce it "
                    "with sum(), mean(), max(), count() or select a field")
