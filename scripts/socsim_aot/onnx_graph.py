"""The compiler's front end graph: an ONNX model as a small, mutable graph of ONNX nodes.

`read(path)` loads a model, turns every `Constant` node and initializer into a constant,
rewrites nodes into one form whatever the opset (11-17, as torch 1.13 exports them: the
constant inputs of opset 13 where older opsets had attributes) and records the type of every
value ONNX shape inference can give. The front-end passes (socsim_aot/passes/) fold, simplify
and fuse this graph; compiler.py then lowers each remaining node to operators of the schema.

Values are named as in the model. A node's omitted optional input is "". A value's type is a
`TensorType`: its shape (None where a dimension or the rank is unknown) and numpy dtype.
"""

import dataclasses
import os
import signal
from typing import Dict, Iterable, List, Optional

import numpy as np

from socsim_aot import opsets, validate
from socsim_aot.ir import CompileError

# The opsets the front end reads (torch 1.13 exports 9-17, torch 2 18 and later); models of
# opsets 18-25 are rewritten into opset 17's form first (socsim_aot/opsets.py).
MIN_OPSET, MAX_OPSET = opsets.MIN_OPSET, opsets.MAX_OPSET
DOMAIN = "socsim"  # nodes the fusion passes create that ONNX has no operator for


@dataclasses.dataclass
class TensorType:
    shape: Optional[List[Optional[int]]]  # None: unknown rank
    dtype: Optional[np.dtype]
    elem_type: int = 0  # ONNX's element type (numpy has no bfloat16); 0: unknown

    @property
    def static(self) -> bool:
        return self.shape is not None and all(isinstance(d, int) for d in self.shape)


@dataclasses.dataclass(eq=False)
class OnnxOp:
    """One ONNX node: attributes as Python values (onnx.helper.get_attribute_value). Nodes
    compare (and hash) by identity: a graph holds each once, and finding one in the node
    list must not compare every field of every node."""
    op_type: str
    inputs: List[str]
    outputs: List[str]
    attrs: dict
    name: str
    domain: str = ""
    note: str = ""  # why no pass could rewrite it into operators the runtime has


    @property
    def where(self) -> str:
        return f"node '{self.name}' (op {self.op_type})"


def _np_dtype(elem_type) -> Optional[np.dtype]:
    from onnx import mapping
    t = mapping.TENSOR_TYPE_TO_NP_TYPE.get(elem_type)
    return np.dtype(t) if t is not None else None


def _tensor_type(vi) -> TensorType:
    t = vi.type.tensor_type
    dtype = _np_dtype(t.elem_type) if t.elem_type else None
    if not t.HasField("shape"):
        return TensorType(None, dtype, t.elem_type)
    dims = [int(d.dim_value) if d.HasField("dim_value") else None for d in t.shape.dim]
    return TensorType(dims, dtype, t.elem_type)


