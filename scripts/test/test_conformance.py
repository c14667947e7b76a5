"""The conformance runner (scripts/onnx_conformance.py) on small node tests of its own
(scripts/test/fixtures/conformance/, in the layout of ONNX's node tests: model.onnx and
test_data_set_0/input_*.pb, output_*.pb; `python3 test_conformance.py --regenerate` writes
them): each result class, int64 inputs given as constants, an opset-18 node, the table."""

import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import onnx_conformance as oc  # noqa: E402

CASES = os.path.join(HERE, "fixtures", "conformance")
HOST_RUNNER = os.environ.get("SOCSIM_HOST_RUNNER", "")
# test name: the result it must get
EXPECTED = {"test_relu": "pass", "test_reshape_int64_shape": "pass",
            "test_reduce_mean_axes_input_opset18": "pass", "test_add_wrong_expected": "fail",
            "test_custom_domain": "not supported", "test_no_data_set": "error"}


def write_cases(folder: str):
    """The cases, written with the onnx package of the system."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(0)

    def case(name, nodes, inputs, outputs, feeds, wants, opset=13, domain=None):
        path = os.path.join(folder, name)
        os.makedirs(os.path.join(path, "test_data_set_0"), exist_ok=True)
        graph = helper.make_graph(nodes, name, inputs, outputs)
        opsets = [helper.make_opsetid("", opset)] + \
            ([helper.make_opsetid(domain, 1)] if domain else [])
        model = helper.make_model(graph, opset_imports=opsets)
        model.ir_version = 8
        onnx.save(model, os.path.join(path, "model.onnx"))
        if feeds is None:
            os.rmdir(os.path.join(path, "test_data_set_0"))
            return
        for kind, arrays in (("input", feeds), ("output", wants)):
            for i, a in enumerate(arrays):
                with open(os.path.join(path, "test_data_set_0", f"{kind}_{i}.pb"), "wb") as f:
                    f.write(numpy_helper.from_array(a).SerializeToString())

    def vi(name, shape, t=TensorProto.FLOAT):
        return helper.make_tensor_value_info(name, t, shape)
    x = rng.standard_normal((3, 4)).astype(np.float32)
    case("test_relu", [helper.make_node("Relu", ["x"], ["y"])], [vi("x", [3, 4])],
         [vi("y", [3, 4])], [x], [np.maximum(x, 0)])
    shape = np.array([4, 3], np.int64)
    case("test_reshape_int64_shape", [helper.make_node("Reshape", ["x", "shape"], ["y"])],
         [vi("x", [3, 4]), vi("shape", [2], TensorProto.INT64)], [vi("y", [4, 3])],
         [x, shape], [x.reshape(4, 3)])
    axes = np.array([1], np.int64)
    case("test_reduce_mean_axes_input_opset18",
         [helper.make_node("ReduceMean", ["x", "axes"], ["y"], keepdims=1)],
         [vi("x", [3, 4]), vi("axes", [1], TensorProto.INT64)], [vi("y", [3, 1])],
         [x, axes], [x.mean(axis=1, keepdims=True)], opset=18)
    case("test_add_wrong_expected", [helper.make_node("Add", ["a", "b"], ["y"])],
         [vi("a", [3, 4]), vi("b", [3, 4])], [vi("y", [3, 4])], [x, x], [x + x + 0.5])
    case("test_custom_domain", [helper.make_node("Frobnicate", ["x"], ["y"],
                                                 domain="com.example")],
         [vi("x", [3, 4])], [vi("y", [3, 4])], [x], [x], domain="com.example")
    case("test_no_data_set", [helper.make_node("Relu", ["x"], ["y"])], [vi("x", [3, 4])],
         [vi("y", [3, 4])], None, None)


@unittest.skipUnless(HOST_RUNNER and os.access(HOST_RUNNER, os.X_OK),
                     "SOCSIM_HOST_RUNNER (socsim_host_runner) is not set")
class ConformanceRunnerTest(unittest.TestCase):
    def run_runner(self, *args):
        r = subprocess.run([sys.executable, os.path.join(os.path.dirname(HERE),
                                                         "onnx_conformance.py"),
                            "--data", CASES, "--host-runner", HOST_RUNNER, "-j", "2", *args],
                           capture_output=True, text=True)
        return r

    def test_results_and_table(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "results.json")
            r = self.run_runner("--json", out, "--list")
            self.assertEqual(r.returncode, 0, r.stderr)
            import json
            with open(out) as f:
                results = {x["name"]: x for x in json.load(f)}
        self.assertEqual({k: v["status"] for k, v in results.items()}, EXPECTED)
        self.assertRegex(results["test_add_wrong_expected"]["reason"],
                         r"^output 0: 12 of 12 values differ, largest error 0\.5$")
        self.assertIn("not supported: operators of domain", results["test_custom_domain"]["reason"])
        self.assertIn("onnx_conformance: 3 of 6 node tests pass (1 fail, 1 not supported, "
                      "1 error)", r.stdout)
        self.assertIn("test_relu: pass", r.stdout)

    def test_expect_pass(self):
        self.assertEqual(self.run_runner("-q", "--expect-pass", "3").returncode, 0)
        r = self.run_runner("-q", "--expect-pass", "4")
        self.assertEqual(r.returncode, 1)
        self.assertIn("3 pass, fewer than --expect-pass 4", r.stderr)

    def test_usage_errors(self):
        r = subprocess.run([sys.executable, os.path.join(os.path.dirname(HERE),
                                                         "onnx_conformance.py"),
                            "--data", "/nonexistent-folder"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("no such folder", r.stderr)

    def test_table(self):
        results = [oc.Result("test_relu", "Relu", "pass"),
                   oc.Result("test_relu_big", "Relu", "fail", "output 0: 1 of 4 values differ"),
                   oc.Result("test_frob", "Frobnicate", "not supported", "no runtime operator")]
        text = oc.table(results, "test data")
        self.assertIn("**1 pass** (0 of them folded to constants by the compiler), 1 fail, 1 "
                      "not supported,\n0 error.", text)
        self.assertIn("| Relu | yes | 2 | 1 | 1 | 0 | 0 | wrong values |", text)
        self.assertIn("| Frobnicate |  | 1 | 0 | 0 | 1 | 0 | no runtime operator |", text)
        self.assertIn("- `test_relu_big` (Relu): fail: output 0: 1 of 4 values differ", text)


class CasesTest(unittest.TestCase):
    def test_checked_in_cases_are_current(self):
        with tempfile.TemporaryDirectory() as tmp:
            write_cases(tmp)
            for name in EXPECTED:
                for root, _, files in os.walk(os.path.join(tmp, name)):
                    for f in files:
                        made = os.path.join(root, f)
                        kept = os.path.join(CASES, os.path.relpath(made, tmp))
                        with open(made, "rb") as a, open(kept, "rb") as b:
                            self.assertEqual(a.read(), b.read(), kept)


if __name__ == "__main__":
    if sys.argv[1:] == ["--regenerate"]:
        write_cases(CASES)
    else:
        unittest.main()
