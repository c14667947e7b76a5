"""The self-contained npu blob (socsim_aot/npu_pte_blob.py) and the partition lowering of
socsim_executorch/lower_npu.py, without torch 2: a partition described by hand (the QDQ form
ExecuTorch's PT2E graphs take) is compiled, packed and checked field by field. The reference
executor runs the blob: small int8 models compiled with the NPU delegate as `.pte` give the
same outputs as compiled as `.prog`, and broken blobs are refused naming the field."""

import os
import struct
import tempfile
import unittest

import numpy as np

from socsim_aot import compiler
from socsim_aot import npu_partition
from socsim_aot import npu_pte_blob
from socsim_aot import pte_format
from socsim_aot import reference
from socsim_aot import schema
from socsim_executorch import lower_npu
from socsim_schema import layouts

KIND = layouts.NPU_ADDR_KINDS


def conv_relu_description(op="Relu"):
    """int8 input -> DQ -> Conv(+bias) -> activation -> Q -> int8 output, then a second
    convolution reading the first's result (an intermediate in the scratch memory)."""
    rng = np.random.default_rng(0)
    arrays = {
        "w1": rng.integers(-127, 128, (8, 3, 3, 3)).astype(np.int8),
        "w1_scales": np.full(8, 0.01, np.float32), "w1_zps": np.zeros(8, np.int8),
        "b1": rng.standard_normal(8).astype(np.float32),
        "w2": rng.integers(-127, 128, (4, 8, 1, 1)).astype(np.int8),
        "w2_scales": np.full(4, 0.02, np.float32), "w2_zps": np.zeros(4, np.int8),
        "s_in": np.float32(0.05), "s_mid": np.float32(0.1), "s_out": np.float32(0.2),
        "zp": np.int8(0),
    }
    conv = dict(strides=[1, 1], pads=[1, 1, 1, 1], dilations=[1, 1], group=1,
                kernel_shape=[3, 3])
    nodes = [
        dict(op_type="DequantizeLinear", name="dq_x", inputs=["x", "s_in", "zp"],
             outputs=["dq_x"]),
        dict(op_type="DequantizeLinear", name="dq_w1", inputs=["w1", "w1_scales", "w1_zps"],
             outputs=["dq_w1"], attrs=dict(axis=0)),
        dict(op_type="Conv", name="conv1", inputs=["dq_x", "dq_w1", "b1"], outputs=["c1"],
             attrs=conv),
        dict(op_type=op, name="act1", inputs=["c1"], outputs=["a1"]),
        dict(op_type="QuantizeLinear", name="q1", inputs=["a1", "s_mid", "zp"], outputs=["q1"]),
        dict(op_type="DequantizeLinear", name="dq1", inputs=["q1", "s_mid", "zp"],
             outputs=["dq1"]),
        dict(op_type="DequantizeLinear", name="dq_w2", inputs=["w2", "w2_scales", "w2_zps"],
             outputs=["dq_w2"], attrs=dict(axis=0)),
        dict(op_type="Conv", name="conv2", inputs=["dq1", "dq_w2"], outputs=["c2"],
             attrs=dict(conv, pads=[0, 0, 0, 0], kernel_shape=[1, 1])),
        dict(op_type="QuantizeLinear", name="q2", inputs=["c2", "s_out", "zp"], outputs=["y"]),
    ]
    description = dict(inputs=[dict(name="x", shape=[1, 3, 8, 8])], input_quant=[[0.05, 0]],
                       outputs=["y"], output_quant=[[0.2, 0]], nodes=nodes)
    return description, arrays


def slots(blob):
    fields = npu_pte_blob.describe(blob)
    out = []
    for k in range(fields["layer_count"]):
        d = layouts.NPU_DESCRIPTOR.unpack(blob, fields["descriptors_offset"] +
                                          k * layouts.NPU_DESCRIPTOR.size)
        out.append(d["addr"])
    return fields, out


