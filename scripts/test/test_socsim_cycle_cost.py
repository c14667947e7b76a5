"""The cycle-cost tool's arithmetic on recorded numbers (the benchmarking campaign's published
figures), without running the simulator."""

import argparse
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import socsim_cycle_cost  # noqa: E402
from socsim_aot import sources  # noqa: E402


class FitTest(unittest.TestCase):
    def test_exact_line(self):
        xs = [4, 8, 12, 16]
        fit = socsim_cycle_cost.least_squares(xs, [1000 + 25 * x for x in xs])
        self.assertAlmostEqual(fit["slope"], 25.0)
        self.assertAlmostEqual(fit["intercept"], 1000.0)
        self.assertAlmostEqual(fit["max_abs_residual"], 0.0)
        self.assertAlmostEqual(fit["r2"], 1.0)

    def test_residuals_of_a_known_fit(self):
        # y = 2x + 1 with +1/-1 alternating: the fit is y = 2x + 1, residuals +-1.
        fit = socsim_cycle_cost.least_squares([0, 1, 2, 3], [2, 2, 6, 6])
        self.assertAlmostEqual(fit["slope"], 1.6)
        self.assertAlmostEqual(fit["intercept"], 1.6)
        self.assertEqual([round(r, 6) for r in fit["residuals"]], [0.4, -1.2, 1.2, -0.4])

    def test_add8_sweep_of_the_campaign(self):
        # add8, sizes 4..40 (section 7.4.2): about 1,000 cycles (2.5 us) per element.
        sizes = list(range(4, 41, 4))
        cycles = [11331598, 11335635, 11339678, 11343715, 11348190, 11352227, 11356270,
                  11360307, 11364782, 11368819]
        fit = socsim_cycle_cost.least_squares(sizes, cycles)
        self.assertAlmostEqual(fit["slope"], 1036.1591, places=3)  # numpy.polyfit agrees
        self.assertAlmostEqual(fit["intercept"], 11327326.6, places=1)
        self.assertAlmostEqual(fit["slope"] / 400.0, 2.59, places=2)  # us per element
        self.assertAlmostEqual(fit["max_abs_residual"], 190.145, places=3)

    def test_bad_input(self):
        with self.assertRaises(ValueError):
            socsim_cycle_cost.least_squares([1], [1])
        with self.assertRaises(ValueError):
            socsim_cycle_cost.least_squares([2, 2], [1, 3])


class MethodTest(unittest.TestCase):
    def test_add_one_vs_eleven_executions(self):
        # Section 7.4.1.1: 11,333,312 vs 11,475,354 cycles, 5 elements at 400 MHz.
        fd = socsim_cycle_cost.fixed_dynamic(11333312, 11475354, 11, 5)
        self.assertEqual(fd["increment"], 142042)
        self.assertAlmostEqual(fd["per_run"], 14204.2)
        self.assertAlmostEqual(fd["per_run"] / 400, 35.51, places=2)    # us
        self.assertAlmostEqual(fd["per_element"] / 400, 7.10, places=2)  # us
        self.assertAlmostEqual(fd["fixed"], 11333312 - 14204.2)

    def test_first_element_effect(self):
        # 35.5 us for 5 elements, 3.4 us per further element: 21.9 us for the first.
        fe = socsim_cycle_cost.first_element_effect(35.5, 3.4, 5)
        self.assertAlmostEqual(fe["first_element"], 21.9)
        self.assertAlmostEqual(fe["overhead"], 18.5)

    def test_bss_breakdown_of_the_campaign(self):
        # Section 7.4.1.3: 1,336,168 vs 680,808 bytes of BSS, 11,333,312 vs 6,745,792 cycles.
        b = socsim_cycle_cost.bss_breakdown(1336168, 11333312, 680808, 6745792, 11333312 - 14204.2)
        self.assertEqual(b["bytes"][2], 655360)
        self.assertEqual(b["cycles"][2], 4587520)
        self.assertAlmostEqual(b["cycles_per_byte"], 7.0)
        self.assertAlmostEqual(b["cycles_per_byte"] / 400 * 1000, 17.5)  # ns per byte
        self.assertAlmostEqual(b["zeroing_cycles"], 7.0 * 1336168)
        self.assertAlmostEqual(b["share_of_run"], 0.8253, places=4)
        with self.assertRaises(ValueError):
            socsim_cycle_cost.bss_breakdown(100, 1, 100, 1, 1)

    def test_relative_difference(self):
        self.assertAlmostEqual(socsim_cycle_cost.relative_difference(99, 100), 0.01)
        self.assertEqual(socsim_cycle_cost.relative_difference(0, 0), 0.0)

    def test_parse_sizes(self):
        self.assertEqual(socsim_cycle_cost.parse_sizes("4-40:4"), list(range(4, 41, 4)))
        self.assertEqual(socsim_cycle_cost.parse_sizes("1-3,8"), [1, 2, 3, 8])
        with self.assertRaises(argparse.ArgumentTypeError):
            socsim_cycle_cost.parse_sizes("5")

    def test_help(self):
        with self.assertRaises(SystemExit) as e:
            socsim_cycle_cost.main(["--help"])
        self.assertEqual(e.exception.code, 0)


class ModelCacheTest(unittest.TestCase):
    """Compiled models are kept per compiler version: a changed compiler never reuses them."""

    def setUp(self):
        self.out = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.out)

    def test_other_versions_are_removed(self):
        old = socsim_cycle_cost.models_dir_for(self.out, "a" * 64)
        with open(os.path.join(old, "add8_4.pte"), "w") as f:
            f.write("old program")
        with open(os.path.join(self.out, "models", "add8_8.pte"), "w") as f:
            f.write("a program of the layout before versions")
        self.assertEqual(socsim_cycle_cost.models_dir_for(self.out, "a" * 64), old)
        self.assertTrue(os.path.exists(os.path.join(old, "add8_4.pte")))
        new = socsim_cycle_cost.models_dir_for(self.out, "b" * 64)
        self.assertNotEqual(new, old)
        self.assertEqual(os.listdir(os.path.join(self.out, "models")), [os.path.basename(new)])
        self.assertEqual(os.listdir(new), [])

    def test_digest_follows_the_sources(self):
        package = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, package)
        os.makedirs(os.path.join(package, "schema"))
        for name in ("compiler.py", os.path.join("schema", "core.py")):
            with open(os.path.join(package, name), "w") as f:
                f.write("x = 1\n")
        saved = sources.PACKAGE_DIR
        self.addCleanup(setattr, sources, "PACKAGE_DIR", saved)
        sources.PACKAGE_DIR = package
        first = sources.digest()
        self.assertEqual(sources.digest(), first)
        with open(os.path.join(package, "schema", "core.py"), "w") as f:
            f.write("x = 2\n")
        self.assertNotEqual(sources.digest(), first)
        sources.PACKAGE_DIR = saved
        self.assertEqual(len(sources.digest()), 64)


if __name__ == "__main__":
    unittest.main()
