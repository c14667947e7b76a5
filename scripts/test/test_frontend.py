"""The compiler's front end as a user meets it: torch exports at every opset from 11 to 17,
one report of every node that cannot be compiled, --print-ops before anything is lowered,
the compile log, and the defaults of --delegate npu."""

import io
import os
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

import numpy as np
import onnx
from onnx import TensorProto, helper

from socsim_aot import compiler, onnx_graph, passes, reference
from socsim_aot.ir import CompileError

OPSETS = range(onnx_graph.MIN_OPSET, 18)  # what torch 1.13 exports (torch 2: test_opsets.py)


def small_net():
    """Conv + ReLU6 + BN (as DenseNet: torch folds a BN right after a convolution itself),
    shape arithmetic (view by x.size(0)), transpose, unsqueeze/squeeze, linear, softmax: what
    exporters write differently from one opset to the next."""
    import torch
    nn = torch.nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 8, 3, padding=1)
            self.bn = nn.BatchNorm2d(8)
            self.fc = nn.Linear(8 * 16, 10)

        def forward(self, x):
            x = self.bn(nn.functional.relu6(self.conv(x)))
            x = x.view(x.size(0), 8, -1).transpose(1, 2)
            x = x.reshape(x.size(0), -1).unsqueeze(1).squeeze(1)
            return torch.softmax(self.fc(x), dim=-1)

    torch.manual_seed(0)
    net = Net()
    with torch.no_grad():
        net.bn.running_mean.uniform_(-1, 1)
        net.bn.running_var.uniform_(0.5, 2)
    return net.eval()


