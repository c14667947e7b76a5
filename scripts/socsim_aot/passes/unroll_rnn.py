"""ONNX LSTM and GRU unrolled over their (static) sequence into the operators the runtime has:
one Gemm for the input projection of every step, then per step a Gemm of the hidden state,
Add, Split, Sigmoid, Tanh, Mul (and Sub for GRU) -- the nodes torch exports for nn.LSTMCell
and nn.GRUCell. Quantised, every gate, cell state and hidden state of every step is a value
of its own with its own calibrated scale, under the int8 rules of those operators
(docs/compiler.md, "Recurrent layers").

The arithmetic is ONNX's (operator docs of LSTM-14 and GRU-14), default activations only:

  LSTM, gates i, o, f, c in W [dirs, 4H, I], R [dirs, 4H, H], B [dirs, 8H] (Wb then Rb):
    g = X_t W^T + H R^T + Wb + Rb;  i, o, f = sigmoid;  c = tanh
    C' = f C + i c;  H' = o tanh(C')
  GRU, gates z, r, h in W [dirs, 3H, I], R [dirs, 3H, H], B [dirs, 6H]:
    z, r = sigmoid(X_t W^T + H R^T + Wb + Rb)  (their rows)
    h = tanh(X_t Wh^T + Wbh + r (H Rh^T + Rbh))       linear_before_reset = 1 (torch)
    h = tanh(X_t Wh^T + Wbh + (r H) Rh^T + Rbh)       linear_before_reset = 0
    H' = (1 - z) h + z H = h + z (H - h)

Directions forward, reverse and bidirectional (both, outputs concatenated on the direction
axis). An absent or all-zero initial state drops the terms it would multiply; a constant one
is folded into the first step. Nodes this pass cannot unroll (peepholes, clip, other
activations, sequence_lens shorter than the sequence, layout=1) stay and are reported by
lowering with the reason.
"""

from typing import List, Optional, Union

import numpy as np

from socsim_aot.onnx_graph import OnnxGraph, OnnxOp
from socsim_aot.passes import Options, Report

# A value while unrolling: None (known to be zero), a numpy constant, or a value name.
Term = Union[None, np.ndarray, str]

_DEFAULT_ACTIVATIONS = {"LSTM": ("Sigmoid", "Tanh", "Tanh"), "GRU": ("Sigmoid", "Tanh")}
_GATES = {"LSTM": 4, "GRU": 3}


class _Unroller:
    """Emits the nodes replacing one recurrent node, in order."""

    def __init__(self, g: OnnxGraph, node: OnnxOp):
        self.g, self.node, self.nodes = g, node, []

    def op(self, op_type: str, inputs: List[Term], outputs: int = 1, name: str = "",
           out: Optional[List[str]] = None, **attrs):
        ins = [self.const(i) if isinstance(i, np.ndarray) else i for i in inputs]
        outs = out or [self.g.fresh(f"{self.node.name}/{name or op_type}")
                       for _ in range(outputs)]
        self.nodes.append(OnnxOp(op_type, ins, outs, attrs,
                                 self.g.fresh(f"{self.node.name}/{name or op_type}")))
        return outs if outputs > 1 else outs[0]

    def const(self, array: np.ndarray) -> str:
        return self.g.add_const(f"{self.node.name}/const", np.asarray(array))

    def ints(self, values) -> str:
        return self.const(np.asarray(values, np.int64))

    # Arithmetic on terms: zero and constant operands fold in numpy.
    def add(self, a: Term, b: Term) -> Term:
        if a is None or (isinstance(a, np.ndarray) and not np.any(a)):
            return b
        if b is None or (isinstance(b, np.ndarray) and not np.any(b)):
            return a
        if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
            return (a + b).astype(np.float32)
        return self.op("Add", [a, b])

    def mul(self, a: Term, b: Term) -> Term:
        if a is None or b is None:
            return None
        if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
            return (a * b).astype(np.float32)
        return self.op("Mul", [a, b])

    def sub(self, a: Term, b: Term) -> Term:
        if b is None:
            return a
        if a is None:
            raise ValueError("sub from zero")  # callers rewrite 0 - b
        return self.op("Sub", [a, b])

    def linear(self, x: Term, w: np.ndarray, bias: Optional[np.ndarray]) -> Term:
        """x [batch, K] times w [N, K]^T plus bias: a Gemm, folded for a constant x."""
        if x is None:
            return None if bias is None else bias.astype(np.float32)
        if isinstance(x, np.ndarray):
            y = x.astype(np.float64) @ w.T.astype(np.float64)
            return (y + (0 if bias is None else bias)).astype(np.float32)
        ins = [x, w.astype(np.float32)] + ([bias.astype(np.float32)] if bias is not None else [])
        return self.op("Gemm", ins, transB=1)

    def split(self, x: Term, sizes: List[int]) -> List[Term]:
        """x [batch, sum(sizes)] cut along axis 1."""
        if x is None or isinstance(x, np.ndarray):
            if x is None:
                return [None] * len(sizes)
            cuts = np.cumsum(sizes)[:-1]
            return [p if np.any(p) else None for p in np.split(x, cuts, axis=-1)]
        return self.op("Split", [x, self.ints(sizes)], outputs=len(sizes), axis=1) \
            if len(sizes) > 1 else [x]


