"""Expanding a sweep into its points.

The points are the cartesian product of the axes, in file order: one axis per parameter,
except that a zipped group is one axis whose parameters advance together; with several
models and no `model` parameter, the models are one more axis (first); random samples are
the last axis (`samples` draws from a generator seeded with `seed`, so the same file gives
the same points). Constraints then drop the points they reject.
"""

import itertools
import random

from socsim_sweep.expr import EvalError


def axes(sweep):
    """The axes: each a list of {parameter: value} dicts."""
    out = []
    if len(sweep.models) > 1 and sweep.parameter("model") is None:
        out.append([{"model": name} for name in sweep.models])
    zipped = {name: group for group in sweep.zips for name in group}
    done = set()
    for p in sweep.parameters:
        if p.name in done:
            continue
        group = zipped.get(p.name)
        if group is None:
            out.append([{p.name: v} for v in p.values])
            done.add(p.name)
            continue
        params = [sweep.parameter(n) for n in group]
        out.append([{q.name: q.values[i] for q in params} for i in range(len(p.values))])
        done.update(group)
    if sweep.random is not None:
        samples, seed, dists = sweep.random
        rng = random.Random(seed)
        out.append([{d.parameter.name: d.draw(rng) for d in dists} for _ in range(samples)])
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
