"""The TensorFlow Lite front end: the flatbuffer reader, TFLite's integer arithmetic and the numpy
executor against the reference interpreter's outputs (tests/runtime/tflite/, written by
scripts/gen_tflite_fixtures.py in the environment of scripts/tflite-venv.sh; no TensorFlow
is needed here)."""

import os
import struct
import subprocess
import sys
import unittest

import numpy as np

from socsim_aot import tflite_arith as ta
from socsim_aot import tflite_eval as te
from socsim_aot import tflite_reader as tr

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
FIXTURES = os.path.join(ROOT, "tests", "runtime", "tflite")

OPERATOR_CASES = (
    "conv_2d", "conv_2d_valid", "depthwise_conv_2d", "depthwise_conv_2d_mult",
    "fully_connected", "fully_connected_relu", "add", "add_broadcast", "sub", "mul",
    "average_pool_2d", "max_pool_2d", "max_pool_2d_same", "mean", "reshape", "softmax",
    "logistic", "tanh",
    "hard_swish", "relu", "relu6", "leaky_relu", "concatenation", "pad", "quantize_dequantize",
    "transpose", "strided_slice", "split", "resize_nearest_neighbor", "resize_bilinear",
    "transpose_conv", "conv_2d_uint8_io", "fully_connected_uint8_io")
MODELS = ("ds_cnn", "mobilenet_v1_025", "resnet8", "autoencoder")

# Every operator the issue lists is exercised by at least one fixture.
OPERATORS = {
    "CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "ADD", "SUB", "MUL", "AVERAGE_POOL_2D",
    "MAX_POOL_2D", "MEAN", "RESHAPE", "SOFTMAX", "LOGISTIC", "TANH", "HARD_SWISH", "RELU",
    "RELU6", "LEAKY_RELU", "CONCATENATION", "PAD", "QUANTIZE", "DEQUANTIZE", "TRANSPOSE",
    "STRIDED_SLICE", "SPLIT", "RESIZE_NEAREST_NEIGHBOR", "RESIZE_BILINEAR", "TRANSPOSE_CONV"}


def load(name):
    with open(os.path.join(FIXTURES, name + ".tflite"), "rb") as f:
        model = tr.read(f.read(), name + ".tflite")
    arrays = np.load(os.path.join(FIXTURES, name + ".npz"))
    inputs = [arrays[f"in{i}"] for i in range(len(model.inputs))]
    outputs = [arrays[f"out{i}"] for i in range(len(model.outputs))]
    return model, inputs, outputs


