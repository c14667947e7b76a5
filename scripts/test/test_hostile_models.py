"""The model compiler on hostile ONNX files (hostile_models.py): each is refused with its exit
status and one line per problem naming node, operator, attribute and value; never a
traceback, a signal or a program written. Also: nodes out of order are sorted, usage errors
exit 2, and a long chain of nodes compiles in linear time."""

import os
import re
import subprocess
import sys
import tempfile
import time
import unittest

import hostile_models
from socsim_aot import compiler, program_format

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMPILE_MODEL = os.path.join(SCRIPTS, "compile_model.py")


def compile_model(*args, timeout=120):
    """compile_model.py run as a user runs it (a signal shows as a negative status)."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, COMPILE_MODEL, *args], capture_output=True,
                          text=True, timeout=timeout, env=env)


class HostileModelTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def check_refused(self, case):
        model, prog = self.path(case.name + ".onnx"), self.path(case.name + ".pte")
        with open(model, "wb") as f:
            f.write(case.build())
        r = compile_model(model, "-o", prog, "-q", *case.args)
        self.assertEqual(r.returncode, case.status, r.stderr)
        self.assertNotIn("Traceback", r.stderr)
        self.assertNotIn("internal error", r.stderr)
        self.assertRegex(r.stderr, re.compile(case.expect))
        self.assertFalse(os.path.exists(prog), "a program was written")
        lines = r.stderr.strip().splitlines()
        self.assertTrue(lines)
        if case.status == 1:  # one line per problem, each naming the file
            for line in lines:
                self.assertTrue(line.startswith(f"compile_model: {model}: "), line)

    def test_every_hostile_model_is_refused_with_its_message(self):
        for case in hostile_models.CASES:
            with self.subTest(case=case.name):
                self.check_refused(case)

    def test_nodes_out_of_order_are_sorted(self):
        from onnx import helper
        from hostile_models import model, vi
        first = helper.make_node("Relu", ["x"], ["t"], name="first")
        second = helper.make_node("Sigmoid", ["t"], ["y"], name="second")
        programs = []
        for nodes in ([first, second], [second, first]):
            path = self.path("m.onnx")
            with open(path, "wb") as f:
                f.write(model(nodes, [vi("x", [1, 4])], [vi("y", [1, 4])]))
            programs.append(program_format.write(compiler.compile_model(
                path, compiler.CompileOptions())))
        self.assertEqual(programs[0], programs[1])

    def test_transpose_without_perm_reverses_the_axes(self):
        import numpy as np
        from socsim_aot import reference
        for build in (hostile_models._transpose_without_perm,
                      hostile_models._transpose_without_perm_after_inference):
            with self.subTest(build.__name__):
                path = self.path("t.onnx")
                with open(path, "wb") as f:
                    f.write(build())
                program = compiler.compile_model(path, compiler.CompileOptions())
                x = np.arange(6, dtype=np.float32).reshape(1, 2, 3)
                np.testing.assert_array_equal(reference.run(program, [x])[0],
                                              x.transpose(2, 1, 0))
                r = compile_model(path, "-o", self.path("t.pte"), "--quantize", "int8")
                self.assertEqual(r.returncode, 0, r.stderr)

    def test_scalar_inputs_to_axis_passes_are_refused_not_divided_by(self):
        # (found by the fuzz target: a ReduceMean of a scalar with axes [0, 0, 0, 2] reached
        # the layer-norm pass, which took the axes modulo the rank 0: ZeroDivisionError) the
        # passes that read an axis leave a scalar alone; lowering refuses or compiles it
        from onnx import helper
        from hostile_models import init, model, vi
        import numpy as np
        cases = {
            "reduce_mean": ([helper.make_node("ReduceMean", ["x", "a"], ["y"], name="m")],
                            [init("a", np.array([0, 0, 0, 2]))], 18),
            "softmax": ([helper.make_node("Softmax", ["x"], ["y"], name="s")], [], 13),
            "slice": ([helper.make_node("Slice", ["x", "b", "e"], ["y"], name="s")],
                      [init("b", np.array([0])), init("e", np.array([1]))], 13),
            "split": ([helper.make_node("Split", ["x"], ["y", "z"], name="s"),
                       helper.make_node("Sigmoid", ["z"], ["w"], name="g"),
                       helper.make_node("Mul", ["y", "w"], ["v"], name="m")], [], 13),
            "layer_norm": ([helper.make_node("LayerNormalization", ["x", "a"], ["y"],
                                             name="n")], [init("a", np.ones([], np.float32))],
                           17),
        }
        for name, (nodes, inits, opset) in cases.items():
            path = self.path(name + ".onnx")
            out = nodes[-1].output[0]
            with open(path, "wb") as f:
                f.write(model(nodes, [vi("x", [])], [vi(out, None)], inits, opset=opset))
            for args in ([], ["--quantize", "int8", "--samples", "1"],
                         ["--quantize", "int8", "--samples", "1", "--delegate", "npu"]):
                with self.subTest(name=name, args=args):
                    r = compile_model(path, "-o", self.path("s.pte"), *args)
                    self.assertIn(r.returncode, (0, 1), r.stderr)
                    self.assertNotIn("internal error", r.stderr)
                    self.assertNotIn("Traceback", r.stderr)

    def test_usage_errors_exit_2(self):
        path = self.path("relu.onnx")
        with open(path, "wb") as f:
            f.write(hostile_models.relu_chain(2))
        for args in (["--delegate", "npu"], ["--samples", "0", "--quantize", "int8"],
                     ["--samples", "x"], ["--quantize", "int4"], ["--mean", "a,b"]):
            with self.subTest(args=args):
                r = compile_model(path, "-o", self.path("x.pte"), *args)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertIn("error:", r.stderr)
                self.assertNotIn("Traceback", r.stderr)
        # before the front end: a model that does not exist is not even opened
        r = compile_model(self.path("missing.onnx"), "-o", self.path("x.pte"), "--delegate",
                          "npu")
        self.assertEqual(r.returncode, 2, r.stderr)

    def test_a_bad_calibration_file_is_named(self):
        path = self.path("relu.onnx")
        with open(path, "wb") as f:
            f.write(hostile_models.relu_chain(2))
        bad = self.path("bad.npz")
        with open(bad, "wb") as f:
            f.write(b"PK\x03\x04 not a zip")
        import numpy as np
        wrong = self.path("wrong.npz")
        np.savez(wrong, x=np.zeros((2, 1, 3), np.float32))
        for npz, expect in ((bad, "cannot read"), (wrong, r"input 'x' needs samples of shape "
                                                          r"\[1, 16\]"),
                            (self.path("none.npz"), "cannot read")):
            with self.subTest(npz=npz):
                r = compile_model(path, "-o", self.path("x.pte"), "--quantize", "int8",
                                  "--calibration", npz)
                self.assertEqual(r.returncode, 1, r.stderr)
                self.assertRegex(r.stderr, f"--calibration {re.escape(npz)}: .*{expect}")
                self.assertNotIn("Traceback", r.stderr)

    def test_external_data_only_from_files_beside_the_model(self):
        import numpy as np
        from onnx import TensorProto, helper
        from hostile_models import vi
        np.ones(4, np.float32).tofile(self.path("c.bin"))

        def external(location, length=None):
            t = TensorProto(name="c", data_type=TensorProto.FLOAT, dims=[4], data_location=1)
            for key, value in (("location", location), ("length", length)):
                if value is not None:
                    entry = t.external_data.add()
                    entry.key, entry.value = key, str(value)
            graph = helper.make_graph([helper.make_node("Add", ["x", "c"], ["y"], name="add")],
                                      "g", [vi("x", [4])], [vi("y", None)], [t])
            return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
        cases = {"c.bin": (None, 0, "wrote"),
                 "/dev/zero": (None, 1, "'/dev/zero' is not a regular file inside"),
                 "../c.bin": (None, 1, "'../c.bin' is not a regular file inside"),
                 "missing.bin": (None, 1, "'missing.bin' is not a regular file inside"),
                 "c.bin ": (100, 1, "bytes 0 to 100 are not inside the file of 16 bytes")}
        for location, (length, status, expect) in cases.items():
            with self.subTest(location=location):
                path = self.path("m.onnx")
                with open(path, "wb") as f:
                    f.write(external(location.strip(), length).SerializeToString())
                r = compile_model(path, "-o", self.path("x.pte"))
                self.assertEqual(r.returncode, status, r.stderr)
                self.assertIn(expect, r.stderr)

    def test_a_long_chain_compiles_in_linear_time(self):
        # 20,000 Relu nodes took more than 64 s of CPU (unfinished) when passes searched the
        # node list for each node; now about 4 s (docs/compiler.md, "Limits").
        path = self.path("chain.onnx")
        with open(path, "wb") as f:
            f.write(hostile_models.relu_chain(20000))
        start = time.monotonic()
        r = compile_model(path, "-o", self.path("chain.pte"), "-q", timeout=300)
        elapsed = time.monotonic() - start
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertLess(elapsed, 60, "a 20,000-node chain should compile in seconds")

    def test_an_identity_chain_is_removed_in_one_walk(self):
        # 20,000 Identity nodes: no-op removal rebuilt the node list and rewrote every reader
        # once per removed node (quadratic). Now the list is walked and rebuilt once, and only
        # the node writing the graph output goes through replace_uses.
        from socsim_aot import onnx_graph, passes
        from socsim_aot.onnx_graph import OnnxGraph
        from socsim_aot.passes import no_ops
        import onnx
        g = onnx_graph.from_model(onnx.load_from_string(hostile_models.identity_chain(20000)))
        calls = {"remove": 0, "replace_uses": 0}
        for name in calls:
            def counted(*args, _name=name, _real=getattr(OnnxGraph, name)):
                calls[_name] += 1
                return _real(g, *args)
            setattr(g, name, counted)
        report = no_ops.run(g, passes.Options())
        self.assertEqual([n.op_type for n in g.nodes], ["Relu"])
        self.assertEqual(g.nodes[0].inputs, ["x"])
        self.assertEqual(g.nodes[0].outputs, ["y"])  # the graph output keeps its name
        self.assertEqual(g.outputs, ["y"])
        self.assertLessEqual(calls["remove"], 2)
        self.assertEqual(calls["replace_uses"], 1)
        self.assertEqual(report.details, {"Identity": 20000})
        programs = []
        for n in (1, 20000):  # the whole compiler: the same program as one Identity gives
            path = self.path(f"identities{n}.onnx")
            with open(path, "wb") as f:
                f.write(hostile_models.identity_chain(n))
            programs.append(program_format.write(compiler.compile_model(
                path, compiler.CompileOptions())))
        self.assertEqual(programs[0], programs[1])


if __name__ == "__main__":
    unittest.main()
