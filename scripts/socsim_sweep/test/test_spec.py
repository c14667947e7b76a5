"""Sweep files: expansion (grids, ranges, zipped axes, random samples, constraints) and the
errors of bad files (file, line, key)."""

import os
import re
import tempfile
import textwrap
import unittest

import socsim_cpu
from socsim_sweep import expand, models, spec
from socsim_sweep.source import SweepError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
DEFAULT_CONFIG = os.path.join(ROOT, "configs", "soc", "default.yaml")
# the build's socsim reads the SoC descriptions (CTest sets it)
SOCSIM = os.environ.get("SOCSIM_BINARY") or os.path.join(ROOT, "build", "bin", "socsim")


class SweepFileCase(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def write(self, text, name="sweep.yaml"):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write(textwrap.dedent(text).lstrip())
        return path

    def load(self, text):
        return spec.load(self.write(text), DEFAULT_CONFIG, SOCSIM)

    def points(self, text):
        return expand.expand(self.load(text))

    def error(self, text):
        """The message of the SweepError a file raises."""
        with self.assertRaises(SweepError) as ctx:
            self.points(text)
        return str(ctx.exception)


class ExpansionTest(SweepFileCase):
    def test_grid_is_the_product_in_file_order(self):
        points, excluded = self.points("""
            name: g
            parameters:
              npu.mac_array.rows: [16, 32]
              npu.cores: [1, 2, 3]
            """)
        self.assertEqual(excluded, 0)
        self.assertEqual(points, [{"npu.mac_array.rows": r, "npu.cores": c}
                                  for r in (16, 32) for c in (1, 2, 3)])

    def test_ranges_arithmetic_and_geometric(self):
        points, _ = self.points("""
            name: r
            parameters:
              npu.mac_array.rows: {from: 8, to: 64, factor: 2}
              cpu.clock_mhz: {from: 100, to: 300, step: 100}
            """)
        self.assertEqual(sorted({p["npu.mac_array.rows"] for p in points}), [8, 16, 32, 64])
        self.assertEqual(sorted({p["cpu.clock_mhz"] for p in points}), [100, 200, 300])
        self.assertEqual(len(points), 12)

    def test_zipped_parameters_advance_together(self):
        points, _ = self.points("""
            name: z
            parameters:
              cpu.clock_mhz: [200, 400]
              npu.clock_mhz: [500, 1000]
              npu.cores: [1, 3]
            zip:
              - [cpu.clock_mhz, npu.clock_mhz]
            """)
        self.assertEqual(len(points), 4)
        pairs = {(p["cpu.clock_mhz"], p["npu.clock_mhz"]) for p in points}
        self.assertEqual(pairs, {(200, 500), (400, 1000)})

    def test_constraints_drop_points(self):
        points, excluded = self.points("""
            name: c
            parameters:
              npu.mac_array.rows: [16, 32, 64]
              npu.mac_array.columns: [16, 32, 64]
            constraints:
              - npu.mac_array.rows * npu.mac_array.columns <= 1024
              - npu.mac_array.rows <= npu.mac_array.columns or npu.mac_array.rows == 64
            """)
        got = {(p["npu.mac_array.rows"], p["npu.mac_array.columns"]) for p in points}
        self.assertEqual(got, {(16, 16), (16, 32), (16, 64), (32, 32), (64, 16)})
        self.assertEqual(excluded, 4)

    def test_random_samples_repeat_with_their_seed(self):
        text = """
            name: s
            parameters:
              npu.cores: [1, 3]
            random:
              samples: 5
              seed: {seed}
              parameters:
                npu.mac_array.rows: {{integer: [8, 64], step: 8}}
                cpu.clock_mhz: {{uniform: [100.0, 800.0]}}
                npu.mac_array.dataflow: {{choice: [weight_stationary, output_stationary]}}
            """
        a, _ = self.points(text.format(seed=7))
        b, _ = self.points(text.format(seed=7))
        c, _ = self.points(text.format(seed=8))
        self.assertEqual(len(a), 10)
        self.assertEqual(a, b)
        self.assertNotEqual(a, c)
        for p in a:
            self.assertIn(p["npu.mac_array.rows"], range(8, 65, 8))
            self.assertTrue(100.0 <= p["cpu.clock_mhz"] <= 800.0)
        # the samples are one axis, crossed with the grid
        self.assertEqual([p["npu.mac_array.rows"] for p in a[:5]],
                         [p["npu.mac_array.rows"] for p in a[5:]])

    def test_several_models_are_an_axis(self):
        prog = self.write("x", "m.pte")
        sweep = self.load(f"""
            name: m
            models:
              a: {{program: {prog}}}
              b: {{program: {prog}}}
            parameters:
              npu.cores: [1, 2]
            """)
        points, _ = expand.expand(sweep)
        self.assertEqual([(p["model"], p["npu.cores"]) for p in points],
                         [("a", 1), ("a", 2), ("b", 1), ("b", 2)])

    def test_preset_and_default_keys_are_parameters(self):
        # npu.* come from the NPU preset, memory_map.ddr.timing.* from the DDR preset,
        # cpu.fetch_wrap is a default: socsim config shows them all
        sweep = self.load("""
            name: p
            parameters:
              npu.buffer_per_core: [128KiB, 384KiB]
              memory_map.ddr.timing.tRCD: [39, 45]
              memory_map.ddr.preset: [../ddr/ddr4-3200.yaml]
              cpu.fetch_wrap: [0]
            """)
        self.assertEqual([p.kind for p in sweep.parameters], ["set"] * 4)


class BadFileTest(SweepFileCase):
    def assertError(self, text, line, pattern):
        message = self.error(text)
        self.assertRegex(message, rf"sweep\.yaml:{line}: .*{pattern}")

    def test_unknown_key(self):
        self.assertError("""
            name: u
            parameters:
              npu.cores: [1]
            metrix:
              a: summary.cycles
            """, 4, "unknown key 'metrix'")

    def test_parameter_not_in_the_config(self):
        self.assertError("""
            name: n
            parameters:
              npu.mac_array.rowz: [16, 32]
            """, 3, r"npu\.mac_array\.rowz: 'npu\.mac_array\.rowz' is not a key of .*default"
                    r"\.yaml")

    def test_empty_grid(self):
        self.assertError("""
            name: e
            parameters:
              npu.cores: []
            """, 3, r"npu\.cores: is empty")

    def test_empty_range(self):
        self.assertError("""
            name: e
            parameters:
              npu.cores: {from: 4, to: 2}
            """, 3, "range from 4 to 2 is empty")

    def test_zip_of_different_lengths(self):
        self.assertError("""
            name: z
            parameters:
              cpu.clock_mhz: [200, 400]
              npu.clock_mhz: [500]
            zip:
              - [cpu.clock_mhz, npu.clock_mhz]
            """, 6, "as many values each")

    def test_constraint_names_no_parameter(self):
        self.assertError("""
            name: c
            parameters:
              npu.cores: [1, 2]
            constraints:
              - npu.corez > 1
            """, 5, "names 'npu.corez', which is not a parameter")

    def test_constraints_reject_everything(self):
        self.assertError("""
            name: c
            parameters:
              npu.cores: [1, 2]
            constraints:
              - npu.cores > 5
            """, 5, "reject all 2 points")

    def test_metric_names_no_report(self):
        self.assertError("""
            name: m
            metrics:
              x: sumary.cycles
            """, 3, "names 'sumary.cycles'")

    def test_metric_reads_no_field_of_the_summary(self):
        # a typo in a summary field: refused when read, not an empty column on every point
        self.assertError("""
            name: m
            metrics:
              x: summary.cycels / 2
            """, 3, r"metrics\.x: 'summary\.cycels / 2' reads summary\.cycels, which is "
                    r"not a field of summary\.json")
        sweep = self.load("""
            name: m
            metrics:
              mhz: summary.clocks.cpu_mhz
              whole: summary["cycles"]
            """)
        self.assertIn("mhz", [n for n, _ in sweep.metrics])

    def test_metric_syntax_error(self):
        self.assertError("""
            name: m
            metrics:
              x: summary.cycles +
            """, 3, "")

    def test_metric_unknown_function(self):
        self.assertError("""
            name: m
            metrics:
              x: median(npu_layers.layers.total_cycles)
            """, 3, "unknown function")

    def test_duplicate_key(self):
        self.assertError("""
            name: d
            parameters:
              npu.cores: [1]
              npu.cores: [2]
            """, 4, "duplicate key")

    def test_not_yaml(self):
        message = self.error("name: [unclosed\n")
        self.assertRegex(message, r"sweep\.yaml:\d+: not valid YAML")

    def test_bad_value_type(self):
        self.assertError("""
            name: t
            parameters:
              npu.cores: [1, [2, 3]]
            """, 3, "values are single values")

    def test_bad_compile_option_value(self):
        prog = self.write("x", "m.onnx")
        self.assertError(f"""
            name: t
            models:
              m: {{onnx: {prog}}}
            parameters:
              compile.delegate: [npu, gpu]
            """, 5, "expected one of None, cpu-packed, npu")

    def test_every_compile_option_is_sweepable(self):
        # the compiler's input/output types, normalisation and passes, as sweep keys
        prog = self.write("x", "m.onnx")
        points, _ = self.points(f"""
            name: t
            models:
              m: {{onnx: {prog}, quantize: int8}}
            parameters:
              compile.input_type: [float32, uint8]
              compile.mean: [0, [123.675, 116.28, 103.53]]
              compile.std: [1, 58.4]
              compile.output_type: [int8]
              compile.no_pass: [[], [fold_batch_norm]]
            """)
        self.assertEqual(len(points), 16)
        self.assertIn({"compile.input_type": "uint8", "compile.mean": [123.675, 116.28, 103.53],
                       "compile.std": 58.4, "compile.output_type": "int8",
                       "compile.no_pass": ["fold_batch_norm"]}, points)
        # and in the models section
        sweep = self.load(f"""
            name: t
            models:
              m: {{onnx: {prog}, quantize: int8, input_type: uint8, mean: [1, 2, 3], std: 2}}
            """)
        self.assertEqual(sweep.models["m"].options["mean"], [1, 2, 3])

    def test_bad_compile_option_values(self):
        prog = self.write("x", "m.onnx")
        for key, values, message in (
                ("compile.input_type", "[uint8, int16]", "expected one of float32, uint8, int8"),
                ("compile.std", "[1, 0]", "compile.std cannot be 0"),
                ("compile.mean", "[0, [1, x]]", "compile.mean is a finite number or a list"),
                ("compile.mean", "[[]]", "compile.mean is a finite number or a list"),
                ("compile.no_pass", "[[1]]", "compile.no_pass is a pass name"),
                ("compile.samples", "[0]", "expected a count of at least 1")):
            with self.subTest(key=key, values=values):
                self.assertError(f"""
                    name: t
                    models:
                      m: {{onnx: {prog}}}
                    parameters:
                      {key}: {values}
                    """, 5, message)

    def test_plot_of_unknown_metric(self):
        self.assertError("""
            name: p
            parameters:
              npu.cores: [1, 2]
            plots:
              - {kind: line, x: npu.cores, y: speed}
            """, 5, "'speed' is neither a parameter nor a metric")

    def test_messages_name_file_line_and_key(self):
        message = self.error("""
            name: k
            run:
              cpu: fast
            """)
        self.assertTrue(re.match(r".*sweep\.yaml:3: run\.cpu: unknown CPU model 'fast': "
                                 r"expected .*'iss'", message), message)

    def test_swept_cpu_models_are_the_binarys(self):
        # socsim config --cpu-models names them (the CPU-model registry); every one it
        # lists is accepted, a name it does not list is refused with the list.
        names = socsim_cpu.cpu_models(SOCSIM)
        self.assertIn("iss", names)
        self.assertIn("rtl", names)
        points, _ = self.points(f"""
            name: c
            parameters:
              run.cpu: [{', '.join(names)}]
            """)
        self.assertEqual([p["run.cpu"] for p in points], names)
        self.assertError("""
            name: c
            parameters:
              run.cpu: [iss, gem5]
            """, 3, re.escape(f"unknown CPU model 'gem5': expected "
                              f"{socsim_cpu.expected(names)}"))


class CompilerArgumentsTest(unittest.TestCase):
    """A compile job's options become the compiler's own options (scripts/compile_model.py)."""

    def test_each_option_becomes_the_compilers(self):
        self.assertEqual(models.compiler_arguments({}, None), [])
        self.assertEqual(
            models.compiler_arguments({"quantize": "int8", "samples": 4, "delegate": "npu",
                                       "npu_config": "n.yaml", "input_type": "uint8",
                                       "output_type": "int8", "mean": [123.675, 116.28, 103],
                                       "std": 58, "no_pass": ["a", "b"]}, "c.npz"),
            ["--quantize", "int8", "--samples", "4", "--calibration", "c.npz",
             "--delegate", "npu", "--npu-config", "n.yaml", "--input-type", "uint8",
             "--output-type", "int8", "--mean", "123.675,116.28,103.0", "--std", "58.0",
             "--no-pass", "a", "--no-pass", "b"])


class HostileFileTest(SweepFileCase):
    """Inputs the fuzz target sweep_spec (tests/fuzz/fuzz_sweep_spec.py) and the caps of
    docs/hardening.md#limits: each is a SweepError naming the file, never another exception
    or a hang."""

    def write_bytes(self, data):
        path = os.path.join(self.tmp.name, "sweep.yaml")
        with open(path, "wb") as f:
            f.write(data)
        return path

    def load_error(self, path):
        with self.assertRaises(SweepError) as ctx:
            expand.expand(spec.load(path, DEFAULT_CONFIG, SOCSIM))
        message = str(ctx.exception)
        self.assertIn(path, message)
        return message

    def test_non_utf8_bytes(self):
        # the fuzzer's first input: a UnicodeDecodeError escaped the loader
        path = self.write_bytes(b"name: a\ndescription: \xa0\n")
        self.assertIn("sweep.yaml:2: not UTF-8 text (byte 0xa0 at offset 21)",
                      self.load_error(path))

    def test_not_a_regular_file(self):
        self.assertIn("not a regular file", self.load_error(self.tmp.name))
        fifo = os.path.join(self.tmp.name, "fifo.yaml")
        os.mkfifo(fifo)  # opening it would wait for a writer
        self.assertIn("not a regular file", self.load_error(fifo))

    def test_file_size_cap(self):
        path = self.write_bytes(b"name: a\n" + b"#" * (4 << 20))
        self.assertIn("larger than 4 MiB", self.load_error(path))

    def test_nesting(self):
        deep = self.write_bytes(b"name: a\ndescription: " + b"[" * 5000 + b"]" * 5000)
        self.assertIn("nested deeper than 64 levels", self.load_error(deep))
        path = self.write_bytes(b"name: a\ndescription: " + b"[" * 70 + b"]" * 70)
        self.assertIn("sweep.yaml:2: nested deeper than 64 levels", self.load_error(path))

    def test_aliases_counted_at_each_use(self):
        lines = ["name: a", "x0: &x0 [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]"]
        lines += [f"x{i}: &x{i} [" + ", ".join([f"*x{i - 1}"] * 10) + "]" for i in range(1, 7)]
        path = self.write_bytes("\n".join(lines).encode())
        self.assertIn("more than 100000 values", self.load_error(path))

    def test_scalars_that_do_not_construct(self):
        for text, problem in (("2001-13-45", "month must be in 1..12"),
                              ("!!binary xx=", "failed to decode base64"),
                              ("!foo 1", "could not determine a constructor"),
                              ("9" * 5000, "integer"),
                              ("0x1" + "0" * 16, "an integer beyond 64 bits"),
                              # found by the fuzz target: AttributeError, KeyError, IndexError
                              ("!!timestamp x",
                               "cannot read 'x': not a tag:yaml.org,2002:timestamp"),
                              ("!!bool x", "cannot read 'x': not a tag:yaml.org,2002:bool"),
                              ("!!int", "cannot read '': not a tag:yaml.org,2002:int")):
            with self.subTest(text=text[:20]):
                path = self.write_bytes(f"name: a\ndescription: {text}\n".encode())
                self.assertIn(problem, self.load_error(path))

    def test_a_model_value_that_is_a_map(self):
        # found by the fuzz target: `value not in sweep.models` hashed the map (TypeError)
        path = self.write_bytes(b"name: a\nmodels:\n  a: {zoo: convnet}\n  b: {zoo: resnet18}\n"
                                b"parameters:\n  model: [a, mac_pj: b]\n")
        self.assertIn("is not a model of the models section", self.load_error(path))

    def test_range_values_are_finite_and_capped(self):
        for rng, problem in (("{from: 0, to: .inf}",
                              "npu.cores.to: expected a finite number, got .inf"),
                             ("{from: 1, to: 2, step: .nan}", "expected a finite number"),
                             ("{from: 0, to: 1.0e+18}", "the range has more than 100000 values"),
                             ("{from: 1, to: 2, factor: 1.0000000000000002}",
                              "the range has more than 100000 values")):
            with self.subTest(rng=rng):
                path = self.write_bytes(
                    f"name: a\nparameters:\n  npu.cores: {rng}\n".encode())
                self.assertIn(problem, self.load_error(path))

    def test_points_and_samples_capped(self):
        grid = self.write_bytes(b"name: a\nparameters:\n"
                                b"  npu.cores: {from: 1, to: 1000}\n"
                                b"  cpu.clock_mhz: {from: 1, to: 1000}\n")
        self.assertIn("the sweep has 1000000 points before its constraints; at most 100000",
                      self.load_error(grid))
        samples = self.write_bytes(b"name: a\nrandom:\n  samples: 1000000000\n  seed: 1\n"
                                   b"  parameters:\n    npu.cores: {integer: [1, 4]}\n")
        self.assertIn("at most 100000 samples", self.load_error(samples))
        bounds = self.write_bytes(b"name: a\nrandom:\n  samples: 2\n  seed: 1\n"
                                  b"  parameters:\n    cpu.clock_mhz: {uniform: [1, .inf]}\n")
        self.assertIn("sweep.yaml:6: random.parameters.cpu.clock_mhz.uniform[1]: expected a "
                      "finite number, got .inf", self.load_error(bounds))

    def test_nul_characters_and_long_names(self):
        # both raised tracebacks: subprocess's ValueError, the lock file's ENAMETOOLONG
        for text, pattern in (
                ('run:\n  args: ["a\\0b"]\n',
                 r"sweep\.yaml:3: run\.args\[0\]: contains a NUL character"),
                ('run:\n  firmware: "x\\0"\n', r"sweep\.yaml:3: run\.firmware: contains a NUL"),
                ('parameters:\n  "npu.cores\\0": [1]\n', r"sweep\.yaml:3: a key contains a NUL")):
            with self.subTest(text=text):
                path = self.write_bytes(f"name: a\n{text}".encode())
                self.assertRegex(self.load_error(path), pattern)
        path = self.write_bytes(("name: " + "a" * 300 + "\n").encode())
        self.assertIn("sweep.yaml:1: name: a name of 300 characters: at most 128",
                      self.load_error(path))
        path = self.write_bytes(("name: a\nmodels:\n  " + "m" * 129 + ": {zoo: convnet}\n")
                                .encode())
        self.assertIn("a name of 129 characters", self.load_error(path))
        path = self.write_bytes(("name: a\nplots:\n  - {kind: line, x: cycles, y: cycles, "
                                 "name: " + "p" * 200 + "}\n").encode())
        self.assertIn("a name of 200 characters", self.load_error(path))

    def test_no_number_is_nan_or_infinite(self):
        # `timeout_s: .nan` passed `> 0` and switched the timeout off
        for text, line, key in (("run:\n  timeout_s: .nan\n", 3, "run.timeout_s"),
                                ("run:\n  timeout_s: -.inf\n", 3, "run.timeout_s"),
                                ("run:\n  args: [1, .NaN]\n", 3, r"run.args\[1\]"),
                                ("parameters:\n  cpu.clock_mhz: [200, .inf]\n", 3,
                                 r"parameters.cpu.clock_mhz\[1\]"),
                                ("parameters:\n  run.timeout_s: [.nan]\n", 3,
                                 r"parameters.run.timeout_s\[0\]"),
                                ("cost:\n  mac_pj: {int8: .inf}\n", 3, "cost.mac_pj.int8"),
                                ("metrics:\n  x: {a: .nan}\n", 3, "metrics.x.a")):
            with self.subTest(text=text):
                path = self.write_bytes(f"name: a\n{text}".encode())
                self.assertRegex(self.load_error(path),
                                 rf"sweep\.yaml:{line}: {key}: expected a finite number, got "
                                 r"[-+]?\.(nan|NaN|inf)$")

    def test_expressions_that_would_not_end(self):
        for constraint, problem in (("npu.cores ** 99999999 > 0", "has more than 4096 bits"),
                                    ("len('x' * 10 ** 12) > 0", "more than 1000000 elements"),
                                    ("round(npu.cores, -10 ** 12) > 0", "round() to"),
                                    ("sqrt(10 ** 400) > 0", "sqrt(): int too large"),
                                    ("-" * 3000 + "npu.cores > 0", "nested deeper than 100"),
                                    ("(" * 250 + "npu.cores" + ")" * 250 + " > 0",
                                     "cannot parse expression"),
                                    ("npu.cores > 0x1" + "0" * 20, "beyond 64 bits")):
            with self.subTest(constraint=constraint[:30]):
                path = self.write_bytes(
                    f"name: a\nparameters:\n  npu.cores: [1, 2]\n"
                    f"constraints:\n  - \"{constraint}\"\n".encode())
                self.assertIn(problem, self.load_error(path))


class ExampleFilesTest(unittest.TestCase):
    def test_every_example_expands(self):
        """Every study in configs/sweeps expands. Studies whose programs are made first into
        the build folder (their headers say how) are loaded from a copy of configs/ beside
        a stand-in build folder holding empty files of those names: the files' contents are
        read when a point runs, not when the study is loaded."""
        folder = os.path.join(ROOT, "configs", "sweeps")
        files = sorted(f for f in os.listdir(folder) if f.endswith(".yaml"))
        self.assertTrue(files)
        missing = re.compile(r"no such file: (.*)$")
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "configs"))
            for sub in os.listdir(os.path.join(ROOT, "configs")):
                os.symlink(os.path.join(ROOT, "configs", sub), os.path.join(tmp, "configs", sub))
            build = os.path.join(tmp, "build") + os.sep
            for name in files:
                path = os.path.join(tmp, "configs", "sweeps", name)
                for _ in range(50):
                    try:
                        points, _ = expand.expand(spec.load(path, DEFAULT_CONFIG, SOCSIM))
                        break
                    except SweepError as e:
                        found = missing.search(str(e))
                        stand_in = found and os.path.normpath(found.group(1))
                        # only generated inputs under build/ may be stood in for
                        if not stand_in or not stand_in.startswith(build):
                            raise
                        self.assertFalse(os.path.exists(stand_in), str(e))
                        os.makedirs(os.path.dirname(stand_in), exist_ok=True)
                        open(stand_in, "wb").close()
                else:
                    self.fail(f"{name}: too many missing files")
                self.assertTrue(points, name)


if __name__ == "__main__":
    unittest.main()
