"""Small models of the operator families the classifiers do not use, exported by torch and
run end to end on the host: a U-Net with ConvTranspose, a keyword-spotting net of 1-D
convolutions and pooling, a net with GroupNorm and InstanceNorm, and a causal decoder that
takes int64 token ids.

Each model is trained for a few steps of BatchNorm statistics on random data (healthy
activations), exported (opset 13), and compiled three ways: float32, int8 (CPU) and int8 with
the NPU delegate (rk3588-like preset). Checked:
- float32: the numpy reference executor matches torch within 1e-5 of the largest output;
- int8 and int8 + NPU: the reference's outputs correlate with torch's float outputs at 0.98
  or better (the measure of the issue these families come from); the NPU program runs every
  layer of an NPU class on the NPU;
- with the host build of the firmware runtime (SOCSIM_HOST_RUNNER, set by CTest): the float32
  program within 1e-5 of the reference and the int8 program bit for bit.
"""

import os
import subprocess
import tempfile
import unittest

import numpy as np

from socsim_aot import compiler
from socsim_aot import onnx_graph
from socsim_aot import program_format as pf
from socsim_aot import reference
from socsim_aot import zoo

NPU_CONFIG = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "configs", "npu", "rk3588-like.yaml")
MIN_CORRELATION = 0.98


def _warm(module, shape, steps=20):
    """BatchNorm running statistics from random batches, then eval mode."""
    torch = zoo._torch()
    module.train()
    with torch.no_grad():
        for _ in range(steps):
            module(torch.randn((8,) + tuple(shape[1:])))
    return module.eval()


def unet():
    """Two encoder levels, a ConvTranspose (stride 2) and a strided one with output_padding,
    skip connections by Concat."""
    torch = zoo._torch()
    nn = torch.nn
    torch.manual_seed(0)

    def block(cin, cout, stride=1):
        return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1), nn.BatchNorm2d(cout), nn.ReLU())

    class UNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.enc1, self.enc2, self.mid = block(3, 8), block(8, 16, 2), block(16, 32, 2)
            self.up2 = nn.ConvTranspose2d(32, 16, 3, stride=2, padding=1, output_padding=1)
            self.dec2 = block(32, 16)
            self.up1 = nn.ConvTranspose2d(16, 8, 2, stride=2, groups=2)
            self.dec1 = block(16, 8)
            self.head = nn.Conv2d(8, 2, 1)

        def forward(self, x):
            a = self.enc1(x)
            b = self.enc2(a)
            c = self.mid(b)
            d = self.dec2(torch.cat([b, self.up2(c)], 1))
            return self.head(self.dec1(torch.cat([a, self.up1(d)], 1)))
    return _warm(UNet(), (1, 3, 32, 32)), (1, 3, 32, 32)


