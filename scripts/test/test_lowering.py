"""ONNX lowering of the data-movement, softmax, division, matmul, layer normalisation and
resize operators checked against torch:
a module that uses them the ways models do is exported (opset 13), compiled to float32, and
the numpy reference executor's outputs must match torch's (1e-5 of the largest magnitude).
The simulator runs the same operators against this reference in tests/runtime (op_models).
torch exports F.pad's pads as a ConstantOfShape/Concat computation, so Pad is checked on
hand-written ONNX nodes (op_models' data_movement family) against numpy's np.pad.
"""

import os
import tempfile
import unittest

import numpy as np

from socsim_aot import compiler
from socsim_aot import reference
from socsim_aot import zoo


def _moves_module():
    torch = zoo._torch()

    class Moves(torch.nn.Module):
        def forward(self, x):
            a, b, c = torch.split(x, [3, 8, 5], dim=1)
            return x[:, 1:, 2:7:2, 1:], a, b, c, x[:, 5], x[:, :, [0, 7, 3]], x[..., -3:]
    return Moves()


def _softmax_div_module():
    torch = zoo._torch()

    class SoftmaxDiv(torch.nn.Module):
        def forward(self, x):
            scale = torch.linspace(0.5, 2.0, 16).reshape(16, 1, 1)
            return (torch.softmax(x, 1), torch.softmax(x, 2), torch.softmax(x, -1), x / scale,
                    x / (1 + torch.sigmoid(x)))
    return SoftmaxDiv()


def _attention_module():
    torch = zoo._torch()

    class Attention(torch.nn.Module):
        def forward(self, x):
            q = x.reshape(1, 16, 4, 16).transpose(1, 2)            # [1, 4 heads, 16, 16]
            scores = torch.matmul(q, q.transpose(-2, -1)) / 4.0
            return torch.matmul(torch.softmax(scores, dim=-1), q), torch.matmul(x, x[0, 0])
    return Attention()


def _layer_norm_module():
    torch = zoo._torch()

    class Norms(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.last = torch.nn.LayerNorm(8)
            self.planes = torch.nn.LayerNorm([8, 8], eps=1e-3)
            for p in self.parameters():
                torch.nn.init.uniform_(p, -1.5, 1.5)

        def forward(self, x):
            return self.last(x), self.planes(x)
    return Norms()


def _resize_module():
    torch = zoo._torch()
    F = torch.nn.functional

    class Resizes(torch.nn.Module):
        def forward(self, x):
            # torch exports a size= resize through Shape (the front end's constant folding);
            # scale factors are constants.
            return (F.interpolate(x, scale_factor=2, mode="nearest"),
                    F.interpolate(x, scale_factor=1.5, mode="nearest"),
                    F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False),
                    F.interpolate(x, scale_factor=1.5, mode="bilinear", align_corners=True),
                    F.interpolate(x, scale_factor=0.5, mode="bilinear", align_corners=False),
                    torch.nn.Upsample(scale_factor=3, mode="nearest")(x))
    return Resizes()


class LoweringAgainstTorchTest(unittest.TestCase):
    def check(self, name, module, shape=(1, 16, 8, 8), opset=13):
        torch = zoo._torch()
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, name + ".onnx")
            x = torch.from_numpy((np.random.default_rng(1).standard_normal(shape) * 3)
                                 .astype(np.float32))
            module.eval()
            with torch.no_grad():
                want = module(x)
                outputs = [f"y{i}" for i in range(len(want))]
                torch.onnx.export(module, (x,), path, opset_version=opset, input_names=["x"],
                                  output_names=outputs, do_constant_folding=True)
            program = compiler.compile_file(path, os.path.join(tmp, name + ".prog"))
        got = reference.run(program, [x.numpy()])
        self.assertEqual(len(got), len(want))
        for i, (g, w) in enumerate(zip(got, want)):
            w = w.numpy()
            self.assertEqual(list(g.shape), list(w.shape), f"output {i}")
            np.testing.assert_allclose(g, w, rtol=0, atol=1e-5 * np.abs(w).max(),
                                       err_msg=f"output {i}")

    def test_slice_split_gather(self):
        self.check("moves", _moves_module())

    def test_attention_matmul(self):
        self.check("attention", _attention_module())

    def test_layer_norm(self):
        """Opset 17 exports LayerNormalization; opset 13 its decomposition (ReduceMean, Sub,
        Pow, Add, Sqrt, Div, Mul, Add), which must compile too."""
        torch = zoo._torch()
        torch.manual_seed(0)
        self.check("layer_norm17", _layer_norm_module(), opset=17)
        torch.manual_seed(0)
        self.check("layer_norm13", _layer_norm_module(), opset=13)

    def test_resize_nearest_and_bilinear(self):
        self.check("resize", _resize_module())

    def test_softmax_any_axis_and_div(self):
        self.check("softmax_div", _softmax_div_module())


if __name__ == "__main__":
    unittest.main()