class SelfContainedBlob(unittest.TestCase):
    def test_layout(self):
        description, arrays = conv_relu_description()
        blob = lower_npu.lower(description, arrays)
        fields, addrs = slots(blob)
        self.assertEqual(fields["magic"], layouts.NPU_BLOB_MAGIC)
        self.assertEqual(fields["version"], layouts.NPU_BLOB_VERSION_SELF_CONTAINED)
        self.assertEqual(fields["layer_count"], 2)  # the ReLU fused into the first conv
        self.assertEqual((fields["input_count"], fields["output_count"]), (1, 1))
        self.assertEqual(fields["constants_offset"] % layouts.NPU_CONSTANT_ALIGNMENT, 0)
        self.assertEqual(fields["constants_offset"] + fields["constants_size"], len(blob))
        inp, out = layouts.NPU_SLOTS.index("input"), layouts.NPU_SLOTS.index("output")
        first, second = addrs
        self.assertEqual(first[inp], KIND["call"] << layouts.NPU_ADDR_KIND_SHIFT | 0)
        self.assertEqual(second[out], KIND["call"] << layouts.NPU_ADDR_KIND_SHIFT | 1)
        # The intermediate result: written by the first layer, read by the second, scratch.
        self.assertEqual(first[out], second[inp])
        self.assertEqual(first[out] >> layouts.NPU_ADDR_KIND_SHIFT, KIND["scratch"])
        self.assertGreaterEqual(fields["scratch_size"], 8 * 8 * 8)
        # The weights are constants, their bytes in the blob as the model gives them.
        w = layouts.NPU_SLOTS.index("weights")
        self.assertEqual(first[w] >> layouts.NPU_ADDR_KIND_SHIFT, KIND["constant"])
        at = fields["constants_offset"] + (first[w] & layouts.NPU_ADDR_OFFSET_MASK)
        self.assertEqual(blob[at:at + arrays["w1"].size], arrays["w1"].tobytes())

    def test_deterministic(self):
        a = lower_npu.lower(*conv_relu_description())
        b = lower_npu.lower(*conv_relu_description())
        self.assertEqual(a, b)

    def test_reference_runs(self):
        description, arrays = conv_relu_description()
        x = (np.random.default_rng(1).integers(-100, 100, (1, 3, 8, 8)) * 0.05).astype(
            np.float32)
        (y,) = lower_npu.reference(description, arrays, [x])
        self.assertEqual(list(y.shape), [1, 4, 8, 8])
        self.assertTrue(np.all(np.isfinite(y)))

    def test_cpu_operator_refused(self):
        # Softmax is no NPU layer: it would stay on the CPU, so the partition is refused.
        description, arrays = conv_relu_description(op="Softmax")
        description["nodes"][3]["attrs"] = dict(axis=1)
        with self.assertRaises(npu_pte_blob.BlobError) as e:
            lower_npu.lower(description, arrays)
        self.assertIn("stays on the CPU", str(e.exception))

    def test_reference_runs_the_blob_with_scratch(self):
        # The blob of a partition (its intermediate result in the scratch memory) run on the
        # quantised input gives the int8 result the compiled partition gives.
        description, arrays = conv_relu_description()
        program = lower_npu.compile_partition(description, arrays)
        blob = npu_pte_blob.from_program(program)
        x = (np.random.default_rng(2).integers(-100, 100, (1, 3, 8, 8)) * 0.05).astype(
            np.float32)
        trace = {}
        reference.run(program, [x], trace)
        (quantize,) = [i for i in program.instructions if i.name == npu_pte_blob.QUANTIZE]
        (dequantize,) = [i for i in program.instructions if i.name == npu_pte_blob.DEQUANTIZE]
        want = trace[dequantize.inputs[0]]
        (got,) = npu_partition.run_blob(blob, [trace[quantize.outputs[0]]], [want.shape],
                                        reference.run_operator)
        self.assertEqual(got.dtype, np.int8)
        np.testing.assert_array_equal(got, want)


# ---- the reference executor on `.pte` programs with npu delegate calls -------------------------

PRESET = os.path.join(os.path.dirname(__file__), "..", "..", "configs", "npu", "rk3588-like.yaml")


def _onnx_model(path, nodes, inits, inputs, outputs):
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    graph = helper.make_graph(
        nodes, "m", [helper.make_tensor_value_info(n, TensorProto.FLOAT, s)
                     for n, s in inputs.items()],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in outputs],
        [numpy_helper.from_array(v, k) for k, v in inits.items()])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)


