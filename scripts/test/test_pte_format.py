"""The compiler's `.pte` writer and its verifying reader (socsim_aot/pte_format.py): round
trips, the operator names, corrupted files refused with a PteFormatError only, and the host
build of the firmware runtime (SOCSIM_HOST_RUNNER, set by CTest) running a compiler-written
`.pte` to the same outputs as the `.prog` of the same model."""

import contextlib
import io
import os
import random
import struct
import subprocess
import tempfile
import unittest

import numpy as np

import gen_pte_compiled_fixtures as fixtures
from socsim_aot import compiler
from socsim_aot import program_format as pf
from socsim_aot import pte_format as pt
from socsim_schema import core as schema_core
from test_program_format import sample_program


def same_program(test, a: pf.Program, b: pf.Program):
    test.assertEqual((a.inputs, a.outputs, a.buffers), (b.inputs, b.outputs, b.buffers))
    test.assertEqual(len(a.tensors), len(b.tensors))
    for x, y in zip(a.tensors, b.tensors):
        test.assertEqual((x.dtype, list(x.shape), x.quant, x.zero_point, x.axis),
                         (y.dtype, list(y.shape), y.quant, y.zero_point, y.axis))
        test.assertEqual(np.float32(x.scale), np.float32(y.scale))
        if x.quant == pf.QUANT_PER_CHANNEL:
            np.testing.assert_array_equal(x.scales, y.scales)
        test.assertEqual(x.is_constant, y.is_constant)
        if x.is_constant:
            np.testing.assert_array_equal(x.constant, y.constant)
        else:
            test.assertEqual((x.buffer, x.offset), (y.buffer, y.offset))
    test.assertEqual(len(a.instructions), len(b.instructions))
    for x, y in zip(a.instructions, b.instructions):
        test.assertEqual((x.name, x.inputs, x.outputs, x.args),
                         (y.name, y.inputs, y.outputs, y.args))


class PteFormatTest(unittest.TestCase):
    def test_round_trip_keeps_every_field(self):
        p = sample_program()
        p.instructions.append(pf.Instruction("", [0], [4], [], 0))
        data = pt.write(p)
        self.assertEqual(data[4:8], b"ET12")
        self.assertEqual(data[8:12], b"eh00")
        q = pt.read(data)
        same_program(self, p, q)
        self.assertEqual(q.delegates[0].backend, "cpu-packed")
        self.assertEqual(q.delegates[0].blob, p.delegates[0].blob)
        self.assertEqual(pt.write(q), data, "writing what was read gives the same bytes")
        self.assertIs(type(pt.read_any(pf.write(p))), pf.Program)

    def test_constants_and_segments_are_aligned(self):
        data = pt.write(sample_program())
        _, program_size, base, size = struct.unpack_from("<IQQQ", data, 12)
        self.assertEqual(base % 16, 0)
        self.assertEqual(base + size, len(data))
        q = pt.read(data)
        for t in q.tensors:
            if t.is_constant:
                self.assertEqual(t.offset % 16, 0)

    def test_operator_names(self):
        for op in schema_core.operators():
            name, overload = pt.pte_operator(op.name)
            self.assertTrue(name.startswith("socsim::"), name)
            self.assertEqual(pt.schema_operator(name, overload), op.name)
        self.assertEqual(pt.pte_operator("aten::add.out"), ("socsim::aten__add", "out"))
        self.assertEqual(pt.pte_operator("socsim::zero_insert.out"),
                         ("socsim::zero_insert", "out"))
        self.assertIsNone(pt.schema_operator("aten::add", "out"))
        with self.assertRaises(ValueError):
            pt.pte_operator("add")

    def test_every_truncation_is_rejected(self):
        data = pt.write(sample_program())
        for cut in range(len(data)):
            with self.assertRaises(pt.PteFormatError, msg=f"cut at {cut}"):
                pt.read(data[:cut])

    def test_random_corruption_raises_only_format_errors(self):
        data = pt.write(sample_program())
        rng = random.Random(1)
        refused = 0
        for _ in range(3000):
            bad = bytearray(data)
            for _ in range(rng.randint(1, 4)):
                bad[rng.randrange(len(bad))] ^= 1 << rng.randrange(8)
            try:
                pt.read(bytes(bad))
            except pt.PteFormatError:
                refused += 1
        self.assertGreater(refused, 0)

    def test_huge_words_raise_only_format_errors(self):
        data = pt.write(sample_program())
        for at in range(0, len(data) - 3, 4):
            for word in (0xFFFFFFFF, 0x7FFFFFFF, 0x80000000):
                bad = bytearray(data)
                struct.pack_into("<I", bad, at, word)
                try:
                    pt.read(bytes(bad))
                except pt.PteFormatError:
                    pass


class CompiledPteTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.model = fixtures.small_model(os.path.join(self.dir, "small.onnx"))

    def tearDown(self):
        self.tmp.cleanup()

    def compile_both(self, name, **options):
        paths = {}
        for fmt in ("prog", "pte"):
            paths[fmt] = os.path.join(self.dir, f"{name}.{fmt}")
            compiler.compile_file(self.model, paths[fmt], None,
                                  file_format="prog" if fmt == "prog" else None, **options)
        with open(paths["prog"], "rb") as f:
            prog = pf.read(f.read())
        with open(paths["pte"], "rb") as f:
            data = f.read()
        self.assertEqual(data[4:8], b"ET12", "the extension .pte chose the format")
        same_program(self, prog, pt.read(data))
        return paths

    def test_only_pte_is_written(self):
        self.assertEqual(compiler.output_format("a.pte"), "pte")
        self.assertEqual(compiler.output_format("a.bin"), "pte")
        with self.assertRaisesRegex(compiler.CompileError,
                                    r"^a\.prog: .*legacy \.prog format is still read by the "
                                    r"runtime but no longer written .*: write a\.pte$"):
            compiler.output_format("a.prog")
        # the legacy writer, asked for by name (the language-model bundle)
        self.assertEqual(compiler.output_format("a.prog", "prog"), "prog")
        # the command line refuses it: status 2, one line naming the output and the .pte
        for extra, out in (([], "legacy.prog"), (["--format", "prog"], "forced.pte")):
            path = os.path.join(self.dir, out)
            err = io.StringIO()
            with contextlib.redirect_stderr(err), self.assertRaises(SystemExit) as e:
                compiler.main([self.model, "-o", path, "-q"] + extra)
            self.assertEqual(e.exception.code, 2)
            self.assertIn(f"error: -o {path}", err.getvalue())
            self.assertIn("write " + os.path.splitext(path)[0] + ".pte", err.getvalue())
            self.assertFalse(os.path.exists(path))
        # the tests comparing the two formats ask for it
        out = os.path.join(self.dir, "legacy.prog")
        self.assertEqual(compiler.main([self.model, "-o", out, "-q"], legacy_prog=True), 0)
        with open(out, "rb") as f:
            self.assertEqual(f.read(4), b"SPRG")

    def test_int8_quantisation_survives(self):
        paths = self.compile_both("small_int8", quantize="int8")
        with open(paths["pte"], "rb") as f:
            p = pt.read(f.read())
        self.assertTrue(any(t.quant == pf.QUANT_PER_CHANNEL for t in p.tensors))
        self.assertTrue(any(t.quant == pf.QUANT_PER_TENSOR for t in p.tensors))

    def test_host_runner_runs_both_formats_alike(self):
        runner = os.environ.get("SOCSIM_HOST_RUNNER")
        if not runner:
            self.skipTest("SOCSIM_HOST_RUNNER (socsim_host_runner) is not set")
        feed = fixtures.model_input()
        inp = os.path.join(self.dir, "x.bin")
        feed.tofile(inp)
        for name, options in (("f32", {}), ("int8", dict(quantize="int8"))):
            paths = self.compile_both(name, **options)
            outs = {}
            for fmt, path in paths.items():
                out = os.path.join(self.dir, f"{name}.{fmt}.out")
                r = subprocess.run([runner, path, inp, out], capture_output=True, text=True)
                self.assertEqual(r.returncode, 0, f"{name} {fmt}: {r.stderr}")
                with open(out, "rb") as f:
                    outs[fmt] = f.read()
            self.assertEqual(len(outs["pte"]), 20)
            self.assertEqual(outs["pte"], outs["prog"], f"{name}: the same bytes")


    def test_checked_in_fixtures_are_the_compilers(self):
        """tests/runtime/pte_compiled/ holds what the compiler writes today."""
        where = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
            os.path.abspath(__file__)))), "tests", "runtime", "pte_compiled")
        for name in fixtures.FIXTURES:
            path = fixtures.compile_fixture(self.model, name, self.dir, "pte")
            with open(path, "rb") as f, open(os.path.join(where, name + ".pte"), "rb") as g:
                self.assertEqual(f.read(), g.read(), f"{name}: run "
                                 "scripts/gen_pte_compiled_fixtures.py to write it again")
            with open(os.path.join(where, name + ".input.bin"), "rb") as f:
                self.assertEqual(f.read(), fixtures.model_input().tobytes())


if __name__ == "__main__":
    unittest.main()
