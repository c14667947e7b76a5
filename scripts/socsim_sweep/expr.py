"""Small expressions for constraints and metrics, checked when the sweep file is read.

The syntax is a subset of Python's: numbers, strings, True/False/None; + - * / // % **;
comparisons, `and`, `or`, `not`, `x if c else y`, `in` with a list; dotted names; a[i]
(an index into a list), a["key"] (a map key, or in a list the element whose `name` is
"key"); calls to the functions in FUNCTIONS. A dotted name resolves to the longest prefix the
scope knows (a parameter `npu.mac_array.rows`, a report `summary`, a metric `cycles`); the
rest of it reads fields. Reading a field of a list reads it in every element:
`npu_layers.layers.total_cycles` is the list of every layer's total cycles.
"""

import ast
import math
import operator

from socsim_sweep.source import SweepError


def _numbers(values):
    values = list(values)
    for v in values:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise EvalError(f"expected numbers, got {v!r}")
    return values


def _mean(values):
    values = _numbers(values)
    if not values:
        raise EvalError("mean of an empty list")
    return sum(values) / len(values)


def _select(items, **fields):
    if not isinstance(items, list):
        raise EvalError("select() takes a list")
    return [i for i in items if isinstance(i, dict) and
            all(i.get(k) == v for k, v in fields.items())]


def _first(items):
    if not isinstance(items, list) or not items:
        raise EvalError("first() of an empty list")
    return items[0]


MAX_DEPTH = 100         # nesting of an expression's syntax tree
MAX_INT_BITS = 4096     # an integer an expression computes
MAX_LENGTH = 1_000_000  # a string or list an expression builds by repetition


def _power(base, exponent):
    if (isinstance(base, int) and isinstance(exponent, int) and abs(base) > 1 and
            exponent * base.bit_length() > MAX_INT_BITS):
        raise EvalError(f"{base} ** {exponent} has more than {MAX_INT_BITS} bits")
    return operator.pow(base, exponent)


def _times(a, b):
    for seq, n in ((a, b), (b, a)):
        if isinstance(seq, (str, list)) and isinstance(n, int) and len(seq) * n > MAX_LENGTH:
            raise EvalError(f"repeating a {type(seq).__name__} of {len(seq)} {n} times makes "
                            f"more than {MAX_LENGTH} elements")
    return operator.mul(a, b)


def _round(value, digits=None):
    if digits is not None and not isinstance(digits, bool) and isinstance(digits, int) and \
            abs(digits) > 400:
        raise EvalError(f"round() to {digits} digits")
    return round(value, digits)


FUNCTIONS = {
    "sum": lambda v: sum(_numbers(v)),
    "min": lambda *v: min(_numbers(v[0] if len(v) == 1 else v)),
    "max": lambda *v: max(_numbers(v[0] if len(v) == 1 else v)),
    "mean": _mean,
    "count": len,
    "len": len,
    "abs": abs,
    "round": _round,
    "sqrt": math.sqrt,
    "log2": math.log2,
    "log10": math.log10,
    "select": _select,
    "first": _first,
}

_BINARY = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: _times,
    ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
    ast.Pow: _power,
}
_COMPARE = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge,
    ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
}


class EvalError(Exception):
    """An expression that cannot be evaluated on a given point (a missing report field)."""