def kws():
    """Keyword spotting on 40 MFCC features x 49 frames: 1-D convolutions (strided, dilated,
    depthwise), BatchNorm, MaxPool1d, AvgPool1d, a global average and a classifier."""
    torch = zoo._torch()
    nn = torch.nn
    torch.manual_seed(1)

    class Kws(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(
                nn.Conv1d(40, 32, 5, stride=2, padding=2), nn.BatchNorm1d(32), nn.ReLU(),
                nn.Conv1d(32, 32, 3, padding=2, dilation=2, groups=32), nn.BatchNorm1d(32),
                nn.ReLU(), nn.Conv1d(32, 48, 1), nn.BatchNorm1d(48), nn.ReLU(),
                nn.MaxPool1d(3, stride=2, padding=1),
                nn.Conv1d(48, 48, 3, padding=4, dilation=4), nn.BatchNorm1d(48), nn.ReLU(),
                nn.AvgPool1d(2), nn.AdaptiveAvgPool1d(1))
            self.classify = nn.Linear(48, 12)

        def forward(self, x):
            return self.classify(self.body(x).flatten(1))
    return _warm(Kws(), (1, 40, 49)), (1, 40, 49)


def group_norm():
    """Convolutions with GroupNorm (torch exports it as Reshape, InstanceNormalization,
    Reshape, Mul, Add), an InstanceNorm2d with affine parameters and one without."""
    torch = zoo._torch()
    nn = torch.nn
    torch.manual_seed(2)

    class Norms(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1, self.gn1 = nn.Conv2d(3, 16, 3, padding=1), nn.GroupNorm(4, 16)
            self.conv2, self.inorm = nn.Conv2d(16, 16, 3, padding=2, dilation=2), \
                nn.InstanceNorm2d(16, affine=True)
            self.conv3, self.gn2 = nn.Conv2d(16, 8, 3, stride=2, padding=1), nn.GroupNorm(2, 8)
            self.plain = nn.InstanceNorm2d(8)
            for p in (self.gn1.weight, self.inorm.weight, self.gn2.weight):
                nn.init.uniform_(p, 0.5, 1.5)
            for p in (self.gn1.bias, self.inorm.bias, self.gn2.bias):
                nn.init.uniform_(p, -0.5, 0.5)

        def forward(self, x):
            a = torch.relu(self.gn1(self.conv1(x)))
            b = torch.relu(self.inorm(self.conv2(a))) + a
            return self.plain(torch.relu(self.gn2(self.conv3(b))))
    return Norms().eval(), (1, 3, 16, 16)


def decoder(vocab=64, width=32, heads=4, length=12):
    """A causal decoder of two pre-norm blocks over token ids (Embedding and a learnt position
    table): one block masks with an additive -inf upper triangle, the other with
    masked_fill(mask, -inf) (exported as Where); GELU feed-forward; a language-model head."""
    torch = zoo._torch()
    nn = torch.nn
    torch.manual_seed(3)

    class Block(nn.Module):
        def __init__(self, where):
            super().__init__()
            self.where = where
            self.norm1, self.norm2 = nn.LayerNorm(width), nn.LayerNorm(width)
            self.qkv, self.proj = nn.Linear(width, 3 * width), nn.Linear(width, width)
            self.ff = nn.Sequential(nn.Linear(width, 2 * width), nn.GELU(),
                                    nn.Linear(2 * width, width))
            causal = torch.triu(torch.ones(length, length, dtype=torch.bool), 1)
            self.register_buffer("causal", causal)
            self.register_buffer("additive", torch.zeros(length, length)
                                 .masked_fill(causal, float("-inf")))

        def forward(self, x):
            q, k, v = self.qkv(self.norm1(x)).split(width, dim=-1)
            q, k, v = (t.reshape(1, length, heads, width // heads).transpose(1, 2)
                       for t in (q, k, v))
            scores = q @ k.transpose(-2, -1) / float(np.sqrt(width // heads))
            if self.where:
                scores = scores.masked_fill(self.causal, float("-inf"))
            else:
                scores = scores + self.additive
            att = (torch.softmax(scores, -1) @ v).transpose(1, 2).reshape(1, length, width)
            x = x + self.proj(att)
            return x + self.ff(self.norm2(x))

    class Decoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(vocab, width)
            self.position = nn.Parameter(torch.randn(1, length, width) * 0.1)
            self.blocks = nn.Sequential(Block(False), Block(True))
            self.norm, self.head = nn.LayerNorm(width), nn.Linear(width, vocab)

        def forward(self, ids):
            return self.head(self.norm(self.blocks(self.embed(ids) + self.position)))
    return Decoder().eval(), (1, length), vocab


def einsum_attention(width=32, heads=4, length=10):
    """Self-attention written with einsum (bqhd,bkhd->bhqk and bhqk,bkhd->bqhd) and a causal
    mask made in forward with torch.triu (ONNX Trilu at opset 14) and masked_fill."""
    torch = zoo._torch()
    nn = torch.nn
    torch.manual_seed(6)

    class Attention(nn.Module):
        def __init__(self):
            super().__init__()
            self.qkv, self.out = nn.Linear(width, 3 * width), nn.Linear(width, width)

        def forward(self, x):
            q, k, v = (t.reshape(1, length, heads, width // heads)
                       for t in self.qkv(x).split(width, dim=-1))
            scores = torch.einsum("bqhd,bkhd->bhqk", q, k) * (width // heads) ** -0.5
            upper = torch.triu(torch.ones(length, length), diagonal=1).bool()
            att = torch.softmax(scores.masked_fill(upper, float("-inf")), dim=-1)
            return self.out(torch.einsum("bhqk,bkhd->bqhd", att, v).reshape(1, length, width))
    return Attention().eval(), (1, length, width)


def repeats():
    """Expand and Tile of activations (a class token broadcast over a batch, a feature map
    tiled), each a concatenation of copies per grown axis."""
    torch = zoo._torch()

    class Repeats(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = torch.nn.Conv2d(4, 4, 3, padding=1)

        def forward(self, x):
            y = torch.relu(self.conv(x))
            return torch.cat([y.repeat(1, 1, 1, 2), y[:, :1].expand(1, 4, 6, 6)
                              .repeat(1, 1, 1, 2), y.expand(1, 4, 6, 6).repeat(1, 1, 1, 2)], 1)
    torch.manual_seed(7)
    return Repeats().eval(), (1, 4, 6, 6)


class FamiliesEndToEndTest(unittest.TestCase):
    def compile_and_check(self, name, module, shape, inputs=None, calibration=None, opset=13):
        """Exports, compiles three ways and checks (module docstring); returns the NPU
        program."""
        torch = zoo._torch()
        x = inputs if inputs is not None else torch.from_numpy(
            np.random.default_rng(1).standard_normal(shape).astype(np.float32))
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, name + ".onnx")
            with torch.no_grad():
                want = module(x).numpy()
                torch.onnx.export(module, (x,), path, opset_version=opset, input_names=["x"],
                                  output_names=["y"])
            feed = x.numpy().astype(np.int32 if x.dtype == torch.int64 else np.float32)
            if calibration is None:
                calibration = np.stack([torch.randn(shape).numpy() for _ in range(16)])
            npz = os.path.join(tmp, name + ".npz")
            np.savez(npz, x=calibration)
            progs = {kind: os.path.join(tmp, f"{name}_{kind}.pte")
                     for kind in ("f32", "int8", "int8_npu")}
            # the programs as compiled; the files are what the host runner runs
            programs = {
                "f32": compiler.compile_file(path, progs["f32"]),
                "int8": compiler.compile_file(path, progs["int8"], quantize="int8",
                                              calibration=npz),
                "int8_npu": compiler.compile_file(path, progs["int8_npu"], quantize="int8",
                                                  calibration=npz, delegate="npu",
                                                  npu_config=NPU_CONFIG)}
            got = {kind: reference.run(p, [feed])[0] for kind, p in programs.items()}
            bound = 1e-5 * np.abs(want).max()
            self.assertLessEqual(np.abs(got["f32"] - want).max(), bound, name)
            for kind in ("int8", "int8_npu"):
                corr = np.corrcoef(got[kind].reshape(-1).astype(np.float64),
                                   want.reshape(-1))[0, 1]
                print(f"{name} {kind}: correlation with torch's float32 {corr:.4f}")
                self.assertGreaterEqual(corr, MIN_CORRELATION, f"{name} {kind}")
            self.check_host_runner(name, tmp, progs, got, feed)
        return programs["int8_npu"]

    def check_host_runner(self, name, tmp, progs, got, feed):
        runner = os.environ.get("SOCSIM_HOST_RUNNER")
        if not runner:
            return
        inp = os.path.join(tmp, name + ".in")
        feed.tofile(inp)
        for kind in ("f32", "int8"):
            out = os.path.join(tmp, f"{name}_{kind}.host.bin")
            result = subprocess.run([runner, progs[kind], inp, out], capture_output=True,
                                    text=True)
            self.assertEqual(result.returncode, 0, f"{name} {kind}: {result.stderr}")
            host = np.fromfile(out, np.float32).reshape(got[kind].shape)
            if kind == "f32":
                bound = 1e-5 * max(1e-30, np.abs(got[kind]).max())
                self.assertLessEqual(np.abs(host - got[kind]).max(), bound, f"{name} {kind}")
            else:
                np.testing.assert_array_equal(host, got[kind], f"{name} {kind}")

    def test_unet_conv_transpose(self):
        module, shape = unet()
        program = self.compile_and_check("unet", module, shape)
        cpu_convs = [i for i in program.instructions if "convolution" in i.name]
        self.assertEqual(cpu_convs, [], "every convolution (the transposed ones too) on the NPU")

    def test_kws_conv1d(self):
        module, shape = kws()
        program = self.compile_and_check("kws", module, shape)
        cpu_windows = [i.name for i in program.instructions
                       if "convolution" in i.name or "pool" in i.name]
        self.assertEqual(cpu_windows, [], "1-D convolutions and pooling on the NPU")

    def test_causal_decoder_token_ids(self):
        """int64 token ids in (int32 in the program), Embedding, causal masks fused into the
        softmax (the int8 program never sees -inf)."""
        torch = zoo._torch()
        module, shape, vocab = decoder()
        ids = torch.from_numpy(np.random.default_rng(4).integers(0, vocab, shape))
        calibration = np.random.default_rng(5).integers(0, vocab, (16,) + shape)
        program = self.compile_and_check("decoder", module, shape, inputs=ids,
                                         calibration=calibration)
        self.assertEqual(pf.DTYPE_NAMES[program.tensors[program.inputs[0]].dtype], "int32")
        names = [i.name for i in program.instructions]
        self.assertEqual(names.count("quantized_decomposed::masked_softmax.out"), 2)

    def test_einsum_attention_with_trilu_mask(self):
        module, shape = einsum_attention()
        program = self.compile_and_check("einsum", module, shape, opset=14)
        names = [i.name for i in program.instructions]
        self.assertIn("quantized_decomposed::masked_softmax.out", names)
        self.assertNotIn("quantized_decomposed::matmul.out", names, "both products on the NPU")

    def test_expand_and_tile(self):
        module, shape = repeats()
        self.compile_and_check("repeats", module, shape)

    def test_group_norm(self):
        module, shape = group_norm()
        self.compile_and_check("group_norm", module, shape)


def group_normalization_graph(opset, scale, bias, shape=(1, 16, 5, 5), groups=4):
    """An OnnxGraph of one GroupNormalization node (opset 18: scale and bias per group, 21:
    per channel), built directly: ONNX 1.12 (Debian's) knows no opset above 17."""
    g = onnx_graph.OnnxGraph()
    g.opset = opset
    g.inputs, g.outputs = ["x"], ["y"]
    for name in ("x", "y"):
        g.types[name] = onnx_graph.TensorType(list(shape), np.dtype(np.float32), 1)
    g.consts.update(s=scale.astype(np.float32), b=bias.astype(np.float32))
    g.nodes.append(onnx_graph.OnnxOp("GroupNormalization", ["x", "s", "b"], ["y"],
                                     {"num_groups": groups, "epsilon": 1e-5}, "gn"))
    return g


def group_norm_numpy(x, groups, scale, bias, eps=1e-5):
    """GroupNormalization's definition (ONNX operator docs), scale/bias per channel."""
    n, c = x.shape[:2]
    rows = x.reshape(n, groups, -1).astype(np.float64)
    normed = (rows - rows.mean(-1, keepdims=True)) / np.sqrt(rows.var(-1, keepdims=True) + eps)
    shape = (1, c) + (1,) * (x.ndim - 2)
    return normed.reshape(x.shape) * scale.reshape(shape) + bias.reshape(shape)


class GroupNormalizationTest(unittest.TestCase):
    def test_opsets_18_and_21(self):
        """Opset 18's per-group scale and bias are repeated over each group's channels;
        opset 21's are per channel (onnxruntime 1.24 computes both so: within 3e-7 of
        group_norm_numpy). float32 against the definition, int8 correlation above 0.99."""
        rng = np.random.default_rng(8)
        x = rng.standard_normal((1, 16, 5, 5)).astype(np.float32) * 2 + 1
        for opset, per in ((18, 4), (21, 16)):
            scale, bias = rng.uniform(0.5, 1.5, per), rng.uniform(-1, 1, per)
            wide = [np.repeat(v, 16 // per) for v in (scale, bias)]
            want = group_norm_numpy(x, 4, *wide)
            lowering = compiler.lower(group_normalization_graph(opset, scale, bias))
            lowering.check()
            program = compiler.compile_graph(lowering.graph)
            got = reference.run(program, [x])[0]
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-5 * np.abs(want).max())
            lowering = compiler.lower(group_normalization_graph(opset, scale, bias))
            samples = [[rng.standard_normal(x.shape).astype(np.float32) * 2 + 1]
                       for _ in range(8)]
            program = compiler.compile_graph(lowering.graph, "int8", samples)
            got = reference.run(program, [x])[0]
            self.assertGreater(np.corrcoef(got.reshape(-1), want.reshape(-1))[0, 1], 0.99)


if __name__ == "__main__":
    unittest.main()
