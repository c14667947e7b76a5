"""Small versions of the ten models of scripts/onnx_models.py that the family tests
(test_families.py, test_vit.py) do not already cover: a YOLO-style detector (at 64x64, fewer
channels), the TCN, the DCGAN generator and the DS-CNN keyword spotter, each exported by
torch, compiled int8 with the NPU delegate and run by the numpy reference executor (bit-exact
with the firmware and the NPU model); its outputs must correlate with torch's float outputs
at 0.98 or better, and the NPU must run every convolution. The full-size models on the
simulator against onnxruntime are the opt-in test onnx-reference.ten_models."""

import os
import tempfile
import unittest

import numpy as np

import onnx_models
from socsim_aot import compiler, reference


class SmallModelsTest(unittest.TestCase):
    def check(self, name, module, shape, opset=13):
        import torch
        rng = np.random.default_rng(5)
        x = rng.standard_normal(shape).astype(np.float32)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, name + ".onnx")
            with torch.no_grad():
                want = module(torch.from_numpy(x)).numpy()
            torch.onnx.export(module, torch.from_numpy(x), path, opset_version=opset,
                              input_names=["x"], output_names=["y"])
            npz = os.path.join(tmp, name + ".npz")
            np.savez(npz, x=rng.standard_normal((8,) + shape).astype(np.float32))
            program = compiler.compile_model(path, compiler.CompileOptions(
                quantize="int8", calibration=npz, delegate="npu"))
        got = reference.run(program, [x])[0]
        corr = np.corrcoef(got.reshape(-1).astype(np.float64), want.reshape(-1))[0, 1]
        print(f"{name}: correlation with torch's float32 {corr:.4f}")
        self.assertGreaterEqual(corr, 0.98, name)
        cpu = [i.name for i in program.instructions if "convolution" in i.name]
        self.assertEqual(cpu, [], f"{name}: every convolution on the NPU")

    def test_yolo_style_detector(self):
        module, shape, opset = onnx_models.yolo(size=64, c=8)
        self.check("yolo", module, shape, opset)

    def test_tcn(self):
        self.check("tcn", *onnx_models.tcn())

    def test_dcgan_generator(self):
        self.check("dcgan", *onnx_models.dcgan())

    def test_ds_cnn(self):
        self.check("ds_cnn", *onnx_models.ds_cnn())


if __name__ == "__main__":
    unittest.main()
