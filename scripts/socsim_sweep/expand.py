"""Expanding a sweep into its points.

The points are the cartesian product of the axes, in file order: one axis per parameter,
except that a zipped group is one axis whose parameters advance together; with several
models and no `model` parameter, the models are one more axis (first); random samples are
the last axis (`samples` draws from a generator seeded with `seed`, so the same file gives
the same points). Constraints then drop the points they reject.
"""

import itertools
import math
import random

from socsim_sweep.expr import EvalError

# Points of one sweep, before its constraints: each is a socsim run, and the expansion holds
# them all (spec.load refuses a larger sweep, and a larger range or sample count).
MAX_POINTS = 100_000


def count(sweep):
    """The number of points before the constraints: the product of the axes' lengths."""
    return math.prod(length for _, _, length in _axis_groups(sweep))


def _axis_groups(sweep):
    """The axes in order, each (kind, what, length): ('model', model names), ('params',
    the parameters advancing together) or ('random', the distributions)."""
    out = []
    if len(sweep.models) > 1 and sweep.parameter("model") is None:
        out.append(("model", list(sweep.models), len(sweep.models)))
    zipped = {name: group for group in sweep.zips for name in group}
    done = set()
    for p in sweep.parameters:
        if p.name in done:
            continue
        params = [sweep.parameter(n) for n in zipped.get(p.name, [p.name])]
        out.append(("params", params, len(p.values)))
        done.update(q.name for q in params)
    if sweep.random is not None:
        samples, _, dists = sweep.random
        out.append(("random", dists, samples))
    return out


def axes(sweep):
    """The axes: each a list of {parameter: value} dicts."""
    out = []
    for kind, what, length in _axis_groups(sweep):
        if kind == "model":
            out.append([{"model": name} for name in what])
        elif kind == "params":
            out.append([{q.name: q.values[i] for q in what} for i in range(length)])
        else:
            rng = random.Random(sweep.random[1])
            out.append([{d.parameter.name: d.draw(rng) for d in what} for _ in range(length)])
    return out


def expand(sweep):
    """(points, excluded): the points (dicts of parameter values, in axis order) the
    constraints accept, and how many they rejected."""
    points, excluded = [], 0
    for combo in itertools.product(*axes(sweep)):
        point = {}
        for part in combo:
            point.update(part)
        if accepts(sweep, point):
            points.append(point)
        else:
            excluded += 1
    if not points and sweep.constraints:
        sweep.constraints[0].node.fail(f"the constraints reject all {excluded} points")
    return points, excluded


def accepts(sweep, point):
    def lookup(name):
        if name in point:
            return True, point[name]
        return False, None

    for c in sweep.constraints:
        try:
            if not c.evaluate(lookup):
                return False
        except EvalError as e:
            c.node.fail(f"'{c.text}' on point {point}: {e}")
    return True
