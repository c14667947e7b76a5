"""YAML values that remember where they came from, and strict readers over them.

A sweep file is read into a tree of `Node`s: each holds a plain Python value (dict of Nodes,
list of Nodes, or a scalar), its file and line, and the dotted key path to it, so
that every error names `file:line: key: message`. `Map` reads a mapping key by key and
rejects the keys nobody asked for (misspellings are errors, never ignored).
"""

import math
import os
import stat

import yaml

# The caps of socsim's own YAML reader (docs/hardening.md#limits), checked before the text is
# read, while it is converted and before aliases can multiply it.
MAX_FILE_BYTES = 4 << 20
MAX_DEPTH = 64
MAX_VALUES = 100_000


class SweepError(Exception):
    """A bad sweep description or command-line request (exit status 2)."""


class Node:
    """One YAML value with its origin: `value` is a dict of Nodes, a list of Nodes or a
    scalar (str, int, float, bool, None)."""

    def __init__(self, value, file, line, key):
        self.value = value
        self.file = file
        self.line = line  # 1-based
        self.key = key    # dotted path from the root, '' for the root

    def where(self):
        return f"{self.file}:{self.line}"

    def fail(self, message):
        key = f" {self.key}:" if self.key else ""
        raise SweepError(f"{self.where()}:{key} {message}")

    def is_map(self):
        return isinstance(self.value, dict)

    def is_list(self):
        return isinstance(self.value, list)

    def is_scalar(self):
        return not isinstance(self.value, (dict, list))

    def plain(self):
        """The value with every Node unwrapped."""
        if isinstance(self.value, dict):
            return {k: v.plain() for k, v in self.value.items()}
        if isinstance(self.value, list):
            return [v.plain() for v in self.value]
        return self.value

    # ---- typed accessors ----------------------------------------------------------------

    def as_str(self):
        if not isinstance(self.value, str):
            self.fail(f"expected a string, got {describe(self.value)}")
        return self.value

    def as_int(self, minimum=None):
        if isinstance(self.value, bool) or not isinstance(self.value, int):
            self.fail(f"expected an integer, got {describe(self.value)}")
        if minimum is not None and self.value < minimum:
            self.fail(f"must be at least {minimum}, got {self.value}")
        return self.value

    def as_number(self):
        if isinstance(self.value, bool) or not isinstance(self.value, (int, float)):
            self.fail(f"expected a number, got {describe(self.value)}")
        return self.value

    def as_list(self, allow_empty=True):
        if not isinstance(self.value, list):
            self.fail(f"expected a list, got {describe(self.value)}")
        if not allow_empty and not self.value:
            self.fail("is empty: give at least one value")
        return self.value

    def as_map(self):
        if not isinstance(self.value, dict):
            self.fail(f"expected a map, got {describe(self.value)}")
        return Map(self)


def describe(value):
    if isinstance(value, dict):
        return "a map"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing (null)"
    return f"{type(value).__name__} {value!r}"


class Map:
    """Reads the keys of a map node; `done()` rejects those not read."""

    def __init__(self, node):
        self.node = node
        self.items = node.value
        self.read = set()

    def __contains__(self, key):
        return key in self.items

    def keys(self):
        return list(self.items)

    def get(self, key, required=False):
        """The Node at `key` (marked as read), or None when absent and not required."""
        self.read.add(key)
        if key in self.items:
            return self.items[key]
        if required:
            self.node.fail(f"missing key '{key}'")
        return None

    def entries(self):
        """Every (key, Node), all marked as read."""
        self.read.update(self.items)
        return list(self.items.items())

    def done(self, allowed=None):
        for key, child in self.items.items():
            if key not in self.read:
                names = ", ".join(sorted(allowed if allowed is not None else self.read))
                child.fail(f"unknown key '{key}' (known here: {names})")


