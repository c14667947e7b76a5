"""NPU partitioning: the zoo's int8 models compiled with --delegate npu give the same
outputs, bit for bit, as without it (the numpy reference executes the NPU segments' layer
descriptors with the CPU kernels' arithmetic), as `.prog` and as `.pte` (whose npu calls
carry the self-contained blob), and the segments hold what the preset lists.
"""

import os
import re
import tempfile
import unittest

import numpy as np

from socsim_aot import compiler
from socsim_aot import npu_partition
from socsim_aot import op_models
from socsim_aot import schema
from socsim_schema import layouts
from socsim_aot.schema.activations import QUANTIZED_RELU, RELU
from socsim_aot.schema.conv import QUANTIZED_CONVOLUTION, QUANTIZED_LINEAR
from socsim_aot.schema.data_movement import VIEW_COPY
from socsim_aot.schema.pooling import MAX_POOL2D, QUANTIZED_ADAPTIVE_AVG_POOL2D
from socsim_aot.schema.quantization import DEQUANTIZE, QUANTIZE
from socsim_aot import program_format as pf
from socsim_aot import pte_format
from socsim_aot import reference
from socsim_aot import zoo

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
PRESET = os.path.join(ROOT, "configs", "npu", "rk3588-like.yaml")


class NpuPartitionTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def compile_pair(self, name, image_size=32, preset=PRESET):
        torch = zoo._torch()
        module, shape = zoo.make_float_model(name, image_size)
        onnx_path = os.path.join(self.tmp.name, name + ".onnx")
        zoo._export(module, torch.zeros(shape), onnx_path, ["input"])
        rng = np.random.default_rng(3)
        calib = os.path.join(self.tmp.name, name + ".npz")
        np.savez(calib, input=rng.standard_normal((4,) + shape).astype(np.float32))
        cpu = compiler.compile_file(onnx_path, os.path.join(self.tmp.name, name + "_cpu.prog"),
                                    quantize="int8", calibration=calib)
        npu = compiler.compile_file(onnx_path, os.path.join(self.tmp.name, name + "_npu.prog"),
                                    quantize="int8", calibration=calib, delegate="npu",
                                    npu_config=preset)
        return cpu, npu, shape

    def check_equal_outputs(self, name):
        cpu, npu, shape = self.compile_pair(name)
        pte_path = os.path.join(self.tmp.name, name + "_npu.pte")
        with open(pte_path, "wb") as f:
            f.write(pte_format.write(npu))
        with open(pte_path, "rb") as f:
            pte = pte_format.read_any(f.read())
        rng = np.random.default_rng(5)
        for _ in range(2):
            x = rng.standard_normal(shape).astype(np.float32)
            a = reference.run(cpu, [x])[0]
            b = reference.run(npu, [x])[0]
            np.testing.assert_array_equal(a, b)
            np.testing.assert_array_equal(reference.run(pte, [x])[0], b)
        return cpu, npu

    def test_convnet_equal_with_and_without_npu(self):
        cpu, npu = self.check_equal_outputs("convnet")
        self.assertEqual([d.backend for d in npu.delegates], ["npu"])
        # conv+relu, maxpool, conv+relu, global pool, linear (reading the pool's output: the
        # flatten between them is no copy on the CPU)
        blob = npu.delegates[0].blob
        header = layouts.NPU_BLOB_HEADER.unpack(blob)
        self.assertEqual((header["magic"], header["version"], header["layer_count"],
                          header["descriptor_size"]), (b"NPU1", 1, 5, 176))
        ops = [layouts.NPU_DESCRIPTOR.unpack(blob, 16 + 176 * k)["op"] for k in range(5)]
        self.assertEqual([schema.by_npu_opcode(op).name for op in ops],
                         [QUANTIZED_CONVOLUTION.name, MAX_POOL2D.name, QUANTIZED_CONVOLUTION.name,
                          QUANTIZED_ADAPTIVE_AVG_POOL2D.name, QUANTIZED_LINEAR.name])
        linear = layouts.NPU_DESCRIPTOR.unpack(blob, 16 + 176 * 4)
        self.assertEqual((list(linear["in_shape"]), list(linear["out_shape"])),
                         ([1, 16, 1, 1], [1, 10, 1, 1]))
        kernels = [i.name for i in npu.instructions if i.name]
        self.assertEqual(kernels, [QUANTIZE.name, DEQUANTIZE.name])
        self.assertIn(VIEW_COPY.name, [i.name for i in cpu.instructions])

    def test_mobilenet_v2_equal_with_and_without_npu(self):
        cpu, npu = self.check_equal_outputs("mobilenet_v2")
        layers = sum(layouts.NPU_BLOB_HEADER.unpack(d.blob)["layer_count"] for d in npu.delegates)
        self.assertGreater(layers, 60)  # 52 convolutions, 10 residual adds, pool, linear

    def test_resnet18_equal_with_and_without_npu(self):
        cpu, npu = self.check_equal_outputs("resnet18")
        # Residual add + relu is fused: no relu kernel is left on the CPU.
        names = [i.name for i in npu.instructions]
        self.assertNotIn(RELU.name, names)
        self.assertNotIn(QUANTIZED_RELU.name, names)

    def test_preset_operator_list_decides(self):
        preset = os.path.join(self.tmp.name, "convs_only.yaml")
        with open(PRESET) as f:
            text = f.read()
        text, n = re.subn(r"operators: \[[^\]]*\]", "operators: [conv2d]", text)
        self.assertEqual(n, 1)
        with open(preset, "w") as f:
            f.write(text)
        self.assertEqual(npu_partition.load_npu_operators(preset), {"conv2d"})
        _, npu, _ = self.compile_pair("convnet", preset=preset)
        kernels = [i.name for i in npu.instructions if i.name]
        self.assertIn(MAX_POOL2D.name, kernels)
        self.assertIn(QUANTIZED_LINEAR.name, kernels)
        self.assertEqual(len(npu.delegates), 2)

    def op_model(self, family):
        """An op_models family compiled CPU-only and for the NPU, with its input."""
        op_models.build(family, self.tmp.name, PRESET)
        base = os.path.join(self.tmp.name, family)
        programs = []
        for suffix in ("_int8.prog", "_int8_npu.prog"):
            with open(base + suffix, "rb") as f:
                programs.append(pf.read(f.read()))
        x = np.fromfile(base + ".input.bin", np.float32).reshape(op_models.SHAPE)
        return programs[0], programs[1], x

    @staticmethod
    def descriptors(program):
        out = []
        for d in program.delegates:
            count = layouts.NPU_BLOB_HEADER.unpack(d.blob)["layer_count"]
            out += [layouts.NPU_DESCRIPTOR.unpack(d.blob, 16 + 176 * k) for k in range(count)]
        return out

    def test_squeeze_excitation_mul_runs_on_the_npu_per_channel(self):
        cpu, npu, x = self.op_model("squeeze_excitation")
        np.testing.assert_array_equal(reference.run(cpu, [x])[0], reference.run(npu, [x])[0])
        self.assertEqual([i.name for i in npu.instructions if i.name],
                         [QUANTIZE.name, DEQUANTIZE.name])
        (mul,) = [d for d in self.descriptors(npu)
                  if d["op"] == schema.elementwise.QUANTIZED_MUL.npu.opcode]
        # `scale * x` in the model: the per-channel operand is the descriptor's second one.
        self.assertEqual((list(mul["in_shape"]), list(mul["in1_shape"])),
                         ([1, 16, 8, 8], [1, 16, 1, 1]))

    def test_standalone_batch_norm_and_relu_are_one_npu_layer(self):
        # A BatchNormalization that follows no convolution (ResNet v2's BN and ReLU after each
        # addition) becomes the 1x1 depthwise convolution it computes, its ReLU fused: one NPU
        # layer. Its outputs are those of the same depthwise convolution compiled for the CPU,
        # bit for bit, and the float BN + ReLU's within the rounding of its quantisation.
        from onnx import TensorProto, helper, numpy_helper
        rng = np.random.default_rng(7)
        c, shape = 8, (1, 8, 6, 6)
        s, b, m = (rng.uniform(-1, 1, c) for _ in range(3))
        v = rng.uniform(0.5, 2, c)
        k = s / np.sqrt(v + 1e-5)

        def onnx_file(name, nodes, inits):
            g = helper.make_graph(
                nodes + [helper.make_node("Relu", ["t"], ["y"])], name,
                [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)],
                [numpy_helper.from_array(a.astype(np.float32), n) for n, a in inits])
            path = os.path.join(self.tmp.name, name + ".onnx")
            with open(path, "wb") as f:
                f.write(helper.make_model(
                    g, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString())
            return path
        bn = onnx_file("bn_relu", [helper.make_node("BatchNormalization",
                                                    ["x", "s", "b", "m", "v"], ["t"])],
                       [("s", s), ("b", b), ("m", m), ("v", v)])
        dw = onnx_file("dw_relu", [helper.make_node("Conv", ["x", "w", "c"], ["t"], group=c)],
                       [("w", k.reshape(c, 1, 1, 1)), ("c", b - m * k)])
        calib = os.path.join(self.tmp.name, "bn_relu.npz")
        np.savez(calib, x=rng.standard_normal((4,) + shape).astype(np.float32))
        npu = compiler.compile_file(bn, os.path.join(self.tmp.name, "bn_relu_npu.prog"),
                                    quantize="int8", calibration=calib, delegate="npu",
                                    npu_config=PRESET)
        cpu = compiler.compile_file(dw, os.path.join(self.tmp.name, "dw_relu_cpu.prog"),
                                    quantize="int8", calibration=calib)
        self.assertEqual([i.name for i in npu.instructions if i.name],
                         [QUANTIZE.name, DEQUANTIZE.name])
        (layer,) = self.descriptors(npu)
        self.assertEqual(layer["op"], QUANTIZED_CONVOLUTION.npu.opcode)
        self.assertEqual(list(layer["in1_shape"]), [c, 1, 1, 1])
        self.assertIn(QUANTIZED_CONVOLUTION.name, [i.name for i in cpu.instructions])
        # Half a step of the input's quantisation through the largest |k|, half a step of
        # the output's, and one output step for the weights' and requantisation's rounding.
        (call,) = [i for i in npu.instructions if not i.name]
        x_q, y_q = npu.tensors[call.inputs[0]], npu.tensors[call.outputs[0]]
        bound = x_q.scale * abs(k).max() / 2 + 1.5 * y_q.scale
        for _ in range(2):
            x = rng.standard_normal(shape).astype(np.float32)
            y = reference.run(npu, [x])[0]
            np.testing.assert_array_equal(y, reference.run(cpu, [x])[0])
            want = np.maximum(x * k.reshape(c, 1, 1) + (b - m * k).reshape(c, 1, 1), 0)
            np.testing.assert_allclose(y, want, atol=bound)

    def test_calls_are_cut_to_the_record_tensor_limit(self):
        # A call's inputs and outputs are counted in a u8 each: a whole EfficientNet on the
        # NPU reads ~300 tensors. With a limit of 8 the squeeze-and-excitation model (11
        # inputs, 5 outputs in one call) takes two calls, each within it, same results.
        limit = npu_partition.MAX_CALL_TENSORS
        self.assertEqual(limit, 255)
        npu_partition.MAX_CALL_TENSORS = 8
        try:
            cpu, npu, x = self.op_model("squeeze_excitation")
        finally:
            npu_partition.MAX_CALL_TENSORS = limit
        calls = [i for i in npu.instructions if not i.name]  # delegate calls
        self.assertEqual(len(calls), 2)
        for call in calls:
            self.assertLessEqual(max(len(call.inputs), len(call.outputs)), 8)
        np.testing.assert_array_equal(reference.run(cpu, [x])[0], reference.run(npu, [x])[0])

    def test_lookups_fuse_after_conv_and_add(self):
        cpu, npu, x = self.op_model("lookup_fusion")
        for a, b in zip(reference.run(cpu, [x]), reference.run(npu, [x])):
            np.testing.assert_array_equal(a, b)
        self.assertEqual([i.name for i in npu.instructions if i.name],
                         [QUANTIZE.name] + [DEQUANTIZE.name] * 5)
        layers = [(schema.by_npu_opcode(d["op"]).npu.report,
                   schema.by_npu_opcode(d["post_op"]).npu.report if d["post_op"] else "")
                  for d in self.descriptors(npu)]
        self.assertEqual(sorted(layers), sorted([
            ("Conv", "Sigmoid"), ("Conv", "HardSwish"), ("Conv", "HardSigmoid"), ("Add", "Tanh"),
            ("Conv", "SiLU"), ("Conv", "GELU"), ("Tanh", "")]))
        for d in self.descriptors(npu):  # the table travels in its slot only with a post-op
            table = d["addr"][layouts.NPU_SLOTS.index("table")]
            self.assertEqual(table == layouts.NPU_NO_TENSOR, d["post_op"] == 0)

    def test_nearest_resize_by_integer_factors_runs_on_the_npu(self):
        cpu, npu, x = self.op_model("upsample_neck")
        for a, b in zip(reference.run(cpu, [x]), reference.run(npu, [x])):
            np.testing.assert_array_equal(a, b)
        resize = schema.resize.UPSAMPLE_NEAREST2D
        # Conv, the 2x upsample and Conv are one call; the 3 x 2 repeat runs on the NPU too,
        # the align_corners resize to 15 x 13 (no repeat) on the CPU.
        self.assertEqual(sorted(i.name for i in npu.instructions if i.name),
                         sorted([QUANTIZE.name, resize.name] + [DEQUANTIZE.name] * 3))
        layers = [(schema.by_npu_opcode(d["op"]).npu.report, list(d["out_shape"]))
                  for d in self.descriptors(npu)]
        self.assertEqual(layers, [("Conv", [1, 16, 8, 8]), ("Resize", [1, 16, 16, 16]),
                                  ("Conv", [1, 16, 16, 16]), ("Resize", [1, 16, 24, 16])])
        self.assertEqual(len(npu.delegates), 1)
        # Without the class in the preset's list, every resize stays on the CPU.
        preset = os.path.join(self.tmp.name, "no_resize.yaml")
        with open(PRESET) as f:
            text = f.read()
        with open(preset, "w") as f:
            f.write(text.replace("resize_nearest,", ""))
        self.assertNotIn("resize_nearest", npu_partition.load_npu_operators(preset))
        op_models.build("upsample_neck", self.tmp.name, preset)
        with open(os.path.join(self.tmp.name, "upsample_neck_int8_npu.prog"), "rb") as f:
            without = pf.read(f.read())
        self.assertEqual([i.name for i in without.instructions].count(resize.name), 3)

    def test_missing_preset_is_a_compile_error(self):
        with self.assertRaises(compiler.CompileError):
            self.compile_pair("convnet", preset=os.path.join(self.tmp.name, "none.yaml"))


if __name__ == "__main__":
    unittest.main()
