"""Sweep files: expansion (grids, ranges, zipped axes, random samples, constraints) and the
errors of bad files (file, line, key)."""

import os
import re
import tempfile
import textwrap
import unittest

from socsim_sweep import expand, spec
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
        prog = self.write("x", "m.prog")
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
        self.assertTrue(re.match(r".*sweep\.yaml:3: run\.cpu: expected 'iss' or 'rtl'",
                                 message), message)


class ExampleFilesTest(unittest.TestCase):
    def test_every_example_expands(self):
        folder = os.path.join(ROOT, "configs", "sweeps")
        files = sorted(f for f in os.listdir(folder) if f.endswith(".yaml"))
        self.assertTrue(files)
        for name in files:
            path = os.path.join(folder, name)
            points, _ = expand.expand(spec.load(path, DEFAULT_CONFIG, SOCSIM))
            self.assertTrue(points, name)


if __name__ == "__main__":
    unittest.main()
