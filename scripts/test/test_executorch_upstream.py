"""The recipe that builds ExecuTorch's own runtime for socsim (scripts/executorch-upstream/):
its helpers on a small made-up checkout and on recorded runner output, and build.sh's refusal
of bad arguments. The build itself needs an ExecuTorch checkout and is not part of the suite
(docs/executorch.md)."""

import os
import subprocess
import sys
import tempfile
import unittest

here = os.path.dirname(os.path.abspath(__file__))
recipe = os.path.join(here, "..", "executorch-upstream")
sys.path.insert(0, recipe)
import compare  # noqa: E402
import prepare  # noqa: E402

FUNCTIONS_YAML = """\
# a comment
- op: add.out
  kernels:
    - arg_meta: null
      kernel_name: torch::executor::add_out

- op: tanh.out
  kernels:
    - arg_meta: null
      kernel_name: torch::executor::tanh_out

- op: gone.out
  kernels:
    - arg_meta: null
      kernel_name: torch::executor::gone_out
"""
QUANTIZED_YAML = """\
- func: quantized_decomposed::quantize_per_tensor.out(Tensor input, *, Tensor(a!) out) -> Tensor(a!)
  variants: function
  kernels:
    - arg_meta: null
      kernel_name: torch::executor::quantize_per_tensor_out
"""
FILES = {
    "kernels/portable/functions.yaml": FUNCTIONS_YAML,
    "kernels/quantized/quantized.yaml": QUANTIZED_YAML,
    # the definition is found in the file that has it, whatever the file's name
    "kernels/portable/cpu/op_add.cpp": "Tensor& add_out(KernelRuntimeContext& ctx) {}\n",
    "kernels/portable/cpu/op_other.cpp": "// add_out is mentioned here only\n",
    # a kernel a macro defines: the file naming it
    "kernels/portable/cpu/op_atanh.cpp": "DEFINE_UNARY(atanh_out, std::atanh)\n",
    "kernels/portable/cpu/op_tanh.cpp": "DEFINE_UNARY(tanh_out, std::tanh)\n",
    "kernels/quantized/cpu/op_quantize.cpp":
        "Tensor& quantize_per_tensor_out(const Tensor& input, Tensor& out) {}\n",
}

UPSTREAM_OUT = """\
Model: 1056 bytes (ExecuTorch program, ExecuTorch runtime), method forward, 2 inputs
Program load: 672 cycles; method load: 8979 cycles
Execution 1: 551577 cycles
  op 0 aten::add.out: 540711 cycles
Steps: 1 instructions, 540711 cycles
EXIT SUCCESS @ cycle 2666286 (6.666 ms @ 400 MHz)
region                             count       cycles        min        max
static init                            1         2436       2436       2436
"""
SOCSIM_OUT = """\
Program load: 7410 cycles; method load: 13260 cycles
  op 0 aten::add.out: 1024 elements, 23156 cycles
Execution 1: 23429 cycles
EXIT SUCCESS @ cycle 1847859 (4.620 ms @ 400 MHz)
static init                            1       129796     129796     129796
"""


class PrepareTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name
        for path, text in FILES.items():
            full = os.path.join(self.root, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                f.write(text)

    def tearDown(self):
        self.tmp.cleanup()

    def test_kernel_table_names_every_operator(self):
        table = prepare.kernel_table(self.root)
        self.assertEqual(table["aten::add.out"], ("add_out", "kernels/portable/cpu"))
        self.assertEqual(table["quantized_decomposed::quantize_per_tensor.out"],
                         ("quantize_per_tensor_out", "kernels/quantized/cpu"))

    def test_sources_of_defined_and_macro_kernels(self):
        got = prepare.kernel_sources(self.root, [
            "aten::add.out", "aten::tanh.out", "quantized_decomposed::quantize_per_tensor.out",
            "aten::add.out"])
        self.assertEqual([os.path.relpath(p, self.root) for p in got], [
            "kernels/portable/cpu/op_add.cpp", "kernels/portable/cpu/op_tanh.cpp",
            "kernels/quantized/cpu/op_quantize.cpp"])

    def test_missing_operators_are_named(self):
        with self.assertRaises(SystemExit) as e:
            prepare.kernel_sources(self.root, ["aten::add.out", "aten::gone.out", "x::y.out"])
        self.assertIn("aten::gone.out, x::y.out", str(e.exception))

    def test_operators_of_flatc_json_with_infinities(self):
        text = """{"execution_plan": [{"operators": [
            {"name": "aten::add", "overload": "out"}, {"name": "aten::where"}],
            "values": [{"val": {"double_val": -inf}}, {"val": {"double_val": nan}},
                       {"val": {"double_val": inf}}]}]}"""
        self.assertEqual(prepare.operators_of(text), ["aten::add.out", "aten::where"])


class CompareTest(unittest.TestCase):
    def test_figures_of_both_runners(self):
        up = compare.figures(UPSTREAM_OUT)
        self.assertEqual((up["program"], up["method"], up["execute"], up["static"]),
                         (672, 8979, 551577, 2436))
        self.assertEqual(up["ops"], [(0, "aten::add.out", 540711)])
        ss = compare.figures(SOCSIM_OUT)
        self.assertEqual((ss["program"], ss["method"], ss["execute"], ss["static"]),
                         (7410, 13260, 23429, 129796))
        self.assertEqual(ss["ops"], [(0, "aten::add.out", 23156)])
        self.assertEqual(compare.ratio(551577, 23429), "23.54")
        self.assertEqual(compare.ratio(1, 0), "-")


class BuildScriptTest(unittest.TestCase):
    def run_build(self, *args):
        return subprocess.run(["bash", os.path.join(recipe, "build.sh"), *args],
                              capture_output=True, text=True)

    def test_usage_without_arguments(self):
        proc = self.run_build()
        self.assertEqual(proc.returncode, 2)
        self.assertIn("Usage: scripts/executorch-upstream/build.sh", proc.stderr)

    def test_refuses_what_is_not_a_checkout(self):
        with tempfile.TemporaryDirectory() as tmp:
            pte = os.path.join(tmp, "x.pte")
            open(pte, "wb").close()
            proc = self.run_build(os.path.join(tmp, "none"), tmp, os.path.join(tmp, "out"),
                                  sys.executable, pte)
            self.assertEqual(proc.returncode, 1)
            self.assertEqual(proc.stderr.strip().splitlines()[-1],
                             f"executorch-upstream: ET_ROOT {tmp}/none is not a directory")
            proc = self.run_build(tmp, tmp, os.path.join(tmp, "out"), sys.executable, pte)
            self.assertEqual(proc.returncode, 1)
            self.assertIn("is not an ExecuTorch checkout (no runtime/executor/program.cpp)",
                          proc.stderr)
            proc = self.run_build(tmp, tmp, os.path.join(tmp, "out"), sys.executable,
                                  os.path.join(tmp, "missing.pte"))
            self.assertEqual(proc.returncode, 1)
            self.assertIn("program " + os.path.join(tmp, "missing.pte") + " does not exist",
                          proc.stderr)


if __name__ == "__main__":
    unittest.main()
