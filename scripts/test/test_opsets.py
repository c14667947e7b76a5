"""Models of opsets 18 to 25 (socsim_aot/opsets.py): torch 2's exports of zoo models compile
to the programs of their torch 1.13 exports, each rewrite into opset 17's form computes what
the newer node did, and what has no such form is named."""

import io
import os
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from socsim_aot import compiler, onnx_eval, onnx_graph, opsets
from socsim_aot import program_format as pf
from socsim_aot import torch_models

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "torch2")
# name: (module factory, input shape), as scripts/gen_torch2_onnx_fixtures.py exports them.
MODELS = {"convnet": (torch_models.make_convnet, (1, 3, 16, 16)),
          "opset_probe": (torch_models.make_opset_probe, (1, 8, 8, 8))}


def torch113_export(name: str, path: str):
    """The fixture's module with the fixture's weights, exported by torch 1.13 (opset 17)."""
    import torch
    make, shape = MODELS[name]
    module = make().eval()
    weights = np.load(os.path.join(FIXTURES, name + ".weights.npz"))
    module.load_state_dict({k: torch.from_numpy(weights[k]) for k in weights.files})
    with torch.no_grad():
        torch.onnx.export(module, torch.zeros(*shape), path, opset_version=17,
                          input_names=["input"], output_names=["output"])


def compile_bytes(path: str, **options) -> bytes:
    return pf.write(compiler.compile_model(path, compiler.CompileOptions(**options)))


def constant_operand_second(path: str):
    """Rewrites the file's Add nodes of a constant and a value as value + constant: torch
    1.13 exports Linear on 3-D inputs as bias + MatMul, torch 2 as MatMul + bias. The sum is
    the same; the program lists the operands (and an int8 add's multipliers) in order."""
    model = onnx.load(path)
    consts = {t.name for t in model.graph.initializer}
    consts |= {n.output[0] for n in model.graph.node if n.op_type == "Constant"}
    for n in model.graph.node:
        if n.op_type == "Add" and n.input[0] in consts and n.input[1] not in consts:
            n.input[0], n.input[1] = n.input[1], n.input[0]
    onnx.save(model, path)