class OnnxGraph:
    def __init__(self):
        self.nodes: List[OnnxOp] = []
        self.consts: Dict[str, np.ndarray] = {}
        self.types: Dict[str, TensorType] = {}
        self.inputs: List[str] = []
        self.outputs: List[str] = []
        self.opset = opsets.TARGET_OPSET  # the opset of the nodes' form (at most 17)
        self.file_opset = self.opset  # the opset the file imports
        self._names = 0
        self._node_names: Optional[set] = None  # fresh()'s node names
        # A pre-quantised model's own quantisation (passes/import_qdq.ModelQuantization).
        self.quantization = None

    # ---- queries -----------------------------------------------------------------------------

    def const(self, name: str) -> Optional[np.ndarray]:
        return self.consts.get(name) if name else None

    def is_const(self, name: str) -> bool:
        return name in self.consts

    def shape(self, name: str) -> Optional[List[int]]:
        """The static shape of a value, or None."""
        if name in self.consts:
            return list(self.consts[name].shape)
        t = self.types.get(name)
        return list(t.shape) if t is not None and t.static else None

    def type_name(self, name: str) -> Optional[str]:
        """The element type of a value as ONNX names it (lower case: "float32",
        "bfloat16"), or None if unknown."""
        if name in self.consts:
            return self.consts[name].dtype.name
        t = self.types.get(name)
        if t is None or (not t.elem_type and t.dtype is None):
            return None
        if t.elem_type == 16:
            return "bfloat16"
        return np.dtype(t.dtype).name if t.dtype is not None else str(t.elem_type)

    def dtype(self, name: str) -> Optional[np.dtype]:
        if name in self.consts:
            return self.consts[name].dtype
        t = self.types.get(name)
        return t.dtype if t is not None else None

    def producer(self, name: str) -> Optional[OnnxOp]:
        for n in self.nodes:
            if name in n.outputs:
                return n
        return None

    def consumers(self, name: str) -> List[OnnxOp]:
        return [n for n in self.nodes if name in n.inputs]

    def sole_consumer(self, name: str) -> Optional[OnnxOp]:
        """The only node reading `name` (not a graph output), else None."""
        users = self.consumers(name)
        if len(users) != 1 or name in self.outputs or users[0].inputs.count(name) != 1:
            return None
        return users[0]

    # ---- edits -------------------------------------------------------------------------------

    def fresh(self, base: str) -> str:
        """A value or node name not used yet. Node names are looked up in a set made at the
        first call and grown by each name given out: a node added since under another name
        took an existing node's name or one ending in a word ("conv::reshape"), never one
        of the form "base::number" that this returns."""
        if self._node_names is None:
            self._node_names = {n.name for n in self.nodes}
        while True:
            self._names += 1
            name = f"{base}::{self._names}"
            if name not in self.consts and name not in self.types and \
                    name not in self._node_names:
                self._node_names.add(name)
                return name

    def add_const(self, base: str, array) -> str:
        name = self.fresh(base)
        self.consts[name] = np.ascontiguousarray(array)
        return name

    def remove(self, *nodes: OnnxOp):
        """Removes the nodes (one pass over the node list, in place)."""
        gone = set(nodes)
        self.nodes[:] = [n for n in self.nodes if n not in gone]

    def insert_before(self, anchor: OnnxOp, node: OnnxOp):
        self.nodes.insert(self.nodes.index(anchor), node)

    def replace_uses(self, old: str, new: str):
        """Every reader of `old` reads `new`; a graph output `old` becomes `new`'s name where
        the producer of `new` can take it."""
        for n in self.nodes:
            if old in n.inputs:
                n.inputs = [new if i == old else i for i in n.inputs]
        if old in self.outputs:
            producer = self.producer(new)
            if producer is not None and new not in self.outputs and new not in self.inputs:
                # The graph output keeps its name: the producer writes it directly.
                producer.outputs = [old if o == new else o for o in producer.outputs]
                for n in self.nodes:
                    if new in n.inputs:
                        n.inputs = [old if i == new else i for i in n.inputs]
                if new in self.types:
                    self.types[old] = self.types[new]
            else:
                self.outputs = [new if o == old else o for o in self.outputs]

    def prune(self) -> int:
        """Removes nodes none of whose outputs is read; returns how many."""
        removed = 0
        while True:
            used = set(self.outputs)
            for n in self.nodes:
                used.update(n.inputs)
            dead = [n for n in self.nodes if not any(o in used for o in n.outputs if o)]
            if not dead:
                break
            self.remove(*dead)
            removed += len(dead)
        live = set(self.outputs)
        for n in self.nodes:
            live.update(n.inputs)
        for name in [c for c in self.consts if c not in live]:
            del self.consts[name]
        return removed

    # ---- ONNX shape inference ----------------------------------------------------------------

    def infer_types(self, max_const_elements: int = 4096):
        """Runs ONNX shape inference over the graph; constants up to `max_const_elements` (the
        shape-like ones inference reads) go in as initializers, larger ones as typed inputs."""
        from onnx import helper, numpy_helper
        inits, const_inputs = [], []
        for name, value in self.consts.items():
            if value.size <= max_const_elements:
                inits.append(numpy_helper.from_array(value, name))
            else:
                const_inputs.append(helper.make_tensor_value_info(
                    name, onnx_elem_type(value.dtype), list(value.shape)))
        inputs = []
        for name in self.inputs:
            t = self.types[name]
            inputs.append(helper.make_tensor_value_info(name, onnx_elem_type(t.dtype), t.shape))
        nodes = [helper.make_node(n.op_type, n.inputs, n.outputs, name=n.name, **n.attrs)
                 for n in self.nodes if n.domain == ""]
        graph = helper.make_graph(nodes, "g", inputs + const_inputs, [], inits)
        # The nodes are in their opset-13 form (from_model) whatever the model's opset.
        opset = max(self.opset, 13)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
        inferred = infer_shapes(validate.for_inference(model))
        for vi in inferred.value_info:
            t = _tensor_type(vi)
            old = self.types.get(vi.name)
            if old is None or not old.static or t.static:
                self.types[vi.name] = t