class ArithmeticTest(unittest.TestCase):
    def test_quantize_multiplier(self):
        self.assertEqual(ta.quantize_multiplier(0.5), (1 << 30, 0))
        self.assertEqual(ta.quantize_multiplier(1.0), (1 << 30, 1))
        self.assertEqual(ta.quantize_multiplier(0.0), (0, 0))
        m, e = ta.quantize_multiplier(0.0011477576397070377)
        self.assertEqual((m, e), (1261972871, -9))
        # 1 - 2^-40 rounds up to 2^31: the multiplier halves and the exponent grows.
        self.assertEqual(ta.quantize_multiplier(1.0 - 2.0 ** -40), (1 << 30, 1))

    def test_rounding_doubling_high_multiply(self):
        self.assertEqual(ta.srdhm(ta.INT32_MIN, ta.INT32_MIN), ta.INT32_MAX)
        self.assertEqual(ta.srdhm(1 << 30, 1 << 30), 1 << 29)
        # 2 x 3 x 2^30 / 2^32 = 1.5 -> 2; -1.5 -> -1 (the negative nudge is 1 - 2^30, and the
        # division truncates); just below -1.5 -> -2.
        self.assertEqual(ta.srdhm(3, 1 << 30), 2)
        self.assertEqual(ta.srdhm(-3, 1 << 30), -1)
        self.assertEqual(ta.srdhm(-3, (1 << 30) + 1), -2)

    def test_rounding_divide_by_power_of_two(self):
        got = [ta.rounding_divide_by_pot(x, 1) for x in (-3, -2, -1, 0, 1, 2, 3)]
        self.assertEqual(got, [-2, -1, -1, 0, 1, 1, 2])
        np.testing.assert_array_equal(te._rdbpot(np.array([-3, -1, 1, 3, 5]), 1),
                                      [-2, -1, 1, 2, 3])

    def test_vector_forms_equal_scalar_forms(self):
        rng = np.random.default_rng(3)
        xs = rng.integers(-(1 << 24), 1 << 24, 500)
        for real in (0.0011477576397070377, 0.37, 1.9, 2.0 ** -20):
            m, e = ta.quantize_multiplier(real)
            want = [ta.multiply_by_quantized_multiplier(int(x), m, e) for x in xs]
            np.testing.assert_array_equal(te.mbqm(xs, m, e), want)

    def test_single_and_double_rounding_differ_on_ties(self):
        # 35286 x 0.0011477576 = 40.4999...: a fully connected layer of the autoencoder fixture
        # where TFLite's two forms disagree (the reference kernels round it to 40).
        m, e = 1261972871, -9
        self.assertEqual(int(te.mbqm(35286, m, e)), 41)
        self.assertEqual(int(te.mbqm(35286, m, e, single=True)), 40)

    def test_single_rounding_is_the_runtime_requantisation(self):
        """The seam the fully connected lowering relies on: TFLite's single-rounding
        multiply (m, e) equals the runtime's requantize(acc, m, 31 - e), ties included."""
        from socsim_aot import fixed_point as fx
        rng = np.random.default_rng(5)
        accs = np.concatenate([rng.integers(-(1 << 31), 1 << 31, 2000),
                               np.arange(-5000, 5000)])
        for real in (0.0011477576397070377, 2.0 ** -9, 0.37, 0.99999, 1.5, 2.0 ** -30):
            m, e = ta.quantize_multiplier(real)
            np.testing.assert_array_equal(te.mbqm(accs, m, e, single=True),
                                          fx.requantize(accs, m, 31 - e))

    def test_exp_and_reciprocal(self):
        for v in (-0.01, -0.2, -1.0, -3.5, -10.0):
            raw = int(round(v * (1 << 26)))  # Q5
            got = ta.exp_on_negative_values(raw, 5) / 2.0 ** 31
            self.assertAlmostEqual(got, np.exp(v), delta=2e-6)
        self.assertEqual(ta.exp_on_negative_values(0, 5), ta.INT32_MAX)
        for v in (0.0, 0.3, 0.999):
            got = ta.one_over_one_plus_x(int(v * 2 ** 31)) / 2.0 ** 31
            self.assertAlmostEqual(got, 1 / (1 + v), delta=1e-6)

    def test_logistic_and_tanh(self):
        for v in (-7.5, -1.0, -0.1, 0.25, 2.0, 7.9):
            raw = int(round(v * (1 << 27)))  # Q4
            self.assertAlmostEqual(ta.logistic_q(raw, 4) / 2.0 ** 31, 1 / (1 + np.exp(-v)),
                                   delta=1e-6)
            self.assertAlmostEqual(ta.tanh_q(raw, 4) / 2.0 ** 31, np.tanh(v), delta=2e-6)


class ReaderTest(unittest.TestCase):
    def test_reads_quantisation(self):
        model, _, _ = load("conv_2d")
        self.assertEqual([op.opcode for op in model.operators], ["CONV_2D"])
        conv = model.operators[0]
        x, w, b = (model.tensors[i] for i in conv.inputs)
        self.assertEqual((x.dtype, w.dtype, b.dtype), ("int8", "int8", "int32"))
        self.assertEqual(w.shape, [8, 3, 3, 3])  # OHWI
        self.assertEqual(w.scale.size, 8)  # per output channel
        self.assertTrue(np.all(w.zero_point == 0))
        self.assertEqual(conv.options["stride_h"], 2)
        self.assertEqual(tr.ACTIVATIONS[conv.options["fused_activation"]], "RELU")

    def test_fixtures_cover_the_operators(self):
        seen = set()
        for name in OPERATOR_CASES + MODELS:
            model, _, _ = load(name)
            seen.update(op.opcode for op in model.operators)
        self.assertEqual(OPERATORS - seen, set())

    def test_refuses_bad_files(self):
        with open(os.path.join(FIXTURES, "conv_2d.tflite"), "rb") as f:
            good = f.read()
        bad = {
            "empty": b"",
            "identifier": good[:4] + b"XXXX" + good[8:],
            "root outside": struct.pack("<I", 1 << 30) + good[4:],
            "truncated": good[:200],
        }
        for what, data in bad.items():
            with self.subTest(what):
                with self.assertRaises(tr.TfliteError) as ctx:
                    tr.read(data, "m.tflite")
                self.assertNotIn("\n", str(ctx.exception))
                self.assertTrue(str(ctx.exception).startswith("m.tflite: "))

    def test_every_truncation_is_refused_cleanly(self):
        with open(os.path.join(FIXTURES, "add.tflite"), "rb") as f:
            good = f.read()
        for n in range(0, len(good), 7):
            try:
                tr.read(good[:n])
            except tr.TfliteError:
                pass


