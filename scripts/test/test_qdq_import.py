"""Pre-quantised models (passes/import_qdq): small models quantised by onnxruntime's
quantize_static in QDQ and QOperator form (scripts/test/data/qdq/, made by
`scripts/qdq_reference.py --set fixtures`), compiled without --quantize, against the
integer outputs onnxruntime gave for them, with no onnxruntime needed here.
"""

import os
import subprocess
import tempfile
import unittest

import numpy as np

from socsim_aot import compiler, reference
from socsim_aot import program_format as pf
from socsim_aot.passes import import_qdq

import qdq_reference

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "qdq")
# The largest difference from onnxruntime, in quantisation steps, per model and variant (see
# docs/compiler.md, "Pre-quantised models": in QDQ form onnxruntime averages in float and
# rounds halves to even; the encoder's LayerNorm and Softmax are computed differently).
MAX_STEPS = {("convnet", "qdq_u8"): 1, ("convnet", "qdq_i8_pc"): 1,
             ("convnet", "qop_u8_pc"): 0, ("convnet", "qop_i8"): 0,
             ("encoder", "qdq_u8"): 1, ("encoder", "qdq_i8_pc"): 1,
             ("encoder", "qop_u8_pc"): 1, ("encoder", "qop_i8"): 1}


def _path(name):
    return os.path.join(DATA, name)


