"""A small ViT (patch embedding, class token, position embedding, pre-norm blocks with
multi-head attention and GELU) compiles with --quantize int8, with and without the NPU
delegate, and agrees with torch. Its class token and position embedding are all zeros at
initialisation: the class token, concatenated with the patch embeddings, is a constant
without a range of its own (it once made a requantize multiplier 0 and the compiler fail)."""

import io
import os
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

import numpy as np

import onnx_models
from socsim_aot import compiler, reference
from socsim_aot import pte_format


def make_vit():
    """The ONNX model set's ViT (scripts/onnx_models.py), small: 32x32 images, width 32, two
    blocks, its class token and position embedding zeros."""
    import torch
    torch.manual_seed(0)
    return onnx_models.vit(image=32, dim=32, depth=2, zero_tokens=True)[0]


class VitTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        import torch
        cls.tmp = tempfile.TemporaryDirectory()
        cls.model = make_vit()
        cls.path = os.path.join(cls.tmp.name, "vit.onnx")
        # Not under no_grad: torch's fast path of attention there has no ONNX export.
        torch.onnx.export(cls.model, torch.zeros(1, 3, 32, 32), cls.path, opset_version=17)
        cls.samples = np.random.default_rng(1).standard_normal((8, 1, 3, 32, 32)) \
            .astype(np.float32)
        np.savez(os.path.join(cls.tmp.name, "cal.npz"), x=cls.samples)
        with torch.no_grad():
            cls.want = np.stack([cls.model(torch.from_numpy(s)).numpy() for s in cls.samples])

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def compile(self, *extra):
        out = os.path.join(self.tmp.name, "vit.pte")
        err = io.StringIO()
        with redirect_stdout(io.StringIO()), redirect_stderr(err):
            status = compiler.main([self.path, "-o", out, "-q", "--calibration",
                                    os.path.join(self.tmp.name, "cal.npz"), *extra])
        self.assertEqual(status, 0, err.getvalue())
        with open(out, "rb") as f:
            return pte_format.read_any(f.read())

    def correlation(self, program):
        got = np.stack([reference.run(program, [s])[0] for s in self.samples])
        return float(np.corrcoef(got.reshape(-1), self.want.reshape(-1))[0, 1])

    def test_float32(self):
        program = self.compile()
        got = np.stack([reference.run(program, [s])[0] for s in self.samples])
        np.testing.assert_allclose(got, self.want, atol=1e-4)

    def test_int8(self):
        self.assertGreaterEqual(self.correlation(self.compile("--quantize", "int8")), 0.98)

    def test_int8_npu(self):
        program = self.compile("--quantize", "int8", "--delegate", "npu")
        self.assertGreater(len(program.delegates), 0)
        self.assertGreaterEqual(self.correlation(program), 0.98)


if __name__ == "__main__":
    unittest.main()
