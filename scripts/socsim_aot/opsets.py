"""Models of opsets 18 to 25 rewritten into the opset-17 form the rest of the compiler reads.

The compiler checks models and infers shapes with the onnx package of the system (1.12),
which knows opsets up to 17. Between opset 17 and 21 ONNX moved attributes to inputs and
added attributes (torch 2's exporter, `dynamo=True`, writes opset 18 and later); opsets 22
to 25 only widened the element types of operators (bfloat16, 4-bit and 8-bit floats, 2- and
4-bit integers) and added operators. `to_opset17(model)` rewrites each node of a newer model
into the node opset 17 has for the same computation, or names why it cannot
(the ONNX changelog, github.com/onnx/onnx docs/Changelog.md, says what changed when):

- ReduceL1/L2/LogSum/LogSumExp/Max/Mean/Min/Prod/SumSquare (18): the `axes` input becomes
  the `axes` attribute (it must be a constant); no axes with `noop_with_empty_axes` = 1 is
  an Identity. (ReduceSum had its axes input since 13: unchanged.)
- Split (18): `num_outputs` becomes the sizes input: equal parts, the last one smaller when
  the axis does not divide (needs the input's static shape).
- Pad (18): the `axes` input is folded into full-rank `pads` (needs the input's rank);
  mode `wrap` (19) is not supported.
- Resize (18, 19): `axes` expands scales or sizes to every axis; `keep_aspect_ratio_policy`
  not_larger / not_smaller becomes the sizes it gives (needs the input's shape);
  `antialias` = 1 and the coordinate mode `half_pixel_symmetric` are not supported.
- AveragePool (19) with all `dilations` 1, LpPool (18) without `ceil_mode` or dilations;
  Cast and CastLike (19, 24) with `saturate` / `round_mode` at their defaults (they concern
  8-bit floats only); QuantizeLinear / DequantizeLinear (19-23) with `block_size` 0,
  `output_dtype` and `precision` unset: those attributes are dropped.
- ScatterElements / ScatterND (18): reductions max and min are not supported.
- GroupNormalization (18, 21): the nodes torch 1.13 exports for nn.GroupNorm (Reshape,
  InstanceNormalization, Reshape, Mul, Add; needs the input's static shape).
- Gelu (20): the nodes torch 1.13 exports for nn.GELU (Div, Erf, Add, Mul, Mul; the
  fuse_gelu pass makes them one GELU again), or the tanh form's; Mish (18): x * Tanh(Softplus(x)).
- Operators new since 18 that the runtime has nothing for (BitwiseAnd, Col2Im, DFT, ...):
  named as not supported.

Every problem is one line naming the node; all are raised together as a ModelError.
"""

from typing import Dict, List, Optional

import numpy as np

from socsim_aot import validate

# The opsets the front end reads: 11-21 fully; 22-25 where every operator is one whose
# versions after 21 only added element types (or added nothing).
MIN_OPSET, MAX_OPSET, MAX_TYPES_ONLY_OPSET = 11, 21, 25
TARGET_OPSET = 17  # what the system's onnx checks and infers

REDUCE_18 = ("ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceMax",
             "ReduceMean", "ReduceMin", "ReduceProd", "ReduceSumSquare")
# Operators whose versions after 21 changed more than element types (ONNX 1.17-1.20), or
# which did not exist at 21: a model of opset 22-25 using them is refused.
CHANGED_AFTER_21 = {"Attention": 23, "RMSNormalization": 23, "RotaryEmbedding": 23,
                    "Swish": 24, "TensorScatter": 24}
# Operators added in opsets 18-21 (their first version): nothing in the runtime lowers them
# unless a rewrite below does.
NEW_SINCE_18 = {"BitwiseAnd": 18, "BitwiseNot": 18, "BitwiseOr": 18, "BitwiseXor": 18,
                "CenterCropPad": 18, "Col2Im": 18, "GroupNormalization": 18, "Mish": 18,
                "DeformConv": 19, "AffineGrid": 20, "Gelu": 20, "ImageDecoder": 20,
                "RegexFullMatch": 20, "StringConcat": 20, "StringSplit": 20}
