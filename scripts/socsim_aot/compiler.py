"""ONNX -> socsim program file.

Pipeline: read the ONNX graph into a small IR of runtime operators (constant inputs folded,
Conv/Gemm followed by Relu/Clip fused), optionally quantise it to int8 (per-tensor symmetric
activations calibrated on sample inputs, per-channel symmetric weights, int32 biases,
fixed-point requantisation), optionally move operators to a delegate backend, plan memory
(tensor lifetimes, best-fit offsets in one planned buffer) and write the program file
(docs/program-format.md). The arithmetic is described in docs/runtime.md.

What is particular to an operator (which ONNX nodes lower to it, how it is quantised, its
argument values) is in its schema entry (socsim_aot/schema/); this module drives them.
"""

import argparse
import sys
from typing import Dict, List, Optional

import numpy as np

from socsim_aot import npu_partition
from socsim_aot import program_format as pf
from socsim_aot import reference
from socsim_aot import schema
from socsim_aot.ir import (INF, CompileError, Graph, Node, OnnxNode, Quantizer,  # noqa: F401
                           Value, scale_from_range)
from socsim_aot.schema import activations, conv, layouts

# ONNX operators that are no operator of their own: values, aliases, folded normalisation.
STRUCTURAL_ONNX = ("Identity", "Dropout", "Constant", "BatchNormalization")
SUPPORTED_ONNX = tuple(schema.onnx_operators()) + STRUCTURAL_ONNX


# ---- ONNX import ---------------------------------------------------------------------------

def _attrs(node):
    import onnx
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


def _np_dtype(elem_type, where):
    import onnx
    mapping = {onnx.TensorProto.FLOAT: np.float32, onnx.TensorProto.INT8: np.int8,
               onnx.TensorProto.INT32: np.int32, onnx.TensorProto.INT64: np.int64,
               onnx.TensorProto.UINT8: np.uint8}
    if elem_type not in mapping:
        raise CompileError(f"{where}: element type {elem_type} is not supported")
    return np.dtype(mapping[elem_type])


def _shape_of(vi, where):
    dims = []
    for d in vi.type.tensor_type.shape.dim:
        if not d.HasField("dim_value"):
            raise CompileError(f"{where}: value '{vi.name}' has a dynamic dimension; export "
                               "with fixed shapes")
        dims.append(int(d.dim_value))
    return dims


def load_onnx(path) -> Graph:
    """Reads an ONNX file into the IR (float32 or plain-int8 graphs)."""
    import onnx
    from onnx import numpy_helper
    try:
        model = onnx.load(path)
        model = onnx.shape_inference.infer_shapes(model)
    except Exception as e:  # protobuf decode errors and shape inference failures
        raise CompileError(f"cannot read ONNX model: {e}") from None
    g = Graph()
    onnx_graph = model.graph
    for init in onnx_graph.initializer:
        g.add_const(init.name, numpy_helper.to_array(init))
    infos = {vi.name: vi for vi in list(onnx_graph.value_info) + list(onnx_graph.input) +
             list(onnx_graph.output)}
    for vi in onnx_graph.input:
        if vi.name in g.values:
            continue
        g.values[vi.name] = Value(vi.name, _shape_of(vi, "graph input"),
                                  _np_dtype(vi.type.tensor_type.elem_type, "graph input"))
        g.inputs.append(vi.name)
    g.outputs = [o.name for o in onnx_graph.output]  # resolved through aliases below
    for node in onnx_graph.node:
        for name in node.input:
            g.use_count[name] = g.use_count.get(name, 0) + 1
    for index, node in enumerate(onnx_graph.node):
        where = f"node '{node.name or index}' (op {node.op_type})"
        if node.op_type not in SUPPORTED_ONNX:
            raise CompileError(f"{where}: operator not supported (supported: "
                               f"{', '.join(SUPPORTED_ONNX)})")
        for out in node.output:
            if out in infos and out not in g.values:
                vi = infos[out]
                g.values[out] = Value(out, _shape_of(vi, where),
                                      _np_dtype(vi.type.tensor_type.elem_type, where))
        _import_node(g, node, _attrs(node), where)
    g.outputs = [g.resolve(o.name) for o in onnx_graph.output]
    return g