def run_cli(argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = compiler.main(argv)
    return status, err.getvalue()


class Torch2ExportTest(unittest.TestCase):
    """torch 2's exporter writes axes of ReduceMean as an input, Split with num_outputs,
    Unsqueeze/Squeeze axes as inputs, Resize with its opset-18 attributes and GELU as
    0.5 * (1 + erf): the front end makes of both files the same program, byte for byte (float
    and int8), once the one difference that changes the program legitimately is removed: the
    operand order of Linear's bias add (constant_operand_second)."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def test_fixtures_are_opset_18(self):
        for name in MODELS:
            model = onnx.load(os.path.join(FIXTURES, name + ".onnx"))
            self.assertEqual(opsets.file_opset(model), 18, name)

    def test_same_program_as_torch_113(self):
        for name in MODELS:
            old = os.path.join(self.tmp.name, name + ".onnx")
            torch113_export(name, old)
            constant_operand_second(old)
            new = os.path.join(FIXTURES, name + ".onnx")
            for options in (dict(), dict(quantize="int8", samples=4)):
                with self.subTest(model=name, **options):
                    self.assertEqual(compile_bytes(new, **options), compile_bytes(old, **options))


def opset18_model(nodes, inputs, outputs, inits=(), opset=18):
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def f32(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


class RewriteTest(unittest.TestCase):
    """Each rewrite against the newer node's meaning (numpy, as ONNX defines it)."""

    def rewritten(self, model):
        g = onnx_graph.from_model(model)
        self.assertEqual(g.file_opset, opsets.file_opset(model))
        return g

    @staticmethod
    def values(g, x):
        return onnx_eval.run_graph(g, {g.inputs[0]: x})

    def test_reduce_axes_input(self):
        x = np.random.default_rng(0).standard_normal((2, 3, 4)).astype(np.float32)
        for op, ref in (("ReduceMean", np.mean), ("ReduceMax", np.max)):
            model = opset18_model(
                [helper.make_node(op, ["x", "axes"], ["y"], keepdims=0)],
                [f32("x", [2, 3, 4])], [f32("y", [2, 4])],
                [numpy_helper.from_array(np.array([1], np.int64), "axes")])
            g = self.rewritten(model)
            self.assertEqual(g.nodes[0].attrs["axes"], [1])
            np.testing.assert_allclose(self.values(g, x)[0], ref(x, axis=1), rtol=1e-6)

    def test_reduce_noop_with_empty_axes_is_identity(self):
        model = opset18_model(
            [helper.make_node("ReduceMean", ["x"], ["y"], noop_with_empty_axes=1)],
            [f32("x", [2, 3])], [f32("y", [2, 3])])
        self.assertEqual(self.rewritten(model).nodes[0].op_type, "Identity")

    def test_split_num_outputs_uneven(self):
        model = opset18_model(
            [helper.make_node("Split", ["x"], ["a", "b", "c"], axis=1, num_outputs=3)],
            [f32("x", [1, 7])], [f32("a", None), f32("b", None), f32("c", None)])
        g = self.rewritten(model)
        self.assertEqual(g.const(g.nodes[0].inputs[1]).tolist(), [3, 3, 1])

    def test_pad_axes(self):
        model = opset18_model(
            [helper.make_node("Pad", ["x", "pads", "", "axes"], ["y"])],
            [f32("x", [1, 2, 3, 3])], [f32("y", None)],
            [numpy_helper.from_array(np.array([1, 2, 0, 1], np.int64), "pads"),
             numpy_helper.from_array(np.array([-1, 2], np.int64), "axes")])
        g = self.rewritten(model)
        self.assertEqual(g.const(g.nodes[0].inputs[1]).tolist(), [0, 0, 2, 1, 0, 0, 1, 0])
        self.assertEqual(g.shape("y"), [1, 2, 6, 4])  # H: 2 + 3 + 1, W: 1 + 3 + 0

    def test_resize_axes_and_aspect_policy(self):
        model = opset18_model(
            [helper.make_node("Resize", ["x", "", "", "sizes"], ["y"], mode="nearest",
                              axes=[2, 3], keep_aspect_ratio_policy="not_larger")],
            [f32("x", [1, 1, 4, 8])], [f32("y", None)],
            [numpy_helper.from_array(np.array([8, 8], np.int64), "sizes")])
        g = self.rewritten(model)
        self.assertEqual(g.const(g.nodes[0].inputs[3]).tolist(), [1, 1, 4, 8])

    def test_group_normalization(self):
        """Opset 18's scale and bias are per group, 21's per channel; both become the nodes of
        torch 1.13's nn.GroupNorm export, whose arithmetic is checked here in numpy."""
        rng = np.random.default_rng(0)
        x = rng.standard_normal((2, 6, 3, 3)).astype(np.float32)
        for opset, count in ((18, 3), (21, 6)):
            scale = rng.standard_normal(count).astype(np.float32)
            bias = rng.standard_normal(count).astype(np.float32)
            model = opset18_model(
                [helper.make_node("GroupNormalization", ["x", "s", "b"], ["y"], num_groups=3,
                                  epsilon=1e-3)],
                [f32("x", list(x.shape))], [f32("y", list(x.shape))],
                [numpy_helper.from_array(scale, "s"), numpy_helper.from_array(bias, "b")],
                opset=opset)
            g = self.rewritten(model)
            self.assertEqual([n.op_type for n in g.nodes],
                             ["Reshape", "InstanceNormalization", "Reshape", "Mul", "Add"])
            grouped = x.reshape(2, 3, -1)
            mean = grouped.mean(axis=-1, keepdims=True)
            var = grouped.var(axis=-1, keepdims=True)
            normalised = ((grouped - mean) / np.sqrt(var + 1e-3)).reshape(x.shape)
            got = normalised * g.const(g.nodes[3].inputs[1]) + g.const(g.nodes[4].inputs[1])
            per_channel = (np.repeat(scale, 2), np.repeat(bias, 2)) if opset == 18 else \
                (scale, bias)
            want = normalised * per_channel[0].reshape(6, 1, 1) + per_channel[1].reshape(6, 1, 1)
            np.testing.assert_allclose(got, want, rtol=1e-6)
            self.assertEqual(g.nodes[1].attrs["epsilon"], np.float32(1e-3))

    def test_gelu_becomes_the_fused_operator(self):
        model = opset18_model([helper.make_node("Gelu", ["x"], ["y"])],
                              [f32("x", [1, 16])], [f32("y", [1, 16])], opset=20)
        path = os.path.join(tempfile.mkdtemp(), "gelu.onnx")
        onnx.save(model, path)
        og = compiler.front_end(path)
        self.assertEqual([n.op_type for n in og.nodes], ["GELU"])

    def test_new_operators_and_attributes_are_named(self):
        model = opset18_model(
            [helper.make_node("BitwiseNot", ["x"], ["y"]),
             helper.make_node("Pad", ["y", "pads"], ["z"], mode="wrap")],
            [helper.make_tensor_value_info("x", TensorProto.INT32, [4])],
            [helper.make_tensor_value_info("z", TensorProto.INT32, [6])],
            [numpy_helper.from_array(np.array([1, 1], np.int64), "pads")], opset=19)
        path = os.path.join(tempfile.mkdtemp(), "new.onnx")
        onnx.save(model, path)
        status, err = run_cli([path, "-o", path + ".pte", "-q"])
        self.assertEqual(status, compiler.EXIT_MODEL)
        lines = err.strip().splitlines()
        self.assertEqual(len(lines), 2, err)
        self.assertIn("(op BitwiseNot): not supported: no runtime operator lowers ONNX "
                      "BitwiseNot (opset 18)", lines[0])
        self.assertIn("(op Pad): not supported: Pad mode 'wrap'", lines[1])

    def test_opsets_out_of_range(self):
        """Clip changed at opset 11 (min and max became inputs): an opset-10 Clip is not
        read as opset 11."""
        for opset in (10, 26):
            model = opset18_model([helper.make_node("Clip", ["x"], ["y"])],
                                  [f32("x", [4])], [f32("y", [4])], opset=opset)
            path = os.path.join(tempfile.mkdtemp(), "m.onnx")
            onnx.save(model, path)
            status, err = run_cli([path, "-o", path + ".pte", "-q"])
            self.assertEqual(status, compiler.EXIT_MODEL)
            self.assertIn(f"opset {opset} is not supported (opsets 11-21", err)
            self.assertEqual(len(err.strip().splitlines()), 1)

    def test_opsets_below_11_read_when_no_operator_changed(self):
        """Not (version 1) and Or (version 7) read the same at opset 11: an opset-7 model of
        them compiles as opset 11 (And/Or/Xor/Not's node tests are written at 7 or 1)."""
        from socsim_aot import reference
        mask = [helper.make_tensor_value_info(n, onnx.TensorProto.BOOL, [4]) for n in "mky"]
        model = opset18_model([helper.make_node("Not", ["m"], ["n"]),
                               helper.make_node("Or", ["n", "k"], ["y"])], mask[:2], mask[2:],
                              opset=7)
        path = os.path.join(tempfile.mkdtemp(), "m.onnx")
        onnx.save(model, path)
        program = compiler.compile_model(path, compiler.CompileOptions())
        got = reference.run(program, [np.array([1, 0, 1, 0], np.uint8),
                                      np.array([0, 0, 1, 1], np.uint8)])[0]
        np.testing.assert_array_equal(got, [0, 1, 1, 1])

    def test_opset_22_reads_when_only_types_changed(self):
        model = opset18_model([helper.make_node("Relu", ["x"], ["y"])],
                              [f32("x", [4])], [f32("y", [4])], opset=22)
        path = os.path.join(tempfile.mkdtemp(), "m.onnx")
        onnx.save(model, path)
        self.assertEqual(run_cli([path, "-o", path + ".pte", "-q"])[0], 0)


class ExplicitFormsTest(unittest.TestCase):
    """socsim_aot/explicit_forms.py: forms that depend on shapes, written out."""

    def compile_and_run(self, model, feeds):
        from socsim_aot import reference
        path = os.path.join(tempfile.mkdtemp(), "m.onnx")
        onnx.save(model, path)
        program = compiler.compile_model(path, compiler.CompileOptions())
        return program, reference.run(program, feeds)

    def test_auto_pad(self):
        for mode, pads in (("SAME_UPPER", [0, 0, 1, 1]), ("SAME_LOWER", [1, 1, 0, 0]),
                           ("VALID", [0, 0, 0, 0])):
            model = opset18_model(
                [helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[3, 3], strides=[2, 2],
                                  auto_pad=mode)],
                [f32("x", [1, 1, 4, 4])], [f32("y", None)], opset=13)
            g = onnx_graph.from_model(model)
            self.assertEqual(g.nodes[0].attrs["pads"], pads, mode)
            self.assertNotIn("auto_pad", g.nodes[0].attrs)

    def test_layer_norm_statistics_and_reciprocal(self):
        x = np.random.default_rng(0).standard_normal((2, 3, 4)).astype(np.float32)
        model = opset18_model(
            [helper.make_node("LayerNormalization", ["x", "s", "b"], ["y", "mean", "inv"],
                              axis=1, epsilon=1e-3),
             helper.make_node("Reciprocal", ["inv"], ["std"])],
            [f32("x", [2, 3, 4])], [f32("y", None), f32("mean", None), f32("std", None)],
            [numpy_helper.from_array(np.ones((3, 4), np.float32), "s"),
             numpy_helper.from_array(np.zeros((3, 4), np.float32), "b")], opset=17)
        _, (y, mean, std) = self.compile_and_run(model, [x])
        want_mean = x.mean(axis=(1, 2), keepdims=True)
        want_std = np.sqrt(x.var(axis=(1, 2), keepdims=True) + 1e-3)
        np.testing.assert_allclose(mean, want_mean, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(std, want_std, rtol=1e-4)
        np.testing.assert_allclose(y, (x - want_mean) / want_std, rtol=1e-3, atol=1e-4)


if __name__ == "__main__":
    unittest.main()