# Attributes added after 17 that change nothing at these values (dropped).
NEUTRAL_ATTRIBUTES = {
    "Cast": {"saturate": 1, "round_mode": "up"}, "CastLike": {"saturate": 1, "round_mode": "up"},
    "QuantizeLinear": {"saturate": 1, "block_size": 0, "output_dtype": 0, "precision": 0},
    "DequantizeLinear": {"block_size": 0, "output_dtype": 0},
    "AveragePool": {}, "LpPool": {"ceil_mode": 0},
}


def file_opset(model) -> int:
    """The default domain's opset the model imports (17 when it imports none)."""
    opsets = {o.domain: o.version for o in model.opset_import}
    return int(opsets.get("", opsets.get("ai.onnx", TARGET_OPSET)))


def check_range(opset: int) -> Optional[str]:
    if opset < MIN_OPSET or opset > MAX_TYPES_ONLY_OPSET:
        return (f"opset {opset} is not supported (opsets {MIN_OPSET}-{MAX_OPSET}, and "
                f"{MAX_OPSET + 1}-{MAX_TYPES_ONLY_OPSET} where no operator changed but in its "
                "element types; torch.onnx.export(..., opset_version=17) gives one)")
    return None


class _Rewriter:
    def __init__(self, model, opset: int):
        self.model = model
        self.opset = opset
        self.problems: List[str] = []
        self.consts: Dict[str, np.ndarray] = {}
        self.shapes: Dict[str, list] = {}
        self.names = set()
        from onnx import numpy_helper
        for t in model.graph.initializer:
            try:
                self.consts[t.name] = numpy_helper.to_array(t)
            except Exception:  # noqa: BLE001 - validation names the tensor
                pass
        for n in model.graph.node:
            self.names.update(n.output)
            if n.op_type == "Constant" and n.domain in ("", "ai.onnx") and n.output:
                for a in n.attribute:
                    if a.name == "value" and a.HasField("t"):
                        try:
                            self.consts[n.output[0]] = numpy_helper.to_array(a.t)
                        except Exception:  # noqa: BLE001
                            pass
                    elif a.name in ("value_ints", "value_int"):
                        self.consts[n.output[0]] = np.array(
                            list(a.ints) if a.name == "value_ints" else a.i, np.int64)

    # ---- helpers ---------------------------------------------------------------------------

    def const(self, name: str) -> Optional[np.ndarray]:
        return self.consts.get(name) if name else None

    def new_const(self, base: str, array) -> str:
        from onnx import numpy_helper
        name, i = f"{base}::opset17", 0
        while name in self.names or name in self.consts:
            i += 1
            name = f"{base}::opset17_{i}"
        self.names.add(name)
        array = np.asarray(array)
        self.consts[name] = array
        self.model.graph.initializer.append(numpy_helper.from_array(array, name))
        return name

    @staticmethod
    def attr(node, name, default=None):
        from onnx import helper
        for a in node.attribute:
            if a.name == name:
                return helper.get_attribute_value(a)
        return default

    @staticmethod
    def drop_attr(node, name):
        keep = [a for a in node.attribute if a.name != name]
        del node.attribute[:]
        node.attribute.extend(keep)

    @staticmethod
    def set_attr(node, name, value):
        from onnx import helper
        _Rewriter.drop_attr(node, name)
        node.attribute.append(helper.make_attribute(name, value))

    def shape(self, name: str) -> Optional[list]:
        if name in self.consts:
            return list(self.consts[name].shape)
        return self.shapes.get(name)

    # ---- rewrites: True when done, False when it waits for shapes ------------------------------

    def rewrite(self, node, where: str) -> bool:
        """One node into its opset-17 form; a node that fails to (an attribute of a wrong
        type, a constant of a wrong shape) is a problem naming it, never an exception."""
        try:
            return self._rewrite(node, where)
        except Exception as e:  # noqa: BLE001 - a malformed node of a newer opset
            self.problems.append(f"{where}: cannot be read in its opset-17 form: "
                                 f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
            return True

    def _rewrite(self, node, where: str) -> bool:
        op = node.op_type
        if op in CHANGED_AFTER_21 and self.opset >= CHANGED_AFTER_21[op] or \
                op in NEW_SINCE_18 and op not in REWRITES:
            self.problems.append(f"{where}: not supported: no runtime operator lowers ONNX {op} "
                                 f"(opset {CHANGED_AFTER_21.get(op, NEW_SINCE_18.get(op))})")
            return True
        if op in NEUTRAL_ATTRIBUTES:
            for name, neutral in NEUTRAL_ATTRIBUTES[op].items():
                value = self.attr(node, name)
                if isinstance(value, bytes):
                    value = value.decode()
                if value is None or value == neutral:
                    self.drop_attr(node, name)
                else:
                    self.problems.append(f"{where}: attribute {name} = {value!r} is not "
                                         "supported")
            if op in ("AveragePool", "LpPool"):
                dil = self.attr(node, "dilations")
                if dil is not None and any(d != 1 for d in dil):
                    self.problems.append(f"{where}: attribute dilations = {list(dil)} is not "
                                         "supported (pooling with dilations)")
                self.drop_attr(node, "dilations")
            return True
        if op in REDUCE_18:
            return self.reduce(node, where)
        handler = REWRITES.get(op)
        return handler(self, node, where) if handler else True

    def reduce(self, node, where) -> bool:
        axes_name = node.input[1] if len(node.input) > 1 else ""
        noop = self.attr(node, "noop_with_empty_axes", 0)
        self.drop_attr(node, "noop_with_empty_axes")
        if axes_name:
            axes = self.const(axes_name)
            if axes is None:
                self.problems.append(f"{where}: input axes '{axes_name}' is not a constant "
                                     "(the runtime reduces over axes known when compiling)")
                return True
            if axes.dtype.kind not in "iu" or axes.ndim > 1:
                self.problems.append(f"{where}: input axes '{axes_name}' is {axes.dtype} "
                                     f"{list(axes.shape)}; ONNX says a 1-D int64 tensor")
                return True
            del node.input[1:]
            if axes.size:
                self.set_attr(node, "axes", [int(a) for a in axes.reshape(-1)])
                return True
        else:
            del node.input[1:]
        if noop:
            node.op_type = "Identity"
            del node.attribute[:]
        return True

    def split(self, node, where) -> bool:
        parts = self.attr(node, "num_outputs")
        if parts is None:
            return True
        if len(node.input) > 1 and node.input[1]:
            self.problems.append(f"{where}: both the split input and num_outputs are given")
            return True
        shape = self.shape(node.input[0])
        if shape is None:
            return False
        axis = self.attr(node, "axis", 0)
        if not -len(shape) <= axis < len(shape):
            self.problems.append(f"{where}: attribute axis = {axis} is outside the input's rank "
                                 f"{len(shape)}")
            return True
        length = shape[axis]
        if parts < 1 or parts != len(node.output):
            self.problems.append(f"{where}: num_outputs = {parts} but the node has "
                                 f"{len(node.output)} outputs")
            return True
        size = -(-length // parts)
        sizes = [min(size, max(length - i * size, 0)) for i in range(parts)]
        self.drop_attr(node, "num_outputs")
        del node.input[1:]
        node.input.append(self.new_const(node.name or node.output[0], np.array(sizes, np.int64)))
        return True

    def pad(self, node, where) -> bool:
        mode = self.attr(node, "mode", b"constant")
        if (mode.decode() if isinstance(mode, bytes) else mode) == "wrap":
            self.problems.append(f"{where}: not supported: Pad mode 'wrap'")
            return True
        if len(node.input) < 4 or not node.input[3]:
            del node.input[3:]
            return True
        axes, pads = self.const(node.input[3]), self.const(node.input[1])
        if axes is None or pads is None:
            self.problems.append(f"{where}: the pads and axes inputs must be constants")
            return True
        shape = self.shape(node.input[0])
        if shape is None:
            return False
        rank = len(shape)
        axes = [int(a) % rank if -rank <= a < rank else None for a in axes.reshape(-1)]
        pads = [int(p) for p in pads.reshape(-1)]
        if None in axes or len(pads) != 2 * len(axes):
            self.problems.append(f"{where}: axes {axes} and pads {pads} do not fit the input's "
                                 f"rank {rank}")
            return True
        full = [0] * (2 * rank)
        for i, a in enumerate(axes):
            full[a], full[a + rank] = pads[i], pads[i + len(axes)]
        node.input[1] = self.new_const(node.name or node.output[0], np.array(full, np.int64))
        del node.input[3:]
        return True

    def resize(self, node, where) -> bool:
        if self.attr(node, "antialias", 0):
            self.problems.append(f"{where}: not supported: Resize with antialias = 1")
            return True
        mode = self.attr(node, "coordinate_transformation_mode", b"half_pixel")
        if (mode.decode() if isinstance(mode, bytes) else mode) == "half_pixel_symmetric":
            self.problems.append(f"{where}: not supported: Resize coordinate mode "
                                 "'half_pixel_symmetric'")
            return True
        self.drop_attr(node, "antialias")
        axes = self.attr(node, "axes")
        policy = self.attr(node, "keep_aspect_ratio_policy", b"stretch")
        policy = policy.decode() if isinstance(policy, bytes) else policy
        if axes is None and policy == "stretch":
            self.drop_attr(node, "keep_aspect_ratio_policy")
            return True
        shape = self.shape(node.input[0])
        if shape is None or any(not isinstance(d, int) for d in shape):
            return False
        rank = len(shape)
        axes = list(range(rank)) if axes is None else [a % rank for a in axes]
        scales = self.const(node.input[2]) if len(node.input) > 2 and node.input[2] else None
        sizes = self.const(node.input[3]) if len(node.input) > 3 and node.input[3] else None
        if scales is not None and scales.size:
            full = np.ones(rank, np.float32)
            full[axes] = scales.reshape(-1)
            node.input[2] = self.new_const(node.name or node.output[0], full)
        elif sizes is not None:
            sizes = [int(s) for s in sizes.reshape(-1)]
            if policy != "stretch":
                ratios = [sizes[i] / shape[a] for i, a in enumerate(axes)]
                scale = min(ratios) if policy == "not_larger" else max(ratios)
                sizes = [int(np.floor(scale * shape[a] + 0.5)) for a in axes]
            full = list(shape)
            for i, a in enumerate(axes):
                full[a] = sizes[i]
            node.input[3] = self.new_const(node.name or node.output[0],
                                           np.array(full, np.int64))
        else:
            self.problems.append(f"{where}: the scales or sizes input must be a constant")
            return True
        self.drop_attr(node, "axes")
        self.drop_attr(node, "keep_aspect_ratio_policy")
        return True

    def scatter(self, node, where) -> bool:
        reduction = self.attr(node, "reduction", b"none")
        reduction = reduction.decode() if isinstance(reduction, bytes) else reduction
        if reduction in ("max", "min"):
            self.problems.append(f"{where}: not supported: reduction '{reduction}'")
        return True

    def expand(self, node, make):
        """Replaces `node` by the nodes make(x, y, temp, const) gives (in order)."""
        from onnx import helper
        x, y = node.input[0], node.output[0]
        base = node.name or y

        def temp(what):
            return f"{base}::{what}"

        def const(what, value):
            return self.new_const(f"{base}::{what}", np.array(value, np.float32))
        new = [helper.make_node(step[0], step[1], step[2], name=step[2][0],
                                **(step[3] if len(step) > 3 else {}))
               for step in make(x, y, temp, const)]
        graph = self.model.graph
        at = list(graph.node).index(node)
        graph.node.remove(node)
        for i, n in enumerate(new):
            graph.node.insert(at + i, n)
        return True

    def gelu(self, node, where) -> bool:
        """The erf form as torch 1.13 exports nn.GELU (fuse_gelu makes it one GELU again);
        the tanh form as x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))."""
        approximate = self.attr(node, "approximate", b"none")
        approximate = approximate.decode() if isinstance(approximate, bytes) else approximate
        if approximate == "none":
            return self.expand(node, lambda x, y, t, c: [
                ("Div", [x, c("sqrt2", np.sqrt(2.0))], [t("div")]),
                ("Erf", [t("div")], [t("erf")]),
                ("Add", [t("erf"), c("one", 1.0)], [t("add")]),
                ("Mul", [x, t("add")], [t("mul")]),
                ("Mul", [t("mul"), c("half", 0.5)], [y])])
        if approximate == "tanh":
            return self.expand(node, lambda x, y, t, c: [
                ("Mul", [x, x], [t("x2")]),
                ("Mul", [t("x2"), x], [t("x3")]),
                ("Mul", [t("x3"), c("k", 0.044715)], [t("kx3")]),
                ("Add", [x, t("kx3")], [t("inner")]),
                ("Mul", [t("inner"), c("s", np.sqrt(2.0 / np.pi))], [t("scaled")]),
                ("Tanh", [t("scaled")], [t("tanh")]),
                ("Add", [t("tanh"), c("one", 1.0)], [t("add")]),
                ("Mul", [x, t("add")], [t("mul")]),
                ("Mul", [t("mul"), c("half", 0.5)], [y])])
        self.problems.append(f"{where}: attribute approximate = '{approximate}' is not "
                             "'none' or 'tanh'")
        return True

    def mish(self, node, where) -> bool:
        """x * tanh(softplus(x)), softplus(x) = log(1 + exp(x))."""
        return self.expand(node, lambda x, y, t, c: [
            ("Softplus", [x], [t("softplus")]),
            ("Tanh", [t("softplus")], [t("tanh")]),
            ("Mul", [x, t("tanh")], [y])])

    def group_norm(self, node, where) -> bool:
        """GroupNormalization as torch 1.13 exports nn.GroupNorm: Reshape to [N, groups, -1],
        InstanceNormalization (scale 1, bias 0), Reshape back, Mul by the scale and Add the
        bias per channel (opset 18 gives them per group, 21 per channel)."""
        shape = self.shape(node.input[0])
        if shape is None:
            return False
        groups = int(self.attr(node, "num_groups", 0))
        scale, bias = self.const(node.input[1]), self.const(node.input[2])
        if len(shape) < 3 or groups < 1 or shape[1] % groups or scale is None or bias is None:
            self.problems.append(f"{where}: num_groups = {groups} must divide the channels of "
                                 f"{shape}, and scale and bias be constants")
            return True
        channels = shape[1]
        per_group = self.opset < 21
        if scale.size != (groups if per_group else channels) or bias.size != scale.size:
            self.problems.append(f"{where}: scale and bias need {scale.size} values")
            return True
        expand = (lambda v: np.repeat(v.reshape(-1), channels // groups)) if per_group else \
            (lambda v: v.reshape(-1))
        broadcast = (channels,) + (1,) * (len(shape) - 2)
        eps = float(self.attr(node, "epsilon", 1e-5))
        dtype = scale.dtype
        return self.expand(node, lambda x, y, t, c: [
            ("Reshape", [x, self.new_const(t("grouped_shape"),
                                           np.array([shape[0], groups, -1], np.int64))],
             [t("grouped")]),
            ("InstanceNormalization", [t("grouped"),
                                       self.new_const(t("ones"), np.ones(groups, dtype)),
                                       self.new_const(t("zeros"), np.zeros(groups, dtype))],
             [t("normalised")], dict(epsilon=eps)),
            ("Reshape", [t("normalised"), self.new_const(t("shape"), np.array(shape, np.int64))],
             [t("ungrouped")]),
            ("Mul", [t("ungrouped"), self.new_const(t("scale"),
                                                    expand(scale).reshape(broadcast))],
             [t("scaled")]),
            ("Add", [t("scaled"), self.new_const(t("bias"), expand(bias).reshape(broadcast))],
             [y])])


REWRITES = {"Split": _Rewriter.split, "Pad": _Rewriter.pad, "Resize": _Rewriter.resize,
            "ScatterElements": _Rewriter.scatter, "ScatterND": _Rewriter.scatter,
            "Gelu": _Rewriter.gelu, "Mish": _Rewriter.mish,
            "GroupNormalization": _Rewriter.group_norm}


def to_opset17(model, opset: int):
    """The model (a copy) with every node of the default domain in its opset-17 form and the
    default domain's opset import 17; raises validate.ModelError naming every node that has
    no such form."""
    import onnx
    from onnx import helper
    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    r = _Rewriter(copy, opset)
    # (node, where): one wrapper per node, kept while nodes are inserted around it.
    nodes = [(n, validate._where(n, i)) for i, n in enumerate(copy.graph.node)
             if n.domain in ("", "ai.onnx")]
    waiting = [(n, w) for n, w in nodes if not r.rewrite(n, w)]
    while waiting:  # nodes that need their input's shape: infer what is known so far
        r.shapes = _shapes_without(copy, [n for n, _ in waiting])
        still = [(n, w) for n, w in waiting if not r.rewrite(n, w)]
        if len(still) == len(waiting):
            for _, where in still:
                r.problems.append(f"{where}: its input's shape must be known when compiling "
                                  "(export with fixed shapes)")
            break
        waiting = still
    validate.raise_if(r.problems)
    others = [o for o in copy.opset_import if o.domain not in ("", "ai.onnx")]
    del copy.opset_import[:]
    copy.opset_import.extend([helper.make_opsetid("", TARGET_OPSET)] + others)
    return copy


def _shapes_without(model, waiting) -> Dict[str, list]:
    """The static shapes ONNX shape inference gives for the model without the nodes still
    waiting for shapes (their outputs, and what follows from them, stay unknown)."""
    import onnx
    from socsim_aot import onnx_graph
    from socsim_aot.ir import CompileError
    trial = onnx.ModelProto()
    trial.CopyFrom(model)
    skip = {tuple(n.output) for n in waiting}
    keep = [n for n in trial.graph.node if tuple(n.output) not in skip and
            n.domain in ("", "ai.onnx")]
    del trial.graph.node[:]
    trial.graph.node.extend(keep)
    del trial.opset_import[:]
    trial.opset_import.extend([onnx.helper.make_opsetid("", TARGET_OPSET)])
    try:
        inferred = onnx_graph.infer_shapes(validate.for_inference(trial))
    except CompileError:
        return {}
    shapes = {}
    for vi in list(inferred.input) + list(inferred.value_info) + list(inferred.output):
        t = onnx_graph._tensor_type(vi)
        if t.static:
            shapes[vi.name] = list(t.shape)
    return shapes


def lift_unchanged(model, opset: int):
    """A model of an opset below MIN_OPSET whose every operator of the default domain has the
    same version there as at MIN_OPSET (And, Or, Xor since 7, Not since 1, MatMulInteger
    since 10, ...): the same model importing MIN_OPSET, which reads identically. None when
    some operator changed in between (or is unknown)."""
    import onnx
    from onnx import defs, helper
    for node in model.graph.node:
        if node.domain not in ("", "ai.onnx"):
            continue
        try:
            old = defs.get_schema(node.op_type, opset).since_version
            new = defs.get_schema(node.op_type, MIN_OPSET).since_version
        except Exception:  # noqa: BLE001 - an operator this onnx does not know
            return None
        if old != new or any(a.type == onnx.AttributeProto.GRAPH for a in node.attribute):
            return None
    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    others = [o for o in copy.opset_import if o.domain not in ("", "ai.onnx")]
    del copy.opset_import[:]
    copy.opset_import.extend([helper.make_opsetid("", MIN_OPSET)] + others)
    return copy