def _import_node(g: Graph, node, a, where):
    op = node.op_type
    ins = [g.resolve(i) for i in node.input]
    outs = list(node.output)
    if op == "Constant":
        if "value" not in a:
            raise CompileError(f"{where}: only tensor-valued Constant is supported")
        from onnx import numpy_helper
        g.add_const(outs[0], numpy_helper.to_array(a["value"]))
        return
    if op in ("Identity", "Dropout"):
        g.alias[outs[0]] = ins[0]
        return
    onnx_node = OnnxNode(g, op, a, ins, outs, where)
    if op == "BatchNormalization":
        _fold_batch_norm(onnx_node)
        return
    target = schema.onnx_operators()[op]
    if target.lower is not None:
        target.lower(onnx_node)
    else:
        onnx_node.emit(target.name, ins)


def _fold_batch_norm(n: OnnxNode):
    g, ins, outs = n.g, n.inputs, n.outputs
    producer = [p for p in g.nodes if p.outputs[0] == ins[0] and p.op == conv.CONVOLUTION.name]
    if not producer or g.use_count.get(ins[0], 0) != 1 or ins[0] in g.outputs:
        n.fail("BatchNormalization is supported only right after a Conv")
    node = producer[0]
    scale, bias, mean, var = (n.const(i, "BN parameters") for i in ins[1:5])
    k = scale / np.sqrt(var + n.attrs.get("epsilon", 1e-5))
    w = g.value(node.inputs[1]).const * k[:, None, None, None]
    b = (g.value(node.inputs[2]).const - mean) * k + bias
    node.inputs[1] = g.add_const(outs[0] + "::weight", w.astype(np.float32))
    node.inputs[2] = g.add_const(outs[0] + "::bias", b.astype(np.float32))
    g.alias[outs[0]] = node.outputs[0]


# ---- graph passes --------------------------------------------------------------------------

FUSING_OPS = (conv.CONVOLUTION.name, conv.LINEAR.name)
ACTIVATIONS = (activations.RELU.name, activations.CLAMP.name)


def fuse_activations(g: Graph):
    """Conv/Linear followed by Relu or Clip (sole consumer, not an output) -> fused bounds."""
    for node in list(g.nodes):
        if node.op not in FUSING_OPS:
            continue
        out = node.outputs[0]
        users = g.consumers(out)
        if len(users) != 1 or out in g.outputs or users[0].op not in ACTIVATIONS:
            continue
        act = users[0]
        lo, hi = (0.0, INF) if act.op == activations.RELU.name else \
            (act.attrs["lo"], act.attrs["hi"])
        node.attrs["lo"] = max(node.attrs["lo"], lo)
        node.attrs["hi"] = min(node.attrs["hi"], hi)
        node.outputs = act.outputs
        g.nodes.remove(act)


def check_types(g: Graph):
    """Plain (unquantised) integer graphs support only the operators whose schema entry has a
    kernel for the type (wrapping int8 arithmetic, data movement); everything else must be
    float32."""
    for node in g.nodes:
        op = schema.get(node.op)
        dtypes = {g.value(i).dtype for i in node.inputs if g.value(i).const is None}
        for dt in dtypes:
            if dt == np.float32 or np.dtype(dt).name in op.dtypes:
                continue
            raise CompileError(f"{node.where}: {node.op} on {dt} tensors is not supported "
                               "(integer graphs support int8 add/sub/mul and data movement)")


def delegate_cpu_packed(g: Graph) -> int:
    """Marks int8 wrapping adds of equal shapes for the cpu-packed backend."""
    count = 0
    for node in g.nodes:
        if node.op != schema.elementwise.ADD.name or g.values[node.outputs[0]].scale > 0:
            continue
        a, b, y = (g.value(n) for n in node.inputs + node.outputs)
        if a.dtype == b.dtype == y.dtype == np.int8 and a.shape == b.shape == y.shape and \
                a.const is None and b.const is None:
            node.attrs["delegate"] = "cpu-packed"
            count += 1
    return count


# ---- quantisation --------------------------------------------------------------------------