class ReferenceOutputsTest(unittest.TestCase):
    """numpy TFLite integer kernels == the reference interpreter, bit for bit."""

    def check(self, name):
        model, inputs, expected = load(name)
        got = te.run(model, inputs)
        self.assertEqual(len(got), len(expected))
        for g, e in zip(got, expected):
            self.assertEqual(g.dtype, e.dtype, name)
            self.assertEqual(list(g.shape), list(e.shape), name)
            np.testing.assert_array_equal(g, e, err_msg=name)

    def test_operator_cases(self):
        for name in OPERATOR_CASES:
            with self.subTest(name):
                self.check(name)

    def test_models(self):
        for name in MODELS:
            with self.subTest(name):
                self.check(name)


COMPILE = os.path.join(ROOT, "scripts", "compile_model.py")
LOWERED = ("fully_connected", "fully_connected_relu", "reshape", "autoencoder", "transpose",
           "split", "strided_slice", "pad", "max_pool_2d", "max_pool_2d_same",
           "add", "sub", "mul", "concatenation", "mean", "relu", "relu6", "leaky_relu",
           "logistic", "tanh", "hard_swish", "transpose_conv", "resize_nearest_neighbor",
           "resize_bilinear", "quantize_dequantize", "conv_2d_uint8_io",
           "fully_connected_uint8_io")