# The inputs whose elements are an output's axes, one each (operator: input index), and the
# most axes such a shape may give.
SHAPE_INPUTS = {"Expand": 1, "Reshape": 1, "ConstantOfShape": 0, "Unsqueeze": 1}
MAX_SHAPE_AXES = 64
MAX_SHAPE_PASSES = 8  # shapes computed from shapes: deeper chains go to inference unchecked


def check_shape_lengths(model):
    """Refuses a shape input (SHAPE_INPUTS) of more than MAX_SHAPE_AXES elements before the
    model's shape inference: ONNX's inference would build an output of that many axes, and a
    Pad or Tile of a small constant makes a shape of millions (gigabytes of axes, found by the
    compile_model fuzz target). The lengths of computed shapes come from inference of the
    model without the nodes that read them, repeated while that tells more (a shape may be
    computed from another shape's output; at most MAX_SHAPE_PASSES inferences)."""
    import onnx
    graph = model.graph
    lengths = {t.name: list(t.dims) for t in graph.initializer}
    for n in graph.node:
        if n.op_type == "Constant" and n.output:
            for a in n.attribute:
                if a.name == "value" and a.HasField("t"):
                    lengths[n.output[0]] = list(a.t.dims)
    readers = [(k, n, n.input[SHAPE_INPUTS[n.op_type]]) for k, n in enumerate(graph.node)
               if n.domain in ("", "ai.onnx") and n.op_type in SHAPE_INPUTS and
               len(n.input) > SHAPE_INPUTS[n.op_type] and n.input[SHAPE_INPUTS[n.op_type]]]
    problems = [r for r in readers if r[2] in lengths and _too_long(lengths[r[2]])]
    unknown = [r for r in readers if r[2] not in lengths]
    for _ in range(MAX_SHAPE_PASSES):
        if not unknown or problems:
            break
        waiting = {k for k, _, _ in unknown}
        trial = onnx.ModelProto()
        trial.CopyFrom(model)
        del trial.graph.node[:]
        trial.graph.node.extend(n for k, n in enumerate(graph.node) if k not in waiting)
        del trial.graph.output[:]
        try:
            inferred = infer_shapes(validate.for_inference(trial))
        except CompileError:  # the model's own inference reports what is wrong
            break
        for vi in list(inferred.value_info) + list(inferred.output):
            t = vi.type.tensor_type
            if vi.type.HasField("tensor_type") and t.HasField("shape"):
                lengths.setdefault(vi.name, [d.dim_value if d.HasField("dim_value") else -1
                                             for d in t.shape.dim])
        known = [(k, n, name) for k, n, name in unknown if name in lengths]
        if not known:
            break
        problems = [(k, n, name) for k, n, name in known if _too_long(lengths[name])]
        unknown = [r for r in unknown if r not in known]
    if problems:
        raise validate.ModelError([
            f"{validate._where(n, k)}: input '{name}' has "
            f"{lengths[name][0]:,} elements, a shape of that many axes (at most "
            f"{MAX_SHAPE_AXES})" for k, n, name in problems])


def _too_long(dims) -> bool:
    return len(dims) == 1 and dims[0] > MAX_SHAPE_AXES


class InferenceCrash(Exception):
    """ONNX shape inference died by a signal: a check validation lacks (a defect)."""


# Whether infer_shapes isolates inference in a child process when not told. A program that
# embeds the compiler under a crash detector of its own may turn it off: the fuzz target
# compile_model does (a crash in inference is then libFuzzer's "deadly signal", with the
# input saved, where the child's crash would be exit status 70: a failure either way), and
# saves a fork per inference.
ISOLATE_INFERENCE = True