def quantize_graph(g: Graph, ranges: Dict[str, float]):
    """Turns a calibrated float graph into an int8 graph with float32 inputs and outputs."""
    for name in list(g.values):
        v = g.values[name]
        if v.const is None and v.dtype == np.float32:
            v.scale = scale_from_range(ranges.get(name, 0.0))
    new_nodes = []
    # Inputs: quantize right after entry.
    renames = {}
    for name in g.inputs:
        v = g.values[name]
        q = Value(name + "::q", v.shape, np.dtype(np.int8), scale=v.scale)
        g.values[q.name] = q
        new_nodes.append(Node(schema.quantization.QUANTIZE.name, [name], [q.name], {},
                              f"graph input '{name}'"))
        renames[name] = q.name
    quantizer = Quantizer(g, new_nodes)
    for node in g.nodes:
        node.inputs = [renames.get(i, i) for i in node.inputs]
        op = schema.get(node.op)
        if op.quantize is not None:
            op.quantize(quantizer, node)
        y = g.values[node.outputs[0]]
        if y.dtype == np.float32:
            y.dtype = np.dtype(np.int8)
        if op.quantized:
            node.op = op.quantized
        new_nodes.append(node)
    # Outputs: dequantize back to float32 under the original names.
    final_outputs = []
    for name in g.outputs:
        v = g.values[name]
        q = Value(name + "::q", v.shape, np.dtype(np.int8), scale=v.scale,
                  zero_point=v.zero_point)
        g.values[q.name] = q
        for node in new_nodes:
            node.inputs = [q.name if i == name else i for i in node.inputs]
            node.outputs = [q.name if o == name else o for o in node.outputs]
        f = Value(name, v.shape, np.dtype(np.float32))
        g.values[name] = f
        new_nodes.append(Node(schema.quantization.DEQUANTIZE.name, [q.name], [name], {},
                              f"graph output '{name}'"))
        final_outputs.append(name)
    g.nodes = new_nodes
    g.outputs = final_outputs


# ---- lowering to program instructions ------------------------------------------------------

def kernel_args(g: Graph, node: Node) -> List[int]:
    """The argument words of a node (its schema entry computes the values by name)."""
    op = schema.get(node.op)
    values = op.arg_values(g, node) if op.arg_values is not None else {}
    try:
        return schema.pack_args(op, values)
    except ValueError as e:
        raise CompileError(f"{node.where}: {e}") from None


