"""ONNX lowering of the data-movement, softmax, division, matmul, layer normalisation and
resize operators checked against torch:
a module that uses them the ways models do is exported (opset 13), compiled to float32, and
the numpy reference executor's outputs must match torch's (1e-5 of the largest magnitude).
The simulator runs the same operators against this reference in tests/runtime (op_models).
torch computes F.pad's pads and a size= resize's sizes with Shape, ConstantOfShape and Concat
nodes, which the front end folds (passes/fold_constants.py).
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


def _pad_module():
    torch = zoo._torch()
    F = torch.nn.functional

    class Pads(torch.nn.Module):
        def forward(self, x):
            return (F.pad(x, (1, 2, 0, 1), value=0.75), F.pad(x, (2, 4, 3, 1), mode="reflect"),
                    F.pad(x, (1, 0, 0, 3), mode="replicate"))
    return Pads()


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
            return (F.interpolate(x, scale_factor=2, mode="nearest"),
                    F.interpolate(x, size=(5, 12), mode="nearest"),
                    F.interpolate(x, size=(3, 13), mode="bilinear", align_corners=True),
                    F.interpolate(x, scale_factor=1.5, mode="nearest"),
                    F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False),
                    F.interpolate(x, scale_factor=1.5, mode="bilinear", align_corners=True),
                    F.interpolate(x, scale_factor=0.5, mode="bilinear", align_corners=False),
                    torch.nn.Upsample(scale_factor=3, mode="nearest")(x))
    return Resizes()


def _encoder_module():
    torch = zoo._torch()
    torch.manual_seed(0)
    # Dropout 0 and training mode: torch's inference fast path has no ONNX export.
    layer = torch.nn.TransformerEncoderLayer(64, 4, dim_feedforward=128, dropout=0.0,
                                             batch_first=True)
    return layer.train()


class LoweringAgainstTorchTest(unittest.TestCase):
    def check(self, name, module, shape=(1, 16, 8, 8), opset=13, int8_tolerance=None):
        torch = zoo._torch()
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, name + ".onnx")
            x = torch.from_numpy((np.random.default_rng(1).standard_normal(shape) * 3)
                                 .astype(np.float32))
            with torch.no_grad():  # no module has dropout or batch norm: any mode
                want = module(x)
                want = want if isinstance(want, tuple) else (want,)
                outputs = [f"y{i}" for i in range(len(want))]
                torch.onnx.export(module, (x,), path, opset_version=opset, input_names=["x"],
                                  output_names=outputs, do_constant_folding=True,
                                  training=torch.onnx.TrainingMode.PRESERVE)
            program = compiler.compile_file(path, os.path.join(tmp, name + ".prog"))
            if int8_tolerance is not None:
                calibration = os.path.join(tmp, name + ".npz")
                np.savez(calibration, x=(np.random.default_rng(2).standard_normal((8,) + shape)
                                         * 3).astype(np.float32))
                quantized = compiler.compile_file(path, os.path.join(tmp, name + "_int8.prog"),
                                                  quantize="int8", calibration=calibration)
        got = reference.run(program, [x.numpy()])
        self.assertEqual(len(got), len(want))
        for i, (g, w) in enumerate(zip(got, want)):
            w = w.numpy()
            self.assertEqual(list(g.shape), list(w.shape), f"output {i}")
            np.testing.assert_allclose(g, w, rtol=0, atol=1e-5 * np.abs(w).max(),
                                       err_msg=f"output {i}")
        if int8_tolerance is not None:
            got = reference.run(quantized, [x.numpy()])[0]
            w = want[0].numpy()
            np.testing.assert_allclose(got, w, rtol=0, atol=int8_tolerance * np.abs(w).max())

    def test_slice_split_gather(self):
        self.check("moves", _moves_module())

    def test_transformer_encoder_layer(self):
        """nn.TransformerEncoderLayer (d_model 64, 4 heads, sequence 16): float32 as torch,
        int8 within 5% of the largest output."""
        self.check("encoder", _encoder_module(), shape=(1, 16, 64), int8_tolerance=0.05)

    def test_pad_constant_reflect_edge(self):
        self.check("pads", _pad_module())

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