def dotted(node):
    """'a.b.c' for a Name/Attribute chain, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


class Expr:
    """A parsed expression. `names` lists the dotted names it reads (longest form)."""

    def __init__(self, text, node):
        """`node` is the source.Node the text came from (for messages)."""
        self.text = text
        self.node = node
        try:
            self.tree = ast.parse(text.strip(), mode="eval")
        except SyntaxError as e:
            node.fail(f"cannot parse expression '{text}': {e.msg}")
        except ValueError as e:  # a NUL character
            node.fail(f"cannot parse expression: {e}")
        except (RecursionError, MemoryError):
            node.fail(f"expression nested deeper than {MAX_DEPTH} levels")
        self.names = []
        self._check(self.tree.body)

    def _check(self, n, depth=0):
        if depth > MAX_DEPTH:
            self.node.fail(f"expression nested deeper than {MAX_DEPTH} levels")
        check = lambda child: self._check(child, depth + 1)  # noqa: E731
        if isinstance(n, (ast.Name, ast.Attribute)):
            name = dotted(n)
            if name is None:
                check(n.value)  # e.g. first(x).cycles
            else:
                self.names.append(name)
            return
        if isinstance(n, ast.Constant):
            if not isinstance(n.value, (int, float, str, bool, type(None))):
                self.node.fail(f"'{self.text}': unsupported constant {n.value!r}")
            if isinstance(n.value, int) and n.value.bit_length() > 64:
                self.node.fail(f"'{self.text}': an integer beyond 64 bits")
            return
        if isinstance(n, ast.BinOp) and type(n.op) in _BINARY:
            check(n.left)
            check(n.right)
            return
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, (ast.USub, ast.UAdd, ast.Not)):
            check(n.operand)
            return
        if isinstance(n, ast.BoolOp):
            for v in n.values:
                check(v)
            return
        if isinstance(n, ast.Compare) and all(type(o) in _COMPARE for o in n.ops):
            check(n.left)
            for c in n.comparators:
                check(c)
            return
        if isinstance(n, ast.IfExp):
            for c in (n.test, n.body, n.orelse):
                check(c)
            return
        if isinstance(n, (ast.List, ast.Tuple)):
            for e in n.elts:
                check(e)
            return
        if isinstance(n, ast.Subscript):
            check(n.value)
            check(n.slice)
            return
        if isinstance(n, ast.Call):
            if not isinstance(n.func, ast.Name) or n.func.id not in FUNCTIONS:
                self.node.fail(f"'{self.text}': unknown function (known: "
                               f"{', '.join(sorted(FUNCTIONS))})")
            for a in n.args:
                check(a)
            for k in n.keywords:
                if k.arg is None:
                    self.node.fail(f"'{self.text}': ** arguments are not supported")
                check(k.value)
            return
        self.node.fail(f"'{self.text}': unsupported syntax ({type(n).__name__})")

    def evaluate(self, lookup):
        """`lookup(dotted_name)` returns (found, value) for a name the scope knows."""
        return _Evaluator(lookup).eval(self.tree.body)


def resolve_name(name, lookup):
    """The value of a dotted name: the longest prefix `lookup` knows, then field reads."""
    parts = name.split(".")
    for k in range(len(parts), 0, -1):
        found, value = lookup(".".join(parts[:k]))
        if found:
            for field in parts[k:]:
                value = read_field(value, field)
            return value
    raise EvalError(f"unknown name '{name}'")


def read_field(value, field):
    if isinstance(value, dict):
        if field not in value:
            raise EvalError(f"no field '{field}' (fields: {', '.join(sorted(value))})")
        return value[field]
    if isinstance(value, list):
        return [read_field(v, field) for v in value]
    raise EvalError(f"cannot read field '{field}' of {value!r}")


def subscript(value, index):
    if isinstance(value, list):
        if isinstance(index, int) and not isinstance(index, bool):
            if not -len(value) <= index < len(value):
                raise EvalError(f"index {index} out of range (length {len(value)})")
            return value[index]
        if isinstance(index, str):
            for item in value:
                if isinstance(item, dict) and item.get("name") == index:
                    return item
            raise EvalError(f"no element named '{index}'")
    if isinstance(value, dict) and isinstance(index, str):
        if index not in value:
            raise EvalError(f"no field '{index}'")
        return value[index]
    raise EvalError(f"cannot index {type(value).__name__} with {index!r}")


class _Evaluator:
    def __init__(self, lookup):
        self.lookup = lookup

    def eval(self, n):
        if isinstance(n, (ast.Name, ast.Attribute)):
            name = dotted(n)
            if name is not None:
                return resolve_name(name, self.lookup)
            return read_field(self.eval(n.value), n.attr)
        if isinstance(n, ast.Constant):
            return n.value
        if isinstance(n, ast.BinOp):
            left, right = self.eval(n.left), self.eval(n.right)
            try:
                result = _BINARY[type(n.op)](left, right)
            except (TypeError, ZeroDivisionError, OverflowError, ValueError) as e:
                raise EvalError(str(e)) from None
            if isinstance(result, int) and result.bit_length() > MAX_INT_BITS:
                raise EvalError(f"a result of more than {MAX_INT_BITS} bits")
            return result
        if isinstance(n, ast.UnaryOp):
            v = self.eval(n.operand)
            if isinstance(n.op, ast.Not):
                return not v
            try:
                return -v if isinstance(n.op, ast.USub) else +v
            except TypeError as e:
                raise EvalError(str(e)) from None
        if isinstance(n, ast.BoolOp):
            is_and = isinstance(n.op, ast.And)
            result = is_and
            for v in n.values:
                result = self.eval(v)
                if bool(result) != is_and:
                    return result
            return result
        if isinstance(n, ast.Compare):
            left = self.eval(n.left)
            for op, right_node in zip(n.ops, n.comparators):
                right = self.eval(right_node)
                try:
                    if not _COMPARE[type(op)](left, right):
                        return False
                except TypeError as e:
                    raise EvalError(str(e)) from None
                left = right
            return True
        if isinstance(n, ast.IfExp):
            return self.eval(n.body) if self.eval(n.test) else self.eval(n.orelse)
        if isinstance(n, (ast.List, ast.Tuple)):
            return [self.eval(e) for e in n.elts]
        if isinstance(n, ast.Subscript):
            return subscript(self.eval(n.value), self.eval(n.slice))
        if isinstance(n, ast.Call):
            args = [self.eval(a) for a in n.args]
            kwargs = {k.arg: self.eval(k.value) for k in n.keywords}
            try:
                return FUNCTIONS[n.func.id](*args, **kwargs)
            except EvalError:
                raise
            except (TypeError, ValueError, OverflowError) as e:
                raise EvalError(f"{n.func.id}(): {e}") from None
        raise EvalError(f"unsupported syntax {type(n).__name__}")


def check_names(expr, known, what):
    """Fails at the expression's line when a name has no known prefix; `known(prefix)` says
    whether the scope will know a dotted prefix."""
    for name in expr.names:
        parts = name.split(".")
        if not any(known(".".join(parts[:k])) for k in range(len(parts), 0, -1)):
            expr.node.fail(f"'{expr.text}' names '{name}', which is not {what}")


__all__ = ["Expr", "EvalError", "SweepError", "FUNCTIONS", "check_names", "resolve_name"]