def run(argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = compiler.main(argv)
    return status, out.getvalue(), err.getvalue()


class FrontEndTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def unsupported_model(self):
        """Relu, Hardmax, Relu, Det: two operators the runtime has no kernel for."""
        x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 4])
        y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])
        nodes = [helper.make_node("Relu", ["x"], ["a"], name="ok"),
                 helper.make_node("Hardmax", ["a"], ["b"], name="argmax_onehot"),
                 helper.make_node("Relu", ["b"], ["c"], name="ok2"),
                 helper.make_node("Det", ["c"], ["y"], name="det")]
        model = helper.make_model(helper.make_graph(nodes, "g", [x], [y]),
                                  opset_imports=[helper.make_opsetid("", 13)])
        onnx.save(model, self.path("bad.onnx"))
        return self.path("bad.onnx")

    def test_every_opset_from_11_to_17_compiles_as_torch_exports_it(self):
        import torch
        net = small_net()
        x = torch.randn(1, 3, 4, 4)
        with torch.no_grad():
            want = net(x).numpy()
        for opset in OPSETS:
            with self.subTest(opset=opset):
                path = self.path(f"net{opset}.onnx")
                with torch.no_grad():  # unfolded: Shape arithmetic and BN left to the compiler
                    torch.onnx.export(net, torch.zeros(1, 3, 4, 4), path, opset_version=opset,
                                      do_constant_folding=False)
                log = []
                program = compiler.compile_file(path, self.path("net.pte"), log=log.append)
                self.assertTrue(any(f"opset {opset}" in line for line in log))
                names = [i.name for i in program.instructions]
                self.assertEqual(names, ["aten::convolution.out", "aten::mul.out",
                                         "aten::add.out", "aten::view_copy.out",
                                         "aten::permute_copy.out", "aten::view_copy.out",
                                         "aten::linear.out", "aten::_softmax.out"])
                (got,) = reference.run(program, [x.numpy()])
                np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)

    def test_every_unsupported_node_is_reported_at_once(self):
        with self.assertRaises(CompileError) as ctx:
            compiler.compile_file(self.unsupported_model(), self.path("bad.pte"))
        text = str(ctx.exception)
        self.assertIn("2 node(s) cannot be compiled", text)
        self.assertIn("node 'argmax_onehot' (op Hardmax): not supported: no runtime operator "
                      "lowers ONNX Hardmax", text)
        self.assertIn("node 'det' (op Det)", text)
        self.assertNotIn("node 'ok'", text)
        self.assertFalse(os.path.exists(self.path("bad.pte")))

    def test_print_ops_lists_the_needs_even_of_a_model_that_does_not_compile(self):
        status, out, err = run([self.unsupported_model(), "--print-ops", "-q"])
        self.assertEqual(status, 1)
        rows = {line.split()[0]: line for line in out.splitlines()[1:]}
        self.assertEqual(sorted(rows), ["Det", "Hardmax", "Relu"])
        self.assertRegex(rows["Relu"], r"Relu\s+2\s+aten::relu.out")
        self.assertIn("NOT LOWERED: 1 node(s): not supported", rows["Hardmax"])
        self.assertIn("2 node(s) cannot be compiled", err)
        self.assertNotIn("SOCSIM_KERNEL_OPS", out)

    def test_print_ops_of_a_compilable_model_ends_with_its_kernels(self):
        import torch
        with torch.no_grad():
            torch.onnx.export(small_net(), torch.zeros(1, 3, 4, 4), self.path("n.onnx"),
                              opset_version=13)
        status, out, err = run([self.path("n.onnx"), "--print-ops", "--quantize", "int8"])
        self.assertEqual(status, 0, err)
        lines = out.splitlines()
        self.assertEqual(lines[0].split(), ["ONNX", "operator", "nodes", "runtime", "operators"])
        self.assertRegex(out, r"\nConv\s+1\s+aten::convolution.out\n")
        self.assertTrue(lines[-1].startswith("SOCSIM_KERNEL_OPS="))
        kernels = lines[-1].split("=", 1)[1].split(";")
        self.assertIn("quantized_decomposed::convolution.out", kernels)
        self.assertIn("quantized_decomposed::quantize_per_tensor.out", kernels)
        # The compile log: the front end, then one line per pass.
        for name in passes.names():
            self.assertIn(f"compile_model: pass {name}: ", err)

    def test_a_pass_can_be_switched_off(self):
        import torch
        with torch.no_grad():
            torch.onnx.export(small_net(), torch.zeros(1, 3, 4, 4), self.path("n.onnx"),
                              opset_version=13, do_constant_folding=False)
        with self.assertRaises(CompileError) as ctx:
            compiler.compile_file(self.path("n.onnx"), self.path("off.pte"),
                                  disabled_passes=("fold_batch_norm",))
        self.assertIn("(op BatchNormalization): not supported", str(ctx.exception))
        status, _, err = run([self.path("n.onnx"), "-o", self.path("x.pte"), "--no-pass",
                              "bogus"])
        self.assertEqual(status, 1)
        self.assertIn("unknown pass(es) bogus", err)

    def test_delegate_npu_defaults_to_the_rk3588_like_preset(self):
        import torch
        with torch.no_grad():
            torch.onnx.export(small_net(), torch.zeros(1, 3, 4, 4), self.path("n.onnx"),
                              opset_version=13)
        log = []
        program = compiler.compile_file(self.path("n.onnx"), self.path("npu.pte"),
                                        log=log.append, quantize="int8", delegate="npu")
        self.assertTrue(any("rk3588-like.yaml (the default" in line for line in log))
        self.assertEqual(program.delegates[0].backend, "npu")
        with self.assertRaises(CompileError) as ctx:
            compiler.compile_file(self.path("n.onnx"), self.path("f.pte"), delegate="npu")
        self.assertIn("quantise", str(ctx.exception))

    def test_opsets_outside_the_range_are_refused(self):
        x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])
        y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])
        model = helper.make_model(helper.make_graph([helper.make_node("Clip", ["x"], ["y"])],
                                                    "g", [x], [y]),
                                  opset_imports=[helper.make_opsetid("", 9)])
        onnx.save(model, self.path("old.onnx"))
        with self.assertRaises(CompileError) as ctx:
            compiler.load_onnx(self.path("old.onnx"))
        self.assertIn("opset 9 is not supported (opsets 11-21", str(ctx.exception))


if __name__ == "__main__":
    unittest.main()