def _weights(seed, *shape):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) / np.sqrt(np.prod(shape[1:]))).astype(np.float32)


def _models():
    """name -> (nodes, initialisers, inputs, outputs, the NPU layers the program must have)."""
    from onnx import helper as h
    conv = schema.conv.QUANTIZED_CONVOLUTION.npu.opcode
    x = {"x": [1, 8, 8, 8]}
    return {
        "conv": ([h.make_node("Conv", ["x", "w", "b"], ["y0"], pads=[1, 1, 1, 1]),
                  h.make_node("Relu", ["y0"], ["y"])],
                 {"w": _weights(1, 16, 8, 3, 3), "b": _weights(2, 16)}, x, ["y"], {conv}),
        "depthwise": ([h.make_node("Conv", ["x", "w"], ["y"], pads=[1, 1, 1, 1], group=8,
                                   strides=[2, 2])],
                      {"w": _weights(3, 8, 1, 3, 3)}, x, ["y"], {conv}),
        # the sum of two activations, a sigmoid fused after a convolution (its table)
        "add_sigmoid": ([h.make_node("Conv", ["x", "w1"], ["a"]),
                         h.make_node("Conv", ["x", "w2"], ["b"]),
                         h.make_node("Add", ["a", "b"], ["s"]),
                         h.make_node("Conv", ["s", "w3"], ["c"]),
                         h.make_node("Sigmoid", ["c"], ["y"])],
                        {"w1": _weights(4, 8, 8, 1, 1), "w2": _weights(5, 8, 8, 1, 1),
                         "w3": _weights(6, 8, 8, 1, 1)}, x, ["y"],
                        {conv, schema.elementwise.QUANTIZED_ADD.npu.opcode,
                         schema.activations.QUANTIZED_SIGMOID.npu.opcode}),
        "pool": ([h.make_node("MaxPool", ["x"], ["m"], kernel_shape=[2, 2], strides=[2, 2]),
                  h.make_node("AveragePool", ["x"], ["a"], kernel_shape=[3, 3],
                              pads=[1, 1, 1, 1]),
                  h.make_node("GlobalAveragePool", ["a"], ["g"])],
                 {}, x, ["m", "g"],
                 {op.npu.opcode for op in (schema.pooling.MAX_POOL2D,
                                           schema.pooling.QUANTIZED_AVG_POOL2D)}),
        # the classifier's tail: global pool, flatten, fully connected (an intermediate the
        # fully connected layer reads as rows x features)
        "linear": ([h.make_node("Conv", ["x", "w"], ["c"]),
                    h.make_node("GlobalAveragePool", ["c"], ["g"]),
                    h.make_node("Flatten", ["g"], ["f"]),
                    h.make_node("Gemm", ["f", "fc", "fb"], ["y"], transB=1)],
                   {"w": _weights(7, 16, 8, 1, 1), "fc": _weights(8, 10, 16),
                    "fb": _weights(9, 10)}, x, ["y"],
                   {conv, schema.conv.QUANTIZED_LINEAR.npu.opcode}),
        "matmul": ([h.make_node("MatMul", ["a", "b"], ["y"])], {},
                   {"a": [2, 8, 16], "b": [2, 16, 4]}, ["y"],
                   {schema.matmul.QUANTIZED_MATMUL.npu.opcode}),
        "resize": ([h.make_node("Resize", ["x", "", "scales"], ["y"], mode="nearest")],
                   {"scales": np.array([1, 1, 2, 2], np.float32)}, x, ["y"],
                   {schema.resize.UPSAMPLE_NEAREST2D.npu.opcode}),
    }


def npu_opcodes(program):
    """The opcodes of every layer of the program's npu delegate calls (and of the lookup
    stages fused after them)."""
    ops = set()
    for d in program.delegates:
        if d.backend == npu_partition.BACKEND_ID:
            h = layouts.NPU_BLOB_HEADER.unpack(d.blob)
            at = layouts.NPU_BLOB_HEADER.size
            if h["version"] == layouts.NPU_BLOB_VERSION_SELF_CONTAINED:
                at = npu_pte_blob.describe(d.blob)["descriptors_offset"]
            for k in range(h["layer_count"]):
                desc = layouts.NPU_DESCRIPTOR.unpack(d.blob, at + k * layouts.NPU_DESCRIPTOR.size)
                ops |= {desc["op"], desc["post_op"]} - {0}
    return ops