def _why_not(g: OnnxGraph, node: OnnxOp) -> str:
    """Why this pass cannot unroll the node, or ''."""
    a = node.attrs
    acts = tuple(x.decode() if isinstance(x, bytes) else x for x in a.get("activations", []))
    default = _DEFAULT_ACTIVATIONS[node.op_type]
    dirs = 2 if _direction(node) == "bidirectional" else 1
    if acts and acts != default * dirs:
        return f"activations {list(acts)} (only the defaults {list(default)})"
    if a.get("clip") is not None:
        return "clip"
    if a.get("input_forget", 0):
        return "input_forget=1"
    if a.get("layout", 0):
        return "layout=1 (batch-first ONNX layout; torch exports batch_first with Transposes)"
    if _direction(node) not in ("forward", "reverse", "bidirectional"):
        return f"direction={_direction(node)}"
    for index, what in ((1, "W"), (2, "R")):
        if g.const(node.inputs[index]) is None:
            return f"{what} is not a constant"
    if len(node.inputs) > 3 and node.inputs[3] and g.const(node.inputs[3]) is None:
        return "B is not a constant"
    shape = g.shape(node.inputs[0])
    if shape is None or len(shape) != 3:
        return "the input X has no static 3-D shape"
    if len(node.inputs) > 4 and node.inputs[4]:
        lens = g.const(node.inputs[4])
        if lens is None or np.any(np.asarray(lens) != shape[0]):
            return "sequence_lens shorter than the sequence (or not a constant)"
    if node.op_type == "LSTM" and len(node.inputs) > 7 and node.inputs[7]:
        p = g.const(node.inputs[7])
        if p is None or np.any(p):
            return "peepholes (P)"
    return ""


def _direction(node: OnnxOp) -> str:
    d = node.attrs.get("direction", "forward")
    return d.decode() if isinstance(d, bytes) else d


def _initial(u: "_Unroller", index: int, d: int, batch: int, hidden: int) -> Term:
    """Direction d's initial state [batch, H] from input `index` [dirs, batch, H]: None if
    absent or zero, a constant, or a Slice of the activation."""
    node, g = u.node, u.g
    if len(node.inputs) <= index or not node.inputs[index]:
        return None
    value = g.const(node.inputs[index])
    if value is not None:
        state = np.asarray(value[d], np.float32)
        return state if np.any(state) else None
    part = u.op("Slice", [node.inputs[index], u.ints([d]), u.ints([d + 1]), u.ints([0])])
    return u.op("Reshape", [part, u.ints([batch, hidden])])