class _Reader:
    """Converts a composed YAML tree into Nodes; each value counts (an alias once per use)."""

    def __init__(self, file):
        self.file = file
        self.constructor = yaml.SafeLoader("")
        self.values = 0

    def scalar(self, node):
        try:
            value = self.constructor.construct_object(node)
            if isinstance(value, int) and value.bit_length() > 64:
                raise ValueError("an integer beyond 64 bits")
            return value
        except Exception as e:  # noqa: BLE001
            # An explicit tag makes PyYAML convert text its resolver never matched: besides
            # its own errors, '!!timestamp x' raises AttributeError, '!!bool x' KeyError,
            # '!!int' (empty) IndexError, '!!int x' ValueError. Each is a scalar that cannot
            # be read; nothing else runs here.
            problem = getattr(e, "problem", None) or (
                str(e) if isinstance(e, (ValueError, OverflowError)) else f"not a {node.tag}")
            text = node.value if len(node.value) <= 40 else node.value[:40] + "..."
            raise SweepError(f"{self.file}:{node.start_mark.line + 1}: cannot read "
                             f"{text!r}: {problem}") from None

    def convert(self, node, key, depth=0, line=None):
        """A Node tree of a composed YAML node; a map's value takes its key's line."""
        line = line or node.start_mark.line + 1
        self.values += 1
        if self.values > MAX_VALUES:
            raise SweepError(f"{self.file}:{line}: more than {MAX_VALUES} values (aliases "
                             "counted at each use)")
        if depth > MAX_DEPTH:
            raise SweepError(f"{self.file}:{line}: nested deeper than {MAX_DEPTH} levels")
        if isinstance(node, yaml.MappingNode):
            items = {}
            for k_node, v_node in node.value:
                if not isinstance(k_node, yaml.ScalarNode):
                    raise SweepError(f"{self.file}:{k_node.start_mark.line + 1}: keys must be "
                                     "plain strings")
                k = str(self.scalar(k_node))
                if "\0" in k:
                    raise SweepError(f"{self.file}:{k_node.start_mark.line + 1}: a key contains "
                                     "a NUL character (\\0)")
                child_key = f"{key}.{k}" if key else k
                if k in items:
                    raise SweepError(f"{self.file}:{k_node.start_mark.line + 1}: {child_key}: "
                                     f"duplicate key (first at line {items[k].line})")
                items[k] = self.convert(v_node, child_key, depth + 1,
                                        k_node.start_mark.line + 1)
            return Node(items, self.file, line, key)
        if isinstance(node, yaml.SequenceNode):
            return Node([self.convert(v, f"{key}[{i}]", depth + 1)
                         for i, v in enumerate(node.value)], self.file, line, key)
        value = Node(self.scalar(node), self.file, line, key)
        if isinstance(value.value, float) and not math.isfinite(value.value):
            # NaN compares false with everything (`timeout_s: .nan` passed `> 0` and switched
            # the timeout off) and no parameter, option or figure means infinity: no number
            # of a sweep file may be either.
            value.fail(f"expected a finite number, got {node.value}")
        if isinstance(value.value, str) and "\0" in value.value:
            # no firmware argument, path, --set value or file name can hold one
            value.fail("contains a NUL character (\\0), which no argument, path or value "
                       "can hold")
        return value


def load_text(text, file):
    """Parses YAML text into Nodes; `file` names it in messages."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(e, "problem", None) or str(e)
        raise SweepError(f"{file}{line}: not valid YAML: {problem}") from None
    except RecursionError:
        # PyYAML composes recursively: far deeper than MAX_DEPTH, before convert() can see it
        raise SweepError(f"{file}: nested deeper than {MAX_DEPTH} levels") from None
    if root is None:
        raise SweepError(f"{file}:1: the file is empty")
    return _Reader(file).convert(root, "")


def load_file(path):
    """A sweep file: a regular file of at most MAX_FILE_BYTES of UTF-8 YAML."""
    try:
        # stat before open: opening a FIFO would wait for a writer
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise SweepError(f"{path}: not a regular file")
        with open(path, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise SweepError(f"{path}: cannot read: {e.strerror}") from None
    if len(data) > MAX_FILE_BYTES:
        raise SweepError(f"{path}: larger than {MAX_FILE_BYTES >> 20} MiB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise SweepError(f"{path}:{line}: not UTF-8 text (byte 0x{data[e.start]:02x} at "
                         f"offset {e.start})") from None
    return load_text(text, path)


def parse_size(text):
    """'384KiB' -> 393216; plain integers pass through; None when not a size."""
    if isinstance(text, bool):
        return None
    if isinstance(text, int):
        return text
    if not isinstance(text, str):
        return None
    units = {"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "B": 1}
    for unit, scale in units.items():
        if text.endswith(unit):
            number = text[:-len(unit)].strip()
            try:
                return int(number, 0) * scale
            except ValueError:
                return None
    try:
        return int(text, 0)
    except ValueError:
        return None


_FastLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when there
def load_yaml_text(text, what):
    """Parses YAML text (e.g. a SoC description as summary.json holds it)."""
    try:
        return yaml.load(text, Loader=_FastLoader)
    except yaml.YAMLError as e:
        raise SweepError(f"{what}: not valid YAML: {e}") from None