class PteNpuReference(unittest.TestCase):
    """The same model compiled with --delegate npu as `.prog` (version-1 blobs) and as `.pte`
    (version-2 blobs, read back by pte_format.read_any): identical reference outputs."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.programs = {}
        for name, (nodes, inits, inputs, outputs, _) in _models().items():
            base = os.path.join(cls.tmp.name, name)
            _onnx_model(base + ".onnx", nodes, inits, inputs, outputs)
            rng = np.random.default_rng(10)
            np.savez(base + ".npz", **{k: (rng.standard_normal([8] + s) * 2).astype(np.float32)
                                       for k, s in inputs.items()})
            read = []
            for ext in ("prog", "pte"):
                compiler.compile_file(base + ".onnx", f"{base}.{ext}", quantize="int8",
                                      calibration=base + ".npz", delegate="npu",
                                      npu_config=PRESET)
                with open(f"{base}.{ext}", "rb") as f:
                    read.append(pte_format.read_any(f.read()))
            xs = [(rng.standard_normal(s) * 2).astype(np.float32) for s in inputs.values()]
            cls.programs[name] = read + [xs]

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_pte_and_prog_give_identical_outputs(self):
        for name, (*_, layers) in _models().items():
            with self.subTest(model=name):
                prog, pte, xs = self.programs[name]
                versions = {layouts.NPU_BLOB_HEADER.unpack(d.blob)["version"]
                            for d in pte.delegates}
                self.assertEqual(versions, {layouts.NPU_BLOB_VERSION_SELF_CONTAINED})
                self.assertLessEqual(layers, npu_opcodes(pte), "the NPU runs these layers")
                self.assertEqual(npu_opcodes(pte), npu_opcodes(prog))
                want, got = reference.run(prog, xs), reference.run(pte, xs)
                self.assertEqual(len(want), len(got))
                for a, b in zip(want, got):
                    self.assertEqual((a.dtype, a.shape), (b.dtype, b.shape))
                    self.assertGreater(len(np.unique(a)), 4, "outputs that tell layers apart")
                    np.testing.assert_array_equal(a, b)
                # the default inputs too (what sim_check runs without --input)
                for a, b in zip(reference.run(prog, reference.default_inputs(prog)),
                                reference.run(pte, reference.default_inputs(pte))):
                    np.testing.assert_array_equal(a, b)

    def broken(self, change):
        """The conv model's `.pte` program with its npu blob changed by change(bytearray)."""
        xs = self.programs["conv"][2]
        with open(os.path.join(self.tmp.name, "conv.pte"), "rb") as f:
            program = pte_format.read(f.read())
        (d,) = [d for d in program.delegates if d.backend == npu_partition.BACKEND_ID]
        blob = bytearray(d.blob)
        change(blob)
        d.blob = bytes(blob)
        with self.assertRaises(reference.ReferenceError) as e:
            reference.run(program, xs)
        return str(e.exception)

    def test_broken_blobs_are_refused_naming_the_field(self):
        h, p, dsc = layouts.NPU_BLOB_HEADER, layouts.NPU_BLOB_PLACEMENT, layouts.NPU_DESCRIPTOR
        first = h.size + p.size  # the first descriptor
        addr = first + dsc.offset("addr")

        def u32(at, value):
            return lambda b: struct.pack_into("<I", b, at, value)

        def slot(name):
            return addr + 4 * layouts.NPU_SLOTS.index(name)
        kind = layouts.NPU_ADDR_KINDS
        shift = layouts.NPU_ADDR_KIND_SHIFT
        cases = [
            (lambda b: b.__setitem__(slice(0, 4), b"NPU9"), "npu blob magic"),
            (lambda b: b.extend(b"\0" * 16), "npu blob constants_size"),
            (u32(h.size + p.offset("input_count"), 3), "npu blob input_count/output_count 3/1"),
            (u32(h.size + p.offset("descriptors_offset"), 64), "descriptors_offset 64"),
            (u32(h.size + p.offset("scratch_alignment"), 24), "scratch_alignment 24"),
            (u32(h.offset("descriptor_size"), 100), "npu blob descriptor_size 100"),
            (lambda b: b.__setitem__(first, 200), "npu descriptor 0 (Conv_0): op 200"),
            (u32(first + dsc.offset("post_op"), 77), "npu descriptor 0 (Conv_0): post_op 77"),
            (u32(slot("weights"), layouts.NPU_NO_TENSOR), "addr.weights missing"),
            (u32(slot("weights"), 3 << shift), "addr.weights kind 3"),
            (u32(slot("input"), 5), "addr.input call index 5"),
            (u32(slot("output"), 0), "addr.output is call input 0"),
            (u32(slot("output"), kind["constant"] << shift), "addr.output is a constant"),
            (u32(slot("bias"), kind["constant"] << shift | 0x10000),
             "addr.bias constant offset 65536"),
            (u32(slot("bias"), kind["constant"] << shift | 8), "addr.bias constant offset 8"),
            (u32(slot("input"), kind["scratch"] << shift), "addr.input scratch offset 0"),
            # the convolution's pad_top (argument 2): pads of 65,536 are checked against the
            # output before the layer runs, not made
            (u32(first + dsc.offset("args") + 8, 1 << 16),
             "npu descriptor 0 (Conv_0): args: the window over 8x8 gives 65543x8, the output "
             "is 8x8"),
            (u32(first + dsc.offset("args") + 4, 0), "args: window 3x3, stride 1x0"),
            (lambda b: b.__setitem__(first + dsc.offset("arg_count"), 3), "arg_count: "),
        ]
        for change, field in cases:
            with self.subTest(field=field):
                message = self.broken(change)
                self.assertIn(field, message)
                self.assertTrue(message.startswith("instruction "), message)

    def test_every_byte_of_the_layout_changed_runs_or_is_refused(self):
        # Each byte of the header, the placement and the descriptors of the linear model
        # (convolution, pool, fully connected) set to 0xFF and flipped in its top bit: the
        # reference runs the layers or refuses with a ReferenceError, nothing else.
        xs = self.programs["linear"][2]
        with open(os.path.join(self.tmp.name, "linear.pte"), "rb") as f:
            data = f.read()
        program = pte_format.read(data)
        (d,) = [d for d in program.delegates if d.backend == npu_partition.BACKEND_ID]
        original = d.blob
        end = npu_pte_blob.describe(original)["constants_offset"]
        outcomes = {"ran": 0, "refused": 0}
        for at in range(end):
            for value in (0xFF, original[at] ^ 0x80):
                blob = bytearray(original)
                blob[at] = value
                d.blob = bytes(blob)
                try:
                    with np.errstate(all="ignore"):  # changed arguments: a divisor of 0
                        reference.run(program, xs)
                    outcomes["ran"] += 1
                except reference.ReferenceError:
                    outcomes["refused"] += 1
        self.assertGreater(outcomes["refused"], end // 2, outcomes)

    def test_command_line_reads_pte(self):
        import io
        import contextlib
        path = os.path.join(self.tmp.name, "conv.pte")
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            self.assertEqual(reference.main([path, "--print-outputs"]), 0)
        prog, _, _ = self.programs["conv"]
        (want,) = reference.run(prog, reference.default_inputs(prog))
        self.assertEqual(out.getvalue().count("\n"), want.size)
        with open(path, "rb") as f:
            data = bytearray(f.read())
        at = data.index(layouts.NPU_BLOB_MAGIC)
        data[at + 4] = 7  # the blob's version
        bad = os.path.join(self.tmp.name, "bad_version.pte")
        with open(bad, "wb") as f:
            f.write(data)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertEqual(reference.main([bad]), 1)
        self.assertRegex(err.getvalue(), r"^reference: .*bad_version.pte: instruction \d+ "
                                         r"\(npu\): npu blob version 7 \(1 or 2\)\n$")


if __name__ == "__main__":
    unittest.main()
