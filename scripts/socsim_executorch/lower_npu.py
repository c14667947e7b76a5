"""Lowers a partition description to the npu blob with socsim's compiler (Debian's Python).

Runs under /usr/bin/python3 (numpy, onnx 1.12 from Debian): the ExecuTorch environment has
neither onnx nor the compiler's dependencies, so backend.py writes the partition as a
description (partition.py) and runs this module in a subprocess:

  /usr/bin/python3 -m socsim_executorch.lower_npu PARTITION.npz BLOB.bin [--npu-config YAML]

The description becomes the ONNX graph it denotes in QDQ form (QuantizeLinear /
DequantizeLinear around the float operators, as onnxruntime's pre-quantised models are
written), each input quantised from a float input and each output dequantised; the compiler
imports its quantisation (passes/import_qdq.py), lowers, partitions for the NPU preset and
plans memory exactly as `compile_model.py --delegate npu` does for an ONNX file, and
socsim_aot/npu_pte_blob.py turns its NPU calls into the self-contained blob.

Exit status: 0, 1 with one line `lower_npu: ...` when the partition cannot run on the NPU
as one call (the operator that stays on the CPU is named), 2 for a bad description.
"""

import argparse
import json
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from socsim_aot import compiler, npu_pte_blob  # noqa: E402
from socsim_aot.ir import CompileError  # noqa: E402
from socsim_aot import validate  # noqa: E402

OPSET = 13  # per-axis DequantizeLinear


class DescriptionError(ValueError):
    pass


def onnx_model(description: dict, arrays: dict):
    """The ONNX ModelProto of a description: {"inputs": [{name, shape}], "outputs": [name],
    "nodes": [{op_type, inputs, outputs, attrs}], "input_quant": [[scale, zp]],
    "output_quant": [[scale, zp]]}; constants are the npz's arrays by name."""
    from onnx import TensorProto, helper, numpy_helper
    nodes, inits = [], []
    for name, a in arrays.items():
        inits.append(numpy_helper.from_array(np.asarray(a), name))
    graph_inputs, graph_outputs = [], []
    for i, (inp, (scale, zp)) in enumerate(zip(description["inputs"],
                                               description["input_quant"])):
        f = inp["name"] + "__float"
        graph_inputs.append(helper.make_tensor_value_info(f, TensorProto.FLOAT, inp["shape"]))
        s, z = f"__in_scale{i}", f"__in_zp{i}"
        inits += [numpy_helper.from_array(np.array(scale, np.float32), s),
                  numpy_helper.from_array(np.array(zp, np.int8), z)]
        nodes.append(helper.make_node("QuantizeLinear", [f, s, z], [inp["name"]],
                                      name=f"quantize_input{i}"))
    for n in description["nodes"]:
        nodes.append(helper.make_node(n["op_type"], n["inputs"], n["outputs"], name=n["name"],
                                      **n.get("attrs", {})))
    for i, (out, (scale, zp)) in enumerate(zip(description["outputs"],
                                               description["output_quant"])):
        f = out + "__float"
        s, z = f"__out_scale{i}", f"__out_zp{i}"
        inits += [numpy_helper.from_array(np.array(scale, np.float32), s),
                  numpy_helper.from_array(np.array(zp, np.int8), z)]
        nodes.append(helper.make_node("DequantizeLinear", [out, s, z], [f],
                                      name=f"dequantize_output{i}"))
        graph_outputs.append(helper.make_tensor_value_info(f, TensorProto.FLOAT, None))
    graph = helper.make_graph(nodes, "partition", graph_inputs, graph_outputs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                              producer_name="socsim_executorch")
    model.ir_version = 7
    return model


def read_description(path: str):
    try:
        data = np.load(path, allow_pickle=False)
        description = json.loads(bytes(data["__description__"]).decode())
        arrays = {k: data[k] for k in data.files if k != "__description__"}
    except (OSError, ValueError, KeyError) as e:
        raise DescriptionError(f"{path}: not a partition description: {e}") from None
    return description, arrays


def compile_partition(description: dict, arrays: dict, npu_config=None):
    """The socsim program the compiler makes of a partition (with --delegate npu)."""
    import onnx
    model = onnx_model(description, arrays)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "partition.onnx")
        onnx.save(model, path)
        options = compiler.CompileOptions(delegate="npu", npu_config=npu_config)
        return compiler.compile_model(path, options)


def lower(description: dict, arrays: dict, npu_config=None) -> bytes:
    """The version-2 npu blob of a partition (CompileError / BlobError when it cannot)."""
    return npu_pte_blob.from_program(compile_partition(description, arrays, npu_config))


def reference(description: dict, arrays: dict, inputs, npu_config=None):
    """The partition's float outputs for float inputs: socsim's reference executor on the
    compiled program (quantize, the NPU layers, dequantize), bit-exact with the NPU model."""
    from socsim_aot import reference as ref
    return ref.run(compile_partition(description, arrays, npu_config), list(inputs))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Lower an ExecuTorch partition description "
                                     "to socsim's self-contained npu delegate blob.")
    parser.add_argument("description", help=".npz written by socsim_executorch.partition")
    parser.add_argument("blob", help="where the blob goes")
    parser.add_argument("--npu-config", help="NPU preset (default: the compiler's)")
    parser.add_argument("--reference", nargs=2, metavar=("INPUTS", "OUTPUTS"),
                        help="also run socsim's reference executor on the .npz INPUTS (float "
                             "inputs arr_0, arr_1, ...) and write its outputs to the .npz "
                             "OUTPUTS")
    args = parser.parse_args(argv)
    try:
        description, arrays = read_description(args.description)
        blob = lower(description, arrays, args.npu_config)
        if args.reference:
            data = np.load(args.reference[0])
            inputs = [data[f"arr_{i}"] for i in range(len(data.files))]
            outs = reference(description, arrays, inputs, args.npu_config)
            np.savez(args.reference[1], *outs)
    except DescriptionError as e:
        print(f"lower_npu: {e}", file=sys.stderr)
        return 2
    except validate.ModelError as e:
        print(f"lower_npu: {'; '.join(str(p) for p in e.problems)}", file=sys.stderr)
        return 1
    except (CompileError, npu_pte_blob.BlobError) as e:
        print(f"lower_npu: {e}", file=sys.stderr)
        return 1
    with open(args.blob, "wb") as f:
        f.write(blob)
    return 0


if __name__ == "__main__":
    sys.exit(main())