class CompilerTest(unittest.TestCase):
    """compile_model.py on .tflite files: programs whose outputs on the firmware runtime (host
    build) equal the reference interpreter's; clear refusals otherwise."""

    def setUp(self):
        import tempfile
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def compile(self, name, *extra):
        out = os.path.join(self.tmp.name, name + ".pte")
        result = subprocess.run([sys.executable, COMPILE, os.path.join(FIXTURES, name + ".tflite"),
                                 "-o", out, "-q"] + list(extra), capture_output=True, text=True)
        return result, out

    def test_programs_keep_the_model_quantisation(self):
        from socsim_aot import pte_format
        result, out = self.compile("autoencoder")
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(out, "rb") as f:
            program = pte_format.read_any(f.read())
        model, _, _ = load("autoencoder")
        x = program.tensors[program.inputs[0]]
        t = model.tensors[model.inputs[0]]
        self.assertEqual((x.dtype, x.zero_point), (2, int(t.zero_point[0])))
        self.assertAlmostEqual(x.scale, float(t.scale[0]), places=12)
        self.assertEqual([i.name for i in program.instructions],
                         ["quantized_decomposed::linear.out"] * 10)

    def test_firmware_runtime_equals_reference_kernels(self):
        runner = os.environ.get("SOCSIM_HOST_RUNNER")
        if not runner:
            self.skipTest("SOCSIM_HOST_RUNNER not set (run through CTest)")
        for name in LOWERED:
            with self.subTest(name):
                result, prog = self.compile(name)
                self.assertEqual(result.returncode, 0, result.stderr)
                _, inputs, expected = load(name)
                inp = os.path.join(self.tmp.name, name + ".in")
                with open(inp, "wb") as f:
                    f.write(b"".join(np.ascontiguousarray(a).tobytes() for a in inputs))
                out = os.path.join(self.tmp.name, name + ".out")
                run = subprocess.run([runner, prog, inp, out], capture_output=True, text=True)
                self.assertEqual(run.returncode, 0, run.stderr)
                got = np.fromfile(out, np.uint8)  # bytes: int8 and float32 bit for bit
                want = np.frombuffer(b"".join(np.ascontiguousarray(e).tobytes()
                                              for e in expected), np.uint8)
                np.testing.assert_array_equal(got, want, name)

    def test_unsupported_operators_are_refused_in_one_line(self):
        """Every fixture's operator lowers now: an operator without a lowering (the add model
        with its MUL renamed to one) is refused by name in one line."""
        from socsim_aot import tflite_frontend
        model, _, _ = load("add")
        model.operators[0].opcode = "SQUARED_DIFFERENCE"
        with self.assertRaises(tflite_frontend.CompileError) as caught:
            tflite_frontend.load_graph(model)
        message = str(caught.exception)
        self.assertIn("cannot be compiled yet", message)
        self.assertIn("SQUARED_DIFFERENCE x1", message)
        self.assertNotIn("\n", message)
        self.assertIn("NOT LOWERED", tflite_frontend.needs_table(model))

    def test_quantisation_options_are_refused(self):
        result, _ = self.compile("fully_connected", "--quantize", "int8")
        self.assertEqual(result.returncode, 1)
        self.assertIn("already quantised", result.stderr)

    def test_corrupt_file_is_refused_in_one_line(self):
        with open(os.path.join(FIXTURES, "autoencoder.tflite"), "rb") as f:
            data = f.read()
        bad = os.path.join(self.tmp.name, "bad.tflite")
        with open(bad, "wb") as f:
            f.write(data[:5000])
        result = subprocess.run([sys.executable, COMPILE, bad, "-o", bad + ".pte"],
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertEqual(len(result.stderr.strip().splitlines()), 1, result.stderr)
        self.assertNotIn("Traceback", result.stderr)

    def test_damaged_files_compile_or_are_refused(self):
        """Random byte changes in small models: a program or a CompileError, nothing else."""
        import random
        from socsim_aot import compiler
        rng = random.Random(1)
        out = os.path.join(self.tmp.name, "fuzz.pte")
        for name in ("fully_connected_relu", "split", "strided_slice", "pad", "transpose"):
            with open(os.path.join(FIXTURES, name + ".tflite"), "rb") as f:
                base = f.read()
            for _ in range(60):
                data = bytearray(base)
                for _ in range(rng.randint(1, 4)):
                    data[rng.randrange(len(data))] = rng.randrange(256)
                path = os.path.join(self.tmp.name, "fuzz.tflite")
                with open(path, "wb") as f:
                    f.write(data)
                try:
                    compiler.compile_file(path, out)
                except compiler.CompileError as e:
                    self.assertNotIn("\n", str(e))

    def test_print_ops(self):
        result = subprocess.run([sys.executable, COMPILE, os.path.join(FIXTURES, "add.tflite"),
                                 "--print-ops"], capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("tflite::add.out", result.stdout)
        self.assertIn("tflite::mul.out", result.stdout)
        self.assertNotIn("NOT LOWERED", result.stdout)
        self.assertIn("SOCSIM_KERNEL_OPS=", result.stdout)

    def test_unary_tables_are_the_integer_rules(self):
        """The lookup table of each one-input operator is TFLite's rule at every int8 value:
        the fixture's outputs are the table at its inputs, and the compiled program holds it."""
        from socsim_aot import tflite_elementwise as te
        for name in ("relu", "relu6", "leaky_relu", "logistic", "tanh", "hard_swish"):
            with self.subTest(name):
                model, inputs, expected = load(name)
                op = model.operators[0]
                table = te.rule_table(model, op)
                self.assertEqual(table.shape, (256,))
                got = table[inputs[0].astype(np.int64) + 128]
                first = expected[0] if len(model.operators) == 1 else \
                    np.transpose(expected[0], (0, 2, 1))  # relu, relu6: then a TRANSPOSE
                np.testing.assert_array_equal(got, first)

    def test_transposes_that_undo_each_other_are_removed(self):
        """Between two NCHW kernels the NCHW->NHWC and NHWC->NCHW transposes cancel: DS-CNN
        keeps only the first and the last of its 20, as do MobileNetV1 and ResNet-8 (its ADDs
        move to NCHW)."""
        from socsim_aot import pte_format
        for name, left in (("ds_cnn", 2), ("mobilenet_v1_025", 2), ("resnet8", 2)):
            with self.subTest(name):
                result, out = self.compile(name)
                self.assertEqual(result.returncode, 0, result.stderr)
                with open(out, "rb") as f:
                    program = pte_format.read_any(f.read())
                names = [i.name for i in program.instructions]
                self.assertEqual(names.count("aten::permute_copy.out"), left)

    def test_uint8_models_are_refused_in_one_line(self):
        """TFLite's older uint8 quantisation: a clear refusal naming the tensor."""
        from socsim_aot import tflite_frontend
        model, _, _ = load("fully_connected")
        t = model.tensors[model.inputs[0]]
        t.dtype = "uint8"
        with self.assertRaises(tflite_frontend.CompileError) as caught:
            tflite_frontend.load_graph(model)
        self.assertIn("is uint8", str(caught.exception))
        self.assertIn(f"tensor {t.index}", str(caught.exception))
        self.assertNotIn("\n", str(caught.exception))

    def test_uint8_weights_are_refused_in_one_line(self):
        """uint8 weights (TFLite's older asymmetric quantisation): refused naming the tensor
        and its zero point."""
        from socsim_aot import tflite_frontend
        model, _, _ = load("fully_connected")
        w = model.tensors[model.operators[0].inputs[1]]
        w.dtype, w.zero_point = "uint8", np.array([128])
        with self.assertRaises(tflite_frontend.CompileError) as caught:
            tflite_frontend.load_graph(model)
        message = str(caught.exception)
        self.assertIn(f"tensor {w.index} '{w.name}' is constant uint8", message)
        self.assertIn("zero point 128", message)
        self.assertNotIn("\n", message)

    def test_legacy_uint8_model_is_refused_naming_its_weights(self):
        """A model of TF1's older asymmetric uint8 quantisation made by the converter (uint8
        activations, uint8 weights with zero point 120): compile_model.py exits 1 with one
        line naming the weights tensor and its zero point."""
        model, _, _ = load("legacy_uint8")
        w = model.tensors[model.operators[0].inputs[1]]
        self.assertEqual((w.dtype, int(w.zero_point[0])), ("uint8", 120))
        result, _ = self.compile("legacy_uint8")
        self.assertEqual(result.returncode, 1, result.stderr)
        lines = result.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, result.stderr)
        self.assertIn(f"tensor {w.index} '{w.name}' is constant uint8 (weights with zero point "
                      "120)", lines[0])

    def test_uint8_io_programs_read_and_write_uint8(self):
        """A model converted with uint8 input and output: the program's input and output are
        uint8 (the program file records quantisation for int8 tensors only, as for the uint8
        inputs of ONNX models), and each QUANTIZE between uint8 and int8 is one
        tflite::lookup_bytes.out holding TFLite's requantisation at the 256 input values."""
        from socsim_aot import program_format as pf
        from socsim_aot import pte_format
        from socsim_aot import tflite_eval
        result, out = self.compile("conv_2d_uint8_io")
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(out, "rb") as f:
            program = pte_format.read_any(f.read())
        model, _, _ = load("conv_2d_uint8_io")
        for p_index, m_index in ((program.inputs[0], model.inputs[0]),
                                 (program.outputs[0], model.outputs[0])):
            self.assertEqual(model.tensors[m_index].dtype, "uint8")
            self.assertEqual(pf.DTYPES[program.tensors[p_index].dtype], np.dtype(np.uint8))
        names = [i.name for i in program.instructions]
        self.assertEqual(names.count("tflite::lookup_bytes.out"), 2)
        first = program.instructions[0]
        self.assertEqual(first.name, "tflite::lookup_bytes.out")
        table = np.asarray(program.tensors[first.inputs[1]].constant).view(np.uint8)
        quantize = model.operators[0]
        want = tflite_eval._dispatch(quantize, model.tensors,
                                     [np.arange(256).astype(np.uint8)])[0]
        np.testing.assert_array_equal(table.view(np.int8), want.astype(np.int8))
        # The converter's input QUANTIZE is the shift by 128 (equal scales): x - 128.
        np.testing.assert_array_equal(table.view(np.int8).astype(np.int64),
                                      np.arange(256) - 128)

    def test_failed_runs_say_why(self):
        """A run that fails names its cause: the runner's own lines (printed on its standard
        output), the cycle limit, or that socsim printed nothing."""
        from socsim_aot import tflite_check
        stdout = ("Model: 1 bytes\nexecutor_runner: instruction 30 failed\n"
                  "executor_runner: execute: ShapeMismatch (error 0x31): x.out\n"
                  "EXIT FAILURE (exit code 1) @ cycle 5\n\nProbes: 5 cycles\nregion ...\n")
        why = tflite_check.failure_reason(1, stdout, "", "100")
        self.assertIn("instruction 30 failed", why)
        self.assertIn("ShapeMismatch", why)
        self.assertNotIn("Probes", why)
        self.assertIn("--max-cycles 100", tflite_check.failure_reason(124, "", "", "100"))
        self.assertIn("printed no reason", tflite_check.failure_reason(3, "", "", "100"))


if __name__ == "__main__":
    unittest.main()
