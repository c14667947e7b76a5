"""YAML values that remember where they came from, and strict readers over them.

A sweep file is read into a tree of `Node`s: each holds a plain Python value (dict of Nodes,
list of Nodes, or a scalar), its file and line, and the dotted key path to it, so
that every error names `file:line: key: message`. `Map` reads a mapping key by key and
rejects the keys nobody asked for (misspellings are errors, never ignored).
"""

import yaml


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


def _convert(node, file, key, constructor, line=None):
    """A Node tree of a composed YAML node; a map's value takes its key's line."""
    line = line or node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        items = {}
        for k_node, v_node in node.value:
            if not isinstance(k_node, yaml.ScalarNode):
                raise SweepError(f"{file}:{k_node.start_mark.line + 1}: keys must be plain "
                                 "strings")
            k = str(constructor.construct_object(k_node))
            child_key = f"{key}.{k}" if key else k
            if k in items:
                raise SweepError(f"{file}:{k_node.start_mark.line + 1}: {child_key}: "
                                 f"duplicate key (first at line {items[k].line})")
            items[k] = _convert(v_node, file, child_key, constructor,
                                k_node.start_mark.line + 1)
        return Node(items, file, line, key)
    if isinstance(node, yaml.SequenceNode):
        return Node([_convert(v, file, f"{key}[{i}]", constructor)
                     for i, v in enumerate(node.value)], file, line, key)
    return Node(constructor.construct_object(node), file, line, key)


def load_text(text, file):
    """Parses YAML text into Nodes; `file` names it in messages."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(e, "problem", None) or str(e)
        raise SweepError(f"{file}{line}: not valid YAML: {problem}") from None
    if root is None:
        raise SweepError(f"{file}:1: the file is empty")
    constructor = yaml.SafeLoader("")
    return _convert(root, file, "", constructor)


def load_file(path):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise SweepError(f"{path}: cannot read: {e.strerror}") from None
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