def _unroll(g: OnnxGraph, node: OnnxOp) -> List[OnnxOp]:
    u = _Unroller(g, node)
    kind = node.op_type
    gates = _GATES[kind]
    seq, batch, features = g.shape(node.inputs[0])
    w_all, r_all = g.const(node.inputs[1]), g.const(node.inputs[2])
    hidden = r_all.shape[-1]
    b_all = g.const(node.inputs[3]) if len(node.inputs) > 3 and node.inputs[3] else \
        np.zeros((w_all.shape[0], 2 * gates * hidden), np.float32)
    lbr = int(node.attrs.get("linear_before_reset", 0))
    direction = _direction(node)
    dirs = ["forward", "reverse"] if direction == "bidirectional" else [direction]
    x2d = u.op("Reshape", [node.inputs[0], u.ints([seq * batch, features])])
    ys, last_h, last_c = [], [], []
    for d, way in enumerate(dirs):
        w, r = w_all[d].astype(np.float32), r_all[d].astype(np.float32)
        wb, rb = (b_all[d][:gates * hidden], b_all[d][gates * hidden:])
        if kind == "GRU":  # Rbh stays with the hidden state's product
            in_bias = wb + np.concatenate([rb[:2 * hidden], np.zeros(hidden, np.float32)])
        else:
            in_bias = wb + rb
        projected = u.op("Gemm", [x2d, w, in_bias.astype(np.float32)], transB=1,
                         name=f"input_projection{d}")
        h = _initial(u, 5, d, batch, hidden)
        c = _initial(u, 6, d, batch, hidden) if kind == "LSTM" else None
        outputs = [None] * seq
        steps = range(seq) if way == "forward" else range(seq - 1, -1, -1)
        for t in steps:
            x_t = u.op("Slice", [projected, u.ints([t * batch]), u.ints([(t + 1) * batch]),
                                 u.ints([0])])
            if kind == "LSTM":
                pre = u.add(x_t, u.linear(h, r, None))
                i, o, f, cand = u.split(pre, [hidden] * 4)
                i, o, f = (u.op("Sigmoid", [v]) for v in (i, o, f))
                cand = u.op("Tanh", [cand])
                c = u.add(u.mul(f, c), u.mul(i, cand))
                h = u.mul(o, u.op("Tanh", [c]))
            else:
                x_zr, x_h = u.split(x_t, [2 * hidden, hidden])
                rh_bias = rb[2 * hidden:]
                if lbr:
                    h_zr, h_h = u.split(u.linear(h, r, np.concatenate(
                        [np.zeros(2 * hidden, np.float32), rh_bias])), [2 * hidden, hidden])
                else:
                    h_zr = u.linear(h, r[:2 * hidden], None)
                z, r_gate = u.split(u.op("Sigmoid", [u.add(x_zr, h_zr)]), [hidden, hidden])
                if lbr:
                    gated = u.mul(r_gate, h_h)
                else:
                    gated = u.linear(u.mul(r_gate, h), r[2 * hidden:], rh_bias)
                cand = u.op("Tanh", [u.add(x_h, gated)])
                h = u.sub(cand, u.mul(z, cand)) if h is None else \
                    u.add(cand, u.mul(z, u.sub(h, cand)))
            outputs[t] = h
        ys.append(outputs)
        last_h.append(h)
        last_c.append(c)
    _outputs(u, node, ys, last_h, last_c)
    return u.nodes


def _outputs(u: _Unroller, node: OnnxOp, ys, last_h, last_c):
    """Y [seq, dirs, batch, H], Y_h and Y_c [dirs, batch, H] under the node's output names."""
    names = list(node.outputs) + [""] * (3 - len(node.outputs))
    if names[0]:
        per_dir = []
        for outputs in ys:
            steps = [u.op("Unsqueeze", [h, u.ints([0, 1])]) for h in outputs]
            per_dir.append(steps)
        if len(per_dir) == 1:
            u.op("Concat", per_dir[0], out=[names[0]], axis=0)
        else:
            joined = [u.op("Concat", list(pair), axis=1) for pair in zip(*per_dir)]
            u.op("Concat", joined, out=[names[0]], axis=0)
    for name, states in ((names[1], last_h), (names[2], last_c)):
        if name:
            u.op("Concat", [u.op("Unsqueeze", [s, u.ints([0])]) for s in states],
                 out=[name], axis=0)


def run(g: OnnxGraph, options: Options) -> Report:
    report = Report()
    for node in [n for n in g.nodes if n.op_type in _GATES and not n.domain]:
        why = _why_not(g, node)
        if why:
            node.note = f"not supported: {why}"
            continue
        at = g.nodes.index(node)
        g.nodes[at:at + 1] = _unroll(g, node)
        report.add(node.op_type)
    if report.count:
        g.infer_types()
    return report
