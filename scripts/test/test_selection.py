"""TopK, the comparisons and Where on run-time tensors (socsim_schema/selection.py), from
models torch exports: a detector-style head that keeps its five best scores (TopK values and
indices) and gates its features by a comparison computed at run time (Greater, Where), and an
embedding whose padding tokens (Equal on the int64 ids, a uint8 mask at run time) are
zeroed by Where.

Checked: float32 programs against torch (indices exactly, values within 1e-5 of the largest);
int8 programs (--quantize int8) correlate with torch at 0.98 or better; with the host build of
the runtime (SOCSIM_HOST_RUNNER), every program's outputs equal the numpy reference's (float32
within 1e-5, the rest bit for bit).
"""

import os
import subprocess
import tempfile
import unittest

import numpy as np

from socsim_aot import compiler, reference
from socsim_aot import program_format as pf
from socsim_aot import pte_format


def gated_topk():
    import torch
    torch.manual_seed(11)

    class Head(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(16, 24)

        def forward(self, x):
            h = self.fc(x)
            gated = torch.where(h > 0.2, h, 0.25 * h)
            values, indices = torch.topk(h, 5, dim=-1)
            return gated, values, indices
    return Head().eval()


def padded_embedding(vocab=20, width=8):
    import torch
    torch.manual_seed(12)

    class Embed(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = torch.nn.Embedding(vocab, width)
            self.fc = torch.nn.Linear(width, width)

        def forward(self, ids):
            pad = (ids == 0).unsqueeze(-1)
            e = self.embed(ids)
            return self.fc(torch.where(pad, torch.zeros_like(e), e))
    return Embed().eval()


class SelectionModelsTest(unittest.TestCase):
    def export(self, tmp, name, module, x, opset=13):
        import torch
        path = os.path.join(tmp, name + ".onnx")
        with torch.no_grad():
            want = module(x)
            torch.onnx.export(module, (x,), path, opset_version=opset, input_names=["x"])
        want = want if isinstance(want, tuple) else (want,)
        return path, [w.numpy() for w in want]

    def host_check(self, tmp, name, program_path, program, feed, got):
        runner = os.environ.get("SOCSIM_HOST_RUNNER")
        if not runner:
            return
        inp, out = os.path.join(tmp, name + ".in"), os.path.join(tmp, name + ".out")
        feed.tofile(inp)
        result = subprocess.run([runner, program_path, inp, out], capture_output=True,
                                text=True)
        self.assertEqual(result.returncode, 0, f"{name}: {result.stderr}")
        raw, at = open(out, "rb").read(), 0
        for tid, want in zip(program.outputs, got):
            t = program.tensors[tid]
            host = np.frombuffer(raw, pf.DTYPES[t.dtype], int(np.prod(t.shape)), at)
            at += t.nbytes
            if want.dtype == np.float32 and all(
                    program.tensors[o].dtype == 1 for i in program.instructions
                    for o in i.outputs if program.tensors[o].dtype in (1, 2)) and \
                    name.endswith("f32"):
                bound = 1e-5 * max(float(np.abs(want).max()), 1e-30)
                self.assertLessEqual(float(np.abs(host - want.reshape(-1)).max()), bound, name)
            else:
                np.testing.assert_array_equal(host, want.reshape(-1), name)

    def compile_both(self, tmp, name, path, samples):
        npz = os.path.join(tmp, name + ".npz")
        np.savez(npz, x=samples)
        progs = {}
        for kind, options in (("f32", {}), ("int8", dict(quantize="int8", calibration=npz))):
            out = os.path.join(tmp, f"{name}_{kind}.pte")
            compiler.compile_file(path, out, **options)
            with open(out, "rb") as f:
                progs[kind] = (out, pte_format.read_any(f.read()))
        return progs

    def test_gated_topk(self):
        import torch
        rng = np.random.default_rng(3)
        x = torch.from_numpy(rng.standard_normal((2, 16)).astype(np.float32))
        with tempfile.TemporaryDirectory() as tmp:
            path, want = self.export(tmp, "gated", gated_topk(), x)
            progs = self.compile_both(tmp, "gated", path,
                                      rng.standard_normal((16, 2, 16)).astype(np.float32))
            names = [i.name for i in progs["f32"][1].instructions]
            for op in ("aten::gt.Tensor_out", "aten::where.self_out", "aten::topk.values",
                       "aten::topk_indices.out"):
                self.assertIn(op, names)
            feed = x.numpy()
            for kind, (prog_path, program) in progs.items():
                got = reference.run(program, [feed])
                self.host_check(tmp, f"gated_{kind}", prog_path, program, feed, got)
                if kind == "f32":
                    for g, w in zip(got[:2], want[:2]):
                        self.assertLessEqual(float(np.abs(g - w).max()),
                                             1e-5 * float(np.abs(w).max()))
                    np.testing.assert_array_equal(got[2], want[2])
                else:
                    for g, w in zip(got[:2], want[:2]):
                        corr = np.corrcoef(g.reshape(-1).astype(np.float64),
                                           w.reshape(-1))[0, 1]
                        self.assertGreaterEqual(corr, 0.98, kind)

    def test_padding_mask_from_token_ids(self):
        import torch
        rng = np.random.default_rng(4)
        ids = rng.integers(0, 20, (1, 12))
        ids[0, 8:] = 0  # padding
        with tempfile.TemporaryDirectory() as tmp:
            path, want = self.export(tmp, "padded", padded_embedding(), torch.from_numpy(ids))
            progs = self.compile_both(tmp, "padded", path, rng.integers(0, 20, (16, 1, 12)))
            names = [i.name for i in progs["f32"][1].instructions]
            self.assertIn("aten::eq.Tensor_out", names)
            self.assertIn("aten::where.self_out", names)
            program = progs["f32"][1]
            self.assertEqual(pf.DTYPE_NAMES[program.tensors[program.inputs[0]].dtype], "int32")
            feed = ids.astype(np.int32)
            for kind, (prog_path, program) in progs.items():
                got = reference.run(program, [feed])
                self.host_check(tmp, f"padded_{kind}", prog_path, program, feed, got)
                if kind == "f32":
                    self.assertLessEqual(float(np.abs(got[0] - want[0]).max()),
                                         1e-5 * float(np.abs(want[0]).max()))
                else:
                    corr = np.corrcoef(got[0].reshape(-1).astype(np.float64),
                                       want[0].reshape(-1))[0, 1]
                    self.assertGreaterEqual(corr, 0.98)


if __name__ == "__main__":
    unittest.main()
