"""The model zoo end to end on the host: torch export, compilation, the numpy reference
executor against torch, and the firmware runtime (host build) against the reference.

Tolerances: float32 programs match torch within 1e-4 of the output's largest magnitude
(only the summation order differs); int8 programs match torch within 10 % of it (the
quantisation error of 8-bit activations and weights) with correlation above 0.99; the
firmware runtime matches the numpy reference bit for bit on int8 programs and within 1e-5
of the largest magnitude on float32 programs.
"""

import os
import subprocess
import tempfile
import unittest

import numpy as np

from socsim_aot import program_format as pf
from socsim_aot import pte_format
from socsim_aot import reference
from socsim_aot import zoo
from socsim_aot.schema.quantization import DEQUANTIZE, QUANTIZE

SIZES = (1, 4, 13, 1024)
F32_TOLERANCE = 1e-4
INT8_TOLERANCE = 0.1


def load(path):
    with open(path, "rb") as f:
        return pte_format.read_any(f.read())


def inputs_for(program, path):
    with open(path, "rb") as f:
        raw = f.read()
    result, at = [], 0
    for tid in program.inputs:
        t = program.tensors[tid]
        result.append(np.frombuffer(raw, pf.DTYPES[t.dtype], int(np.prod(t.shape)), at)
                      .reshape(t.shape))
        at += t.nbytes
    return result


class ZooTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = cls.tmp.name
        for name in ("add", "add8"):
            for size in SIZES:
                zoo.build_model(name, cls.dir, size=size)
        for name in zoo.FLOAT_MODELS:
            zoo.build_model(name, cls.dir)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def f(self, name):
        return os.path.join(self.dir, name)

    def run_reference(self, prog, base):
        program = load(self.f(prog))
        (out,) = reference.run(program, inputs_for(program, self.f(base + ".input.bin")))
        return out

    def test_add_matches_torch_exactly(self):
        for size in SIZES:
            out = self.run_reference(f"add_{size}.pte", f"add_{size}")
            want = np.fromfile(self.f(f"add_{size}.torch.bin"), np.float32)
            np.testing.assert_array_equal(out, want)

    def test_add8_is_a_real_int8_add(self):
        import onnx
        model = onnx.load(self.f("add8_1024.onnx"))
        self.assertEqual([n.op_type for n in model.graph.node], ["Add"])
        self.assertTrue(all(v.type.tensor_type.elem_type == onnx.TensorProto.INT8
                            for v in list(model.graph.input) + list(model.graph.output)))
        for size in SIZES:
            out = self.run_reference(f"add8_{size}.pte", f"add8_{size}")
            packed = self.run_reference(f"add8_{size}_cpu_packed.pte", f"add8_{size}")
            want = np.fromfile(self.f(f"add8_{size}.torch.bin"), np.int8)
            np.testing.assert_array_equal(out, want)
            np.testing.assert_array_equal(packed, want)
            np.testing.assert_array_equal(out.view(np.uint8), 2 * (np.arange(size) % 128))

    def test_float_models_match_torch(self):
        for name in zoo.FLOAT_MODELS:
            want = np.fromfile(self.f(name + ".torch.bin"), np.float32)
            bound = np.abs(want).max()
            f32 = self.run_reference(name + "_f32.pte", name).reshape(-1)
            self.assertLessEqual(np.abs(f32 - want).max(), F32_TOLERANCE * bound, name)
            q = self.run_reference(name + "_int8.pte", name).reshape(-1)
            self.assertLessEqual(np.abs(q - want).max(), INT8_TOLERANCE * bound, name)
            self.assertGreater(np.corrcoef(q, want)[0, 1], 0.99, name)

    def test_int8_programs_are_fully_quantised(self):
        for name in zoo.FLOAT_MODELS:
            program = load(self.f(name + "_int8.pte"))
            ops = [i.name for i in program.instructions]
            self.assertEqual(ops[0], QUANTIZE.name)
            self.assertEqual(ops[-1], DEQUANTIZE.name)
            for ins in program.instructions[1:-1]:
                self.assertEqual(program.tensors[ins.outputs[0]].dtype, 2, (name, ins.name))

    def test_firmware_runtime_matches_reference(self):
        runner = os.environ.get("SOCSIM_HOST_RUNNER")
        if not runner:
            self.skipTest("SOCSIM_HOST_RUNNER not set (run through CTest)")
        cases = [(f"{m}_{s}{v}.pte", f"{m}_{s}") for m in ("add", "add8") for s in SIZES
                 for v in ("", "_cpu_packed") if m == "add8" or not v]
        cases += [(f"{m}_{v}.pte", m) for m in zoo.FLOAT_MODELS for v in ("f32", "int8")]
        for prog, base in cases:
            out_path = self.f(prog + ".host.bin")
            result = subprocess.run([runner, self.f(prog), self.f(base + ".input.bin"),
                                     out_path, "--num-executions", "2"],
                                    capture_output=True, text=True)
            self.assertEqual(result.returncode, 0, f"{prog}: {result.stderr}")
            want = self.run_reference(prog, base)
            got = np.fromfile(out_path, want.dtype).reshape(want.shape)
            if "f32" in prog or prog.startswith("add_"):
                bound = 1e-5 * max(1e-30, np.abs(want).max())
                self.assertLessEqual(np.abs(got - want).max(), bound, prog)
            else:
                np.testing.assert_array_equal(got, want, prog)

    def test_reference_cli_prints_the_seeds_add8_results(self):
        import subprocess as sp
        import sys
        script = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                              "reference.py")
        result = sp.run([sys.executable, script, self.f("add8_1024_cpu_packed.pte"),
                         "--print-outputs"], capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        lines = result.stdout.splitlines()
        self.assertEqual(len(lines), 1024)
        self.assertEqual(lines[:4], ["res[0] = 0", "res[1] = 2", "res[2] = 4", "res[3] = 6"])
        self.assertEqual(lines[-1], "res[1023] = 254")

    def test_runner_rejects_corrupt_program(self):
        runner = os.environ.get("SOCSIM_HOST_RUNNER")
        if not runner:
            self.skipTest("SOCSIM_HOST_RUNNER not set (run through CTest)")
        with open(self.f("convnet_int8.pte"), "rb") as f:
            data = bytearray(f.read())
        for cut in (10, 100, len(data) // 2, len(data) - 1):
            path = self.f(f"cut{cut}.pte")
            with open(path, "wb") as f:
                f.write(data[:cut])
            result = subprocess.run([runner, path, self.f("out.bin")], capture_output=True,
                                    text=True)
            self.assertEqual(result.returncode, 1)
            # a cut .pte: the FlatBuffer's offsets, or its extended header's sizes, point
            # past the end of the file
            self.assertRegex(result.stderr, r"^socsim_host_runner: .*cut\d+\.pte: "
                             r"Program(Truncated|OutOfBounds) \(error 0x2[23]\): .+\n$")


if __name__ == "__main__":
    unittest.main()