def plan_memory(sizes: Dict[int, int], lifetimes: Dict[int, tuple]):
    """Best-fit offsets for tensors whose lifetimes overlap.

    Tensors are placed largest first; each goes into the smallest gap between already
    placed tensors that are alive at the same time, or after them. Returns (offsets, size).
    """
    offsets: Dict[int, int] = {}
    order = sorted(sizes, key=lambda t: (-sizes[t], t))
    for t in order:
        size = (sizes[t] + 15) // 16 * 16
        first, last = lifetimes[t]
        busy = sorted((offsets[o], offsets[o] + (sizes[o] + 15) // 16 * 16) for o in offsets
                      if not (lifetimes[o][1] < first or last < lifetimes[o][0]))
        best, best_gap, cursor = None, None, 0
        for start, end in busy:
            gap = start - cursor
            if gap >= size and (best_gap is None or gap < best_gap):
                best, best_gap = cursor, gap
            cursor = max(cursor, end)
        offsets[t] = best if best is not None else cursor
    total = max((offsets[t] + (sizes[t] + 15) // 16 * 16 for t in offsets), default=0)
    return offsets, total


def emit_program(g: Graph) -> pf.Program:
    ids: Dict[str, int] = {}
    tensors: List[pf.Tensor] = []

    def tid(name):
        name = g.resolve(name)
        if name not in ids:
            v = g.values[name]
            t = pf.Tensor(dtype=pf.dtype_code(v.dtype), shape=list(v.shape), name=name)
            if v.const is not None:
                t.constant = v.const
            if v.channel_scales is not None:
                t.quant, t.axis, t.scales = pf.QUANT_PER_CHANNEL, 0, v.channel_scales
                t.zero_points = np.zeros(len(v.channel_scales), np.int32)
            elif v.scale > 0 and v.dtype == np.int8:
                t.quant, t.scale, t.zero_point = pf.QUANT_PER_TENSOR, v.scale, v.zero_point
            ids[name] = len(tensors)
            tensors.append(t)
        return ids[name]

    inputs = [tid(n) for n in g.inputs]
    instructions, delegates = [], []
    npu_emitted = set()
    for node in g.nodes:
        segment = node.attrs.get("npu_segment")
        if segment is not None:  # one delegate call per NPU segment (npu_partition.py)
            if segment not in npu_emitted:
                npu_emitted.add(segment)
                ins, outs, blob = npu_partition.segment_call(
                    g, g.npu_segments[segment], tid, lambda n: kernel_args(g, n))
                delegates.append(pf.Delegate(npu_partition.BACKEND_ID, blob))
                instructions.append(pf.Instruction("", ins, outs, [], len(delegates) - 1))
            continue
        ins = [tid(i) for i in node.inputs]
        outs = [tid(o) for o in node.outputs]
        if node.attrs.get("delegate") == "cpu-packed":
            n = int(np.prod(g.values[node.outputs[0]].shape))
            blob = layouts.CPU_PACKED_BLOB.pack(
                magic=layouts.CPU_PACKED_MAGIC, version=layouts.CPU_PACKED_VERSION,
                op=layouts.CPU_PACKED_OP_ADD, elements=n)
            delegates.append(pf.Delegate("cpu-packed", blob))
            instructions.append(pf.Instruction("", ins, outs, [], len(delegates) - 1))
        else:
            instructions.append(pf.Instruction(node.op, ins, outs, kernel_args(g, node)))
    outputs = [tid(n) for n in g.outputs]
    for o in outputs:
        if tensors[o].is_constant:
            raise CompileError(f"graph output '{tensors[o].name}' is a constant")
    # Lifetimes in instruction steps; inputs and outputs live for the whole program so that
    # repeated executions and reading outputs afterwards are safe.
    end = len(instructions)
    life: Dict[int, list] = {}
    for t in inputs:
        life[t] = [0, end]
    for step, ins in enumerate(instructions):
        for t in ins.inputs + ins.outputs:
            if not tensors[t].is_constant:
                span = life.setdefault(t, [step, step])
                span[0], span[1] = min(span[0], step), max(span[1], step)
    for t in outputs:
        life[t][1] = end
    offsets, total = plan_memory({t: tensors[t].nbytes for t in life},
                                 {t: tuple(v) for t, v in life.items()})
    for t, off in offsets.items():
        tensors[t].buffer, tensors[t].offset = 0, off
    return pf.Program(tensors, instructions, [total], delegates, inputs, outputs)


# ---- driver --------------------------------------------------------------------------------

def calibrate(g: Graph, samples: List[List[np.ndarray]]) -> Dict[str, float]:
    """Runs the float program on each sample and returns max |value| per IR value."""
    program = emit_program(g)
    names = {i: t.name for i, t in enumerate(program.tensors)}
    ranges: Dict[str, float] = {}
    for sample in samples:
        trace = {}
        reference.run(program, sample, trace)
        for i, value in trace.items():
            if program.tensors[i].is_constant:
                continue
            m = float(np.abs(value).max()) if value.size else 0.0
            ranges[names[i]] = max(ranges.get(names[i], 0.0), m)
    return ranges


def compile_graph(g: Graph, quantize: Optional[str] = None, samples=None,
                  delegate: Optional[str] = None, npu_config: Optional[str] = None) -> pf.Program:
    fuse_activations(g)
    check_types(g)
    if quantize == "int8":
        if any(g.values[i].dtype != np.float32 for i in g.inputs):
            raise CompileError("int8 quantisation needs a float32 model")
        if not samples:
            raise CompileError("int8 quantisation needs calibration samples")
        quantize_graph(g, calibrate(g, samples))
    if delegate == "cpu-packed":
        delegate_cpu_packed(g)
    elif delegate == "npu":
        if not npu_config:
            raise CompileError("--delegate npu needs --npu-config PRESET.yaml")
        try:
            operators = npu_partition.load_npu_operators(npu_config)
        except npu_partition.NpuConfigError as e:
            raise CompileError(str(e)) from None
        g.npu_segments = npu_partition.partition(g, operators)
    elif delegate is not None:
        raise CompileError(f"unknown delegate '{delegate}' (known: cpu-packed, npu)")
    return emit_program(g)


def random_samples(g: Graph, count: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    return [[rng.standard_normal(g.values[i].shape).astype(np.float32) for i in g.inputs]
            for _ in range(count)]


def operator_list(program: pf.Program) -> List[str]:
    return sorted({ins.name for ins in program.instructions if ins.name})


def compile_file(model_path, out_path, quantize=None, calibration=None, delegate=None,
                 samples_count=8, seed=0, npu_config=None) -> pf.Program:
    g = load_onnx(model_path)
    samples = None
    if quantize == "int8":
        if calibration:
            data = np.load(calibration)
            arrays = [data[k] for k in sorted(data.files)]
            samples = [[a[i] for a in arrays] for i in range(len(arrays[0]))]
        else:
            samples = random_samples(g, samples_count, seed)
    program = compile_graph(g, quantize, samples, delegate, npu_config)
    data = pf.write(program)
    pf.read(data)  # the file must verify exactly as the firmware will
    with open(out_path, "wb") as f:
        f.write(data)
    return program


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description="Compile an ONNX model into a socsim program file: operators lowered to "
                    "the runtime's kernels, optional int8 quantisation, optional delegation, "
                    "ahead-of-time memory plan. The file format is in docs/program-format.md, "
                    "the operators and their integer arithmetic in docs/runtime.md.",
        epilog="Examples:\n  compile_model.py add8.onnx -o add8.prog --delegate cpu-packed\n"
               "  compile_model.py net.onnx -o net_int8.prog --quantize int8 "
               "--calibration samples.npz\n",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model", nargs="?", help="ONNX model with fixed input shapes")
    parser.add_argument("-o", "--output", help="program file to write")
    parser.add_argument("--quantize", choices=["int8"],
                        help="quantise a float32 model: int8 activations (per-tensor, "
                             "symmetric), int8 weights (per output channel, symmetric), "
                             "int32 biases; inputs and outputs stay float32")
    parser.add_argument("--calibration", metavar="NPZ",
                        help="calibration inputs: an .npz whose arrays (sorted by name, one "
                             "per model input) hold samples along axis 0; default: random "
                             "normal samples")
    parser.add_argument("--samples", type=int, default=8,
                        help="number of random calibration samples (default 8)")
    parser.add_argument("--delegate", choices=["cpu-packed", "npu"],
                        help="move supported operators to a delegate backend (cpu-packed: "
                             "int8 elementwise add, four bytes per word; npu: the int8 "
                             "operators the --npu-config preset lists, as layer descriptors "
                             "for the NPU, docs/npu.md)")
    parser.add_argument("--npu-config", metavar="PRESET",
                        help="NPU preset (configs/npu/*.yaml) whose operator list decides "
                             "what --delegate npu moves to the NPU")
    parser.add_argument("--print-ops", action="store_true",
                        help="print the operators the program needs, as a SOCSIM_KERNEL_OPS "
                             "list for a selective firmware build")
    parser.add_argument("--list-operators", action="store_true",
                        help="print every operator of the runtime (the operator schema): "
                             "kernel dtypes, inputs, arguments, ONNX operators, NPU layer")
    args = parser.parse_args(argv)
    if args.list_operators:
        print(schema.operator_table())
        return 0
    if not args.model:
        parser.error("give an ONNX model (or --list-operators)")
    if not args.output and not args.print_ops:
        parser.error("give -o/--output and/or --print-ops")
    try:
        if args.output:
            program = compile_file(args.model, args.output, args.quantize, args.calibration,
                                   args.delegate, args.samples, npu_config=args.npu_config)
        else:
            g = load_onnx(args.model)
            samples = random_samples(g, 1) if args.quantize else None
            program = compile_graph(g, args.quantize, samples, args.delegate, args.npu_config)
    except CompileError as e:
        print(f"compile_model: {args.model}: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"compile_model: {e}", file=sys.stderr)
        return 1
    if args.print_ops:
        print(";".join(operator_list(program)))
    if args.output:
        kernels = sum(1 for i in program.instructions if i.name)
        print(f"compile_model: wrote {args.output}: {len(program.tensors)} tensors, "
              f"{kernels} kernel calls, {len(program.delegates)} delegate calls, "
              f"planned memory {program.buffers[0]} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
