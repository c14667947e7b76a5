"""Gated activations of a value by a function of itself, fused into one operator:
x * Sigmoid(x) -> SiLU (Swish; EfficientNet, YOLO) and x * HardSigmoid(x) with torch's
constants (alpha 1/6, beta 1/2) -> HardSwish (MobileNetV3 as exported for opsets below 14).
Each runs only when the operator schema has the fused operator (SiLU: `aten::silu.out`;
HardSwish: an operator lowered from ONNX HardSwish).
"""

from socsim_aot import schema
from socsim_aot.onnx_graph import DOMAIN, OnnxGraph, OnnxOp
from socsim_aot.passes import Options, Report, fusion

SILU = "aten::silu.out"


def _gates(g: OnnxGraph):
    """(Mul node, gate node, x) for every Mul(x, gate(x)) whose gate has no other reader."""
    for mul in [n for n in g.nodes if n.op_type == "Mul" and not n.domain]:
        for gate_in, x in ((mul.inputs[1], mul.inputs[0]), (mul.inputs[0], mul.inputs[1])):
            gate = g.producer(gate_in)
            if gate is not None and not gate.domain and gate.inputs[0] == x and \
                    g.sole_consumer(gate_in) is mul:
                yield mul, gate, x
                break


def _is_hard_swish_gate(gate: OnnxOp) -> bool:
    return gate.op_type == "HardSigmoid" and \
        abs(gate.attrs.get("alpha", 0.2) - 1 / 6) < 1e-6 and \
        abs(gate.attrs.get("beta", 0.5) - 0.5) < 1e-6


def available() -> dict:
    """Gate op type -> fused op type, for the fused operators the schema has."""
    targets = {}
    if schema.find(SILU) is not None:
        targets["Sigmoid"] = "SiLU"
    if "HardSwish" in schema.onnx_operators():
        targets["HardSigmoid"] = "HardSwish"
    return targets


def fuse(g: OnnxGraph, report: Report, targets: dict):
    """Rewrites every match whose gate is a key of `targets` (gate op -> fused op)."""
    for mul, gate, x in list(_gates(g)):
        if gate.op_type not in targets or \
                (gate.op_type == "HardSigmoid" and not _is_hard_swish_gate(gate)):
            continue
        op_type = targets[gate.op_type]
        g.nodes[g.nodes.index(mul)] = OnnxOp(op_type, [x], list(mul.outputs), {}, mul.name,
                                             DOMAIN)
        g.remove(gate)
        report.add(op_type)


def run(g: OnnxGraph, options: Options) -> Report:
    targets = available()
    return fusion(g, bool(targets), "the schema has neither SiLU nor HardSwish", fuse, targets)