class QdqImportTest(unittest.TestCase):
    def cases(self):
        for name in qdq_reference.SETS["fixtures"]:
            for variant in qdq_reference.VARIANTS:
                yield name, variant

    def test_every_variant_compiles_without_quantize_and_keeps_the_model_scales(self):
        import onnx
        from onnx import numpy_helper
        for name, variant in self.cases():
            model = onnx.load(_path(f"{name}.{variant}.onnx"))
            inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
            program = qdq_reference.compile_quantized(_path(f"{name}.{variant}.onnx"))
            # No requantisation the model does not ask for: only a concatenation's inputs
            # of other scales than its output (as QLinearConcat does), and an output whose
            # quantisation its operator fixes where the model gives another (onnxruntime's
            # QDQ Softmax: scale 1/255).
            g = compiler.load_onnx(_path(f"{name}.{variant}.onnx"))
            compiler.compile_graph(g)
            for node in g.nodes:
                if node.op == "quantized_decomposed::requantize.out":
                    readers = [n.op for n in g.consumers(node.outputs[0])]
                    self.assertTrue(readers == ["aten::cat.out"] or
                                    node.where == "node '/Softmax' (op Softmax) (the model's "
                                    "quantisation of its output)", (name, variant, node.where))
            # The program's output is the model's: its scale and zero point (uint8 - 128).
            out = program.tensors[program.outputs[0]]
            dq = [n for n in model.graph.node if n.output[0] == model.graph.output[0].name][0]
            scale, zp = inits[dq.input[1]], inits[dq.input[2]]
            self.assertEqual(np.float32(out.scale), scale, (name, variant))
            self.assertEqual(out.zero_point, int(zp) - (128 if zp.dtype == np.uint8 else 0))

    def test_outputs_match_onnxruntime(self):
        for name, variant in self.cases():
            x = np.load(_path(f"{name}.input.npy"))
            want = np.load(_path(f"{name}.{variant}.ort.npy"))
            program = qdq_reference.compile_quantized(_path(f"{name}.{variant}.onnx"))
            worst, differ, total = qdq_reference.steps(program, x, want)
            self.assertLessEqual(worst, MAX_STEPS[name, variant], (name, variant, differ, total))

    def test_npu_delegate_matches_the_cpu_program(self):
        for name, variant in self.cases():
            path = _path(f"{name}.{variant}.onnx")
            x = np.load(_path(f"{name}.input.npy"))
            cpu = reference.run(qdq_reference.compile_quantized(path), [x])[0]
            npu_program = qdq_reference.compile_quantized(path, delegate="npu")
            self.assertGreater(sum(1 for i in npu_program.instructions if not i.name), 0)
            np.testing.assert_array_equal(reference.run(npu_program, [x])[0], cpu,
                                          (name, variant))

    def test_firmware_kernels_match_the_reference(self):
        runner = os.environ.get("SOCSIM_HOST_RUNNER")
        if not runner:
            self.skipTest("SOCSIM_HOST_RUNNER not set (run through CTest)")
        with tempfile.TemporaryDirectory() as tmp:
            for name, variant in self.cases():
                program = qdq_reference.compile_quantized(_path(f"{name}.{variant}.onnx"))
                prog, inp, out = (os.path.join(tmp, f) for f in ("p.pte", "x.bin", "y.bin"))
                with open(prog, "wb") as f:
                    f.write(pf.write(program))
                x = np.load(_path(f"{name}.input.npy"))
                x.tofile(inp)
                result = subprocess.run([runner, prog, inp, out], capture_output=True,
                                        text=True)
                self.assertEqual(result.returncode, 0, result.stderr)
                want = reference.run(program, [x])[0]
                got = np.fromfile(out, want.dtype).reshape(want.shape)
                np.testing.assert_array_equal(got, want, (name, variant))

    def test_uint8_and_int8_activations_give_the_same_program_values(self):
        # onnxruntime quantises both variants with the same ranges: uint8 q - 128 is int8.
        for name in qdq_reference.SETS["fixtures"]:
            a = np.load(_path(f"{name}.qdq_u8.ort.npy"))
            b = np.load(_path(f"{name}.qop_i8.ort.npy"))
            self.assertLessEqual(np.abs(a.astype(int) - b).max(), 2)

    def test_float_models_are_left_alone(self):
        from socsim_aot import onnx_graph, passes
        from onnx import helper, TensorProto
        x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])
        y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])
        model = helper.make_model(helper.make_graph([helper.make_node("Relu", ["x"], ["y"])],
                                                    "g", [x], [y]),
                                  opset_imports=[helper.make_opsetid("", 13)])
        g = onnx_graph.from_model(model)
        report = import_qdq.run(g, passes.Options())
        self.assertEqual(report.count, 0)
        self.assertIsNone(g.quantization)

    def test_unpaired_quantize_is_reported_not_crashed(self):
        from onnx import helper, TensorProto, numpy_helper
        x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])
        y = helper.make_tensor_value_info("y", TensorProto.UINT8, [1, 4])
        inits = [numpy_helper.from_array(np.array(0.1, np.float32), "s"),
                 numpy_helper.from_array(np.array(3, np.uint8), "z")]
        model = helper.make_model(
            helper.make_graph([helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"])],
                              "g", [x], [y], inits),
            opset_imports=[helper.make_opsetid("", 13)])
        with tempfile.TemporaryDirectory() as tmp:
            import onnx
            path = os.path.join(tmp, "q.onnx")
            onnx.save(model, path)
            with self.assertRaises(compiler.CompileError) as e:
                compiler.compile_model(path, compiler.CompileOptions())
            self.assertIn("node 'QuantizeLinear_0' (op QuantizeLinear)", str(e.exception))
            self.assertIn("not one of a QuantizeLinear/DequantizeLinear pair", str(e.exception))

    def test_integer_pad_in_qoperator_form_pads_with_the_zero_point(self):
        import onnx
        from onnx import helper, TensorProto, numpy_helper
        x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 3, 3])
        y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2, 5, 5])
        inits = [numpy_helper.from_array(np.array(0.05, np.float32), "s"),
                 numpy_helper.from_array(np.array(100, np.uint8), "z"),
                 numpy_helper.from_array(np.array([0, 0, 1, 1, 0, 0, 1, 1], np.int64), "pads")]
        nodes = [helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"]),
                 helper.make_node("Pad", ["q", "pads", "z"], ["p"]),
                 helper.make_node("DequantizeLinear", ["p", "s", "z"], ["y"])]
        model = helper.make_model(helper.make_graph(nodes, "g", [x], [y], inits),
                                  opset_imports=[helper.make_opsetid("", 13)])
        xs = np.linspace(-3, 3, 18, dtype=np.float32).reshape(1, 2, 3, 3)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "pad.onnx")
            onnx.save(model, path)
            program = qdq_reference.compile_quantized(path)
        got = reference.run(program, [xs])[0].astype(np.int64)
        q = np.clip(np.rint(xs / np.float32(0.05)) + 100, 0, 255) - 128
        want = np.pad(q, ((0, 0), (0, 0), (1, 1), (1, 1)), constant_values=100 - 128)
        np.testing.assert_array_equal(got, want)

    def test_scales_that_do_not_match_the_axis_are_named_not_crashed(self):
        import onnx
        from onnx import helper, TensorProto, numpy_helper
        x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 2, 1, 1])
        y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 2, 1, 1])
        inits = [numpy_helper.from_array(np.ones((3, 2, 1, 1), np.int8), "w"),
                 numpy_helper.from_array(np.ones(5, np.float32), "ws"),
                 numpy_helper.from_array(np.zeros(5, np.int8), "wz")]
        nodes = [helper.make_node("DequantizeLinear", ["w", "ws", "wz"], ["d"], axis=0),
                 helper.make_node("Add", ["x", "d"], ["y"])]
        model = helper.make_model(helper.make_graph(nodes, "g", [x], [y], inits),
                                  opset_imports=[helper.make_opsetid("", 13)])
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "bad.onnx")
            onnx.save(model, path)
            with self.assertRaises(compiler.CompileError) as e:
                compiler.compile_model(path, compiler.CompileOptions())
        self.assertIn("node 'DequantizeLinear_0' (op DequantizeLinear): cannot be imported",
                      str(e.exception))

    def test_a_value_the_model_leaves_in_float_is_calibrated(self):
        import onnx
        from onnx import helper, TensorProto, numpy_helper
        x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16])
        y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 16])
        inits = [numpy_helper.from_array(np.array(0.05, np.float32), "s"),
                 numpy_helper.from_array(np.array(0, np.int8), "z"),
                 numpy_helper.from_array(np.array(1 / 256, np.float32), "so"),
                 numpy_helper.from_array(np.array(-128, np.int8), "zo")]
        nodes = [helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"]),
                 helper.make_node("DequantizeLinear", ["q", "s", "z"], ["d"]),
                 helper.make_node("Tanh", ["d"], ["t"]),      # left in float by the model
                 helper.make_node("Sigmoid", ["t"], ["g"]),
                 helper.make_node("QuantizeLinear", ["g", "so", "zo"], ["q2"]),
                 helper.make_node("DequantizeLinear", ["q2", "so", "zo"], ["y"])]
        model = helper.make_model(helper.make_graph(nodes, "g", [x], [y], inits),
                                  opset_imports=[helper.make_opsetid("", 13)])
        lines = []
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "gap.onnx")
            onnx.save(model, path)
            program = compiler.compile_model(path, compiler.CompileOptions(output_type="int8"),
                                             lines.append)
        self.assertTrue(any("1 value(s) without the model's quantisation (first 't')" in line
                            for line in lines), lines)
        xs = np.linspace(-4, 4, 16, dtype=np.float32).reshape(1, 16)
        got = reference.run(program, [xs])[0].astype(np.float64)
        want = 1 / (1 + np.exp(-np.tanh(xs.astype(np.float64))))
        # Within a few steps of the model's output scale (tanh's calibrated int8 step in
        # between).
        self.assertLess(np.abs((got + 128) / 256 - want).max(), 4 / 256)

    def test_every_layer_takes_the_model_weights_and_biases(self):
        from socsim_aot import ir
        for name, variant in self.cases():
            g = compiler.load_onnx(_path(f"{name}.{variant}.onnx"))
            layers = [n for n in g.nodes if n.op in compiler.FUSING_OPS]
            self.assertGreater(len(layers), 0)
            for node in layers:
                scale = g.model_quantization.activations[g.resolve(node.inputs[0])][0]
                given = ir.model_weights(g, node, scale)
                self.assertIsNotNone(given, (name, variant, node.where))
                wq, ws, bq = given
                # The weights are the model's integers times its scales, exactly.
                w = g.values[node.inputs[1]].const
                shape = (-1,) + (1,) * (w.ndim - 1)
                np.testing.assert_array_equal(
                    (wq.astype(np.float32) * ws.astype(np.float32).reshape(shape)), w)


if __name__ == "__main__":
    unittest.main()