def infer_shapes(model, isolated: Optional[bool] = None):
    """ONNX shape inference of a model: a GraphProto holding only the typed inputs, values
    and outputs. Inference is C++ code that trusts its input (ONNX 1.12 divides by strides
    and reads past arrays on inconsistent nodes; a node whose shapes were unknown when the
    graph was validated can reach a later inference), so each inference runs (`isolated`,
    where the system can fork) in a child process: a crash there is an InferenceCrash
    (compile_model's internal error, exit status 70), not the compiler's death. Inference
    errors (they name the node) become CompileErrors."""
    import onnx
    if isolated is None:
        isolated = ISOLATE_INFERENCE

    def typed_values(m):
        g = onnx.GraphProto()
        g.input.extend(m.graph.input)
        g.value_info.extend(m.graph.value_info)
        g.output.extend(m.graph.output)
        return g
    if not isolated or not hasattr(os, "fork"):
        try:
            return typed_values(onnx.shape_inference.infer_shapes(model))
        except Exception as e:
            raise CompileError(f"ONNX shape inference failed: {e}") from None
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: answer on the pipe, exit without running any exit handler
        status = 0
        try:
            os.close(read_end)
            try:
                answer = b"G" + typed_values(
                    onnx.shape_inference.infer_shapes(model)).SerializeToString()
            except Exception as e:
                answer = b"E" + str(e).encode("utf-8", "replace")
            with os.fdopen(write_end, "wb") as out:
                out.write(answer)
        except BaseException:
            status = 1
        os._exit(status)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as answers:
        answer = answers.read()
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        raise InferenceCrash(f"ONNX shape inference crashed ({signal.Signals(sig).name}) on "
                             "this model: an inconsistent node the compiler's validation does "
                             "not check yet (please report it with the model)")
    if answer[:1] == b"E":
        raise CompileError(f"ONNX shape inference failed: {answer[1:].decode()}")
    if answer[:1] != b"G" or os.WEXITSTATUS(status) != 0:
        raise CompileError("ONNX shape inference gave no answer")
    graph = onnx.GraphProto()
    graph.ParseFromString(answer[1:])
    return graph


def onnx_elem_type(dtype) -> int:
    from onnx import mapping
    return mapping.NP_TYPE_TO_TENSOR_TYPE[np.dtype(dtype)]


# ---- reading a model --------------------------------------------------------------------------

def _constant_value(node, where) -> np.ndarray:
    from onnx import helper, numpy_helper
    for a in node.attribute:
        v = helper.get_attribute_value(a)
        if a.name == "value":
            return numpy_helper.to_array(v)
        if a.name == "value_float":
            return np.array(v, np.float32)
        if a.name == "value_floats":
            return np.array(v, np.float32)
        if a.name == "value_int":
            return np.array(v, np.int64)
        if a.name == "value_ints":
            return np.array(v, np.int64)
    raise CompileError(f"{where}: only tensor, float(s) and int(s) Constant values are supported")


def _to_opset13_form(g: OnnxGraph, op: OnnxOp):
    """Attributes that opset 13 made inputs become constant inputs: Squeeze, Unsqueeze and
    ReduceSum axes, Split sizes."""
    moved = {"Squeeze": ("axes", 1), "Unsqueeze": ("axes", 1), "ReduceSum": ("axes", 1),
             "Split": ("split", 1)}
    if g.opset < 13 and op.op_type in moved:
        attr, index = moved[op.op_type]
        if attr in op.attrs:
            value = np.array(op.attrs.pop(attr), np.int64)
            op.inputs = op.inputs[:index] + [""] * (index - len(op.inputs)) + \
                [g.add_const(op.name + "::" + attr, value)]


def normalize_softmax(g: OnnxGraph) -> int:
    """Softmax, LogSoftmax and Hardmax of opsets 11-12 work on the input flattened to 2-D at
    `axis`; where the axes after `axis` are all 1 that is opset 13's softmax over `axis`, and
    the node says so. Others are rejected. Needs static shapes (after constant folding)."""
    if g.opset >= 13:
        return 0
    changed = 0
    for op in g.nodes:
        if op.op_type not in ("Softmax", "LogSoftmax", "Hardmax") or op.domain:
            continue
        shape = g.shape(op.inputs[0])
        if not shape:  # unknown, or a scalar (no axis: lowering refuses it)
            continue
        axis = op.attrs.get("axis", 1) % len(shape)
        if int(np.prod(shape[axis + 1:], dtype=np.int64)) != 1:
            raise CompileError(f"{op.where}: opset {g.opset} {op.op_type} over the flattened "
                               f"axes {axis}.. of {shape} is not supported; export with opset 13")
        op.attrs["axis"] = axis
        changed += 1
    return changed


def from_model(model) -> OnnxGraph:
    """The front end graph of an onnx.ModelProto (shape inference run here)."""
    from onnx import helper, numpy_helper
    g = OnnxGraph()
    g.file_opset = g.opset = opsets.file_opset(model)
    lifted = opsets.lift_unchanged(model, g.opset) if g.opset < opsets.MIN_OPSET else None
    if lifted is not None:  # every operator reads the same at the lowest opset read
        model, g.opset = lifted, opsets.MIN_OPSET
    problem = opsets.check_range(g.opset)
    if problem:
        raise CompileError(problem)
    if g.opset > opsets.TARGET_OPSET:
        model = opsets.to_opset17(model, g.opset)
        g.opset = opsets.TARGET_OPSET
    validate.check_model(model, g.opset)  # before shape inference: it divides by strides
    check_shape_lengths(model)
    inferred = infer_shapes(validate.for_inference(model))
    graph = model.graph
    for init in graph.initializer:
        try:
            g.consts[init.name] = numpy_helper.to_array(init)
        except Exception as e:  # what validation did not foresee still names the tensor
            raise CompileError(f"initializer '{init.name}' cannot be read: {e}") from None
    for vi in list(inferred.input) + list(inferred.value_info) + list(inferred.output):
        g.types[vi.name] = _tensor_type(vi)
    g.inputs = [vi.name for vi in graph.input if vi.name not in g.consts]
    g.outputs = [vi.name for vi in graph.output]
    for index, node in enumerate(graph.node):
        name = node.name or f"{node.op_type}_{index}"
        where = f"node '{name}' (op {node.op_type})"
        if node.domain not in ("", "ai.onnx"):
            # Attributes of com.microsoft nodes are read for the import of quantised
            # operators (passes/import_qdq); other domains' nodes are only named by lowering.
            attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute} \
                if node.domain == "com.microsoft" else {}
            op = OnnxOp(node.op_type, list(node.input), list(node.output), attrs, name,
                        node.domain)
            g.nodes.append(op)
            continue
        if node.op_type == "Constant":
            try:
                g.consts[node.output[0]] = _constant_value(node, where)
            except CompileError:
                raise
            except Exception as e:  # what validation did not foresee still names the node
                raise CompileError(f"{where}: its value cannot be read: {e}") from None
            continue
        attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        op = OnnxOp(node.op_type, list(node.input), list(node.output), attrs, name)
        _to_opset13_form(g, op)
        g.nodes.append(op)
    _default_attributes(g)
    from socsim_aot import explicit_forms
    explicit_forms.run(g)
    validate.check_graph(g)
    return g


def _default_attributes(g: OnnxGraph):
    """Attributes whose ONNX default depends on the input's rank, written out: Transpose
    without perm reverses the axes."""
    for op in g.nodes:
        if op.op_type == "Transpose" and not op.domain and "perm" not in op.attrs and op.inputs:
            t = g.types.get(op.inputs[0])
            rank = len(g.consts[op.inputs[0]].shape) if op.inputs[0] in g.consts else \
                len(t.shape) if t is not None and t.shape is not None else None
            if rank is not None:
                op.attrs["perm"] = list(reversed(range(rank)))


def read(path) -> OnnxGraph:
    """Reads an ONNX file (see the module docstring)."""
    import warnings
    import onnx
    try:
        with warnings.catch_warnings():  # protobuf warns, then raises, on some bad bytes
            warnings.simplefilter("ignore")
            model = onnx.load(path, load_external_data=False)
    except OSError:
        raise
    except Exception as e:  # protobuf decode errors
        raise CompileError(f"cannot read ONNX model: {e}") from None
    validate.load_external_data(model, os.path.dirname(os.path.abspath(path)))
    return from_model(model)


def to_model(g: OnnxGraph):
    """The graph as an onnx.ModelProto (tests and debugging: `onnx.save(to_model(g), path)`)."""
    from onnx import helper, numpy_helper
    inputs = [helper.make_tensor_value_info(n, onnx_elem_type(g.types[n].dtype), g.types[n].shape)
              for n in g.inputs]
    outputs = [helper.make_tensor_value_info(n, onnx_elem_type(g.dtype(n) or np.float32),
                                             g.shape(n)) for n in g.outputs]
    nodes = [helper.make_node(n.op_type, n.inputs, n.outputs, name=n.name, domain=n.domain or None,
                              **n.attrs) for n in g.nodes]
    inits = [numpy_helper.from_array(v, k) for k, v in g.consts.items()]
    graph = helper.make_graph(nodes, "g", inputs, outputs, inits)
    opsets = [helper.make_opsetid("", g.opset)]
    if any(n.domain == DOMAIN for n in g.nodes):
        opsets.append(helper.make_opsetid(DOMAIN, 1))
    return helper.make_model(graph, opset_imports=opsets)


def op_counts(nodes: Iterable[OnnxOp]) -> Dict[str, int]:
    counts: Dict[str, int] = {}
    for n in nodes:
        counts[n.op_type] = counts.get(n.op_type, 0) + 1
    return counts
