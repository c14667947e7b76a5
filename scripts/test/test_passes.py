"""Each front-end pass on its own: small ONNX graphs (hand-made, or exported by torch the way
real models are) before and after the pass, run with the numpy ONNX semantics of
socsim_aot/onnx_eval.py; the rewritten graph must have the expected nodes and compute the
same values (float32 rounding: 1e-5 relative)."""

import unittest

import numpy as np
from onnx import TensorProto, helper, numpy_helper

from socsim_aot import onnx_eval, onnx_graph
from socsim_aot.passes import (Options, Report, batch_norm, channel_shuffle, constant_chains,
                               einsum_as_matmul, fold_constants, fold_pad, fuse_gelu, fuse_glu,
                               fuse_layer_norm, fuse_silu, mask_softmax, no_ops, reduce_as_pool,
                               reshape_chains, transpose_clip, unroll_rnn)

RNG = np.random.default_rng(0)


def graph(nodes, inputs, outputs, inits=(), opset=13):
    """An OnnxGraph of onnx.helper nodes; inputs/outputs as (name, shape)."""
    g = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in inputs],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in outputs],
        [numpy_helper.from_array(np.asarray(v), k) for k, v in inits])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    return onnx_graph.from_model(model)


def torch_graph(module, shape, opset=13):
    """The OnnxGraph of a torch module as torch.onnx.export writes it."""
    import io
    import onnx
    import torch
    buf = io.BytesIO()
    module.eval()
    with torch.no_grad():
        torch.onnx.export(module, torch.zeros(shape), buf, opset_version=opset,
                          input_names=["x"], output_names=["y"], do_constant_folding=True)
    return onnx_graph.from_model(onnx.load_from_string(buf.getvalue()))


def feeds(g):
    return {n: RNG.standard_normal(g.types[n].shape).astype(np.float32) for n in g.inputs}


def ops(g):
    return [n.op_type for n in g.nodes]


def _sigmoid(v):
    return 1 / (1 + np.exp(-v))


def recurrent(kind, x, w, r, b, h0=None, c0=None, direction="forward", lbr=0):
    """ONNX LSTM / GRU in float64, written from the operator's definition: (Y, Y_h, Y_c)."""
    dirs = ["forward", "reverse"] if direction == "bidirectional" else [direction]
    seq, batch, _ = x.shape
    hid = r.shape[-1]
    ys, hs, cs = [], [], []
    for d, way in enumerate(dirs):
        h = np.zeros((batch, hid)) if h0 is None else h0[d].astype(np.float64)
        c = np.zeros((batch, hid)) if c0 is None else c0[d].astype(np.float64)
        wb, rb = np.split(b[d].astype(np.float64), 2)
        y = [None] * seq
        for t in (range(seq) if way == "forward" else reversed(range(seq))):
            xw = x[t] @ w[d].T + wb
            if kind == "LSTM":
                i, o, f, g = np.split(xw + h @ r[d].T + rb, 4, axis=1)
                c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
                h = _sigmoid(o) * np.tanh(c)
            else:
                xz, xr, xh = np.split(xw, 3, axis=1)
                rz, rr, rh = np.split(r[d], 3)
                bz, br, bh = np.split(rb, 3)
                z = _sigmoid(xz + h @ rz.T + bz)
                rg = _sigmoid(xr + h @ rr.T + br)
                n = np.tanh(xh + (rg * (h @ rh.T + bh) if lbr else (rg * h) @ rh.T + bh))
                h = (1 - z) * n + z * h
            y[t] = h
        ys.append(np.stack(y))
        hs.append(h)
        cs.append(c)
    return np.stack(ys, axis=1), np.stack(hs), np.stack(cs)


class PassTest(unittest.TestCase):
    def rewrite(self, g, fn, *args):
        """Runs `fn(g, *args)` (a pass or a fusion); asserts the outputs are unchanged and
        returns the Report."""
        x = feeds(g)
        before = onnx_eval.run_graph(g, x)
        fold_constants.run(g, Options())
        report = fn(g, *args)
        g.prune()
        after = onnx_eval.run_graph(g, x)
        for a, b in zip(before, after):
            np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-5)
        return report

    # ---- folding and simplification --------------------------------------------------------

    def test_fold_constants_resolves_shape_arithmetic(self):
        # x.view(x.size(0), -1) as torch exports it, with every folding operator in the chain.
        x_shape = [2, 3, 4, 5]
        nodes = [
            helper.make_node("Shape", ["x"], ["s"]),
            helper.make_node("Gather", ["s", "zero"], ["n"], axis=0),
            helper.make_node("Unsqueeze", ["n", "axes0"], ["n1"]),
            helper.make_node("Cast", ["n1"], ["n1f"], to=TensorProto.FLOAT),
            helper.make_node("Mul", ["n1f", "one_f"], ["n1m"]),
            helper.make_node("Cast", ["n1m"], ["n1i"], to=TensorProto.INT64),
            helper.make_node("ConstantOfShape", ["one_i"], ["minus"],
                             value=numpy_helper.from_array(np.array([-1], np.int64))),
            helper.make_node("Concat", ["n1i", "minus"], ["target"], axis=0),
            helper.make_node("Range", ["r0", "r1", "r2"], ["rng"]),
            helper.make_node("Expand", ["bias", "bshape"], ["b2"]),
            helper.make_node("Reshape", ["x", "target"], ["flat"]),
            helper.make_node("Add", ["flat", "b2"], ["y"]),
        ]
        inits = [("zero", np.array(0, np.int64)), ("axes0", np.array([0], np.int64)),
                 ("one_f", np.array(1.0, np.float32)), ("one_i", np.array([1], np.int64)),
                 ("r0", np.array(0, np.int64)), ("r1", np.array(3, np.int64)),
                 ("r2", np.array(1, np.int64)), ("bias", np.float32([0.5])),
                 ("bshape", np.array([2, 60], np.int64))]
        g = graph(nodes, [("x", x_shape)], [("y", None)], inits)
        report = self.rewrite(g, lambda g: Report())
        self.assertEqual(ops(g), ["Reshape", "Add"])
        self.assertEqual(g.shape("y"), [2, 60])
        np.testing.assert_array_equal(g.const(g.nodes[0].inputs[1]), [2, -1])
        self.assertEqual(report.count, 0)

    def test_fold_constants_reports_what_it_folded(self):
        g = graph([helper.make_node("Shape", ["x"], ["s"]),
                   helper.make_node("Reshape", ["x", "s"], ["y"])],
                  [("x", [3, 4])], [("y", [3, 4])])
        report = fold_constants.run(g, Options())
        self.assertEqual(report.details, {"Shape": 1})
        self.assertEqual(ops(g), ["Reshape"])

    def test_opset11_attributes_become_opset13_inputs(self):
        g = graph([helper.make_node("Unsqueeze", ["x"], ["u"], axes=[0]),
                   helper.make_node("Squeeze", ["u"], ["y"], axes=[0])],
                  [("x", [3])], [("y", [3])], opset=11)
        self.assertEqual([len(n.inputs) for n in g.nodes], [2, 2])
        np.testing.assert_array_equal(g.const(g.nodes[0].inputs[1]), [0])
        self.rewrite(g, reshape_chains.run, Options())
        self.assertEqual(ops(g), [])  # the two cancel

    def test_remove_no_ops(self):
        nodes = [helper.make_node("Identity", ["x"], ["a"]),
                 helper.make_node("Dropout", ["a"], ["b"]),
                 helper.make_node("Transpose", ["b"], ["c"], perm=[0, 1]),
                 helper.make_node("Reshape", ["c", "same"], ["d"]),
                 helper.make_node("Mul", ["d", "one"], ["e"]),
                 helper.make_node("Relu", ["e"], ["y"])]
        g = graph(nodes, [("x", [2, 3])], [("y", [2, 3])],
                  [("same", np.array([2, 3], np.int64)), ("one", np.float32(1))])
        report = self.rewrite(g, no_ops.run, Options())
        self.assertEqual(ops(g), ["Relu"])
        self.assertEqual(g.nodes[0].inputs, ["x"])
        self.assertEqual(g.nodes[0].outputs, ["y"])
        self.assertEqual(report.details, {"Identity": 1, "Dropout": 1, "Mul": 1, "Reshape": 1,
                                          "Transpose": 1})

    # ---- BatchNormalization and constant arithmetic ------------------------------------------

    def conv_bn(self, after_relu=False):
        w = RNG.standard_normal((4, 3, 3, 3)).astype(np.float32)
        bn = [("s", RNG.uniform(0.5, 2, 4)), ("b", RNG.standard_normal(4)),
              ("m", RNG.standard_normal(4)), ("v", RNG.uniform(0.5, 2, 4))]
        nodes = [helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1])]
        src = "c"
        if after_relu:
            nodes.append(helper.make_node("Relu", ["c"], ["r"]))
            src = "r"
        nodes.append(helper.make_node("BatchNormalization", [src, "s", "b", "m", "v"], ["y"]))
        return graph(nodes, [("x", [1, 3, 6, 6])], [("y", [1, 4, 6, 6])],
                     [("w", w)] + [(k, v.astype(np.float32)) for k, v in bn])

    def test_batch_norm_after_conv_goes_into_its_weights(self):
        g = self.conv_bn()
        report = self.rewrite(g, batch_norm.run, Options())
        self.assertEqual(ops(g), ["Conv"])
        self.assertEqual(report.details, {"into Conv": 1})
        self.assertEqual(g.nodes[0].outputs, ["y"])

    def test_batch_norm_elsewhere_is_a_channel_multiply_add(self):
        # Float and int8 for the CPU: a Mul and an Add, which merge with constant arithmetic.
        for options in (Options(), Options(quantize="int8"),
                        Options(npu_operators={"conv2d"}, quantize="int8")):
            g = self.conv_bn(after_relu=True)
            report = self.rewrite(g, batch_norm.run, options)
            self.assertEqual(ops(g), ["Conv", "Relu", "Mul", "Add"])
            self.assertEqual(report.details, {"as Mul + Add": 1})

    def test_batch_norm_elsewhere_is_a_depthwise_conv_for_the_npu(self):
        g = self.conv_bn(after_relu=True)
        bn = g.nodes[-1]
        s, b, m, v = (g.const(i).astype(np.float64) for i in bn.inputs[1:])
        npu = Options(npu_operators={"conv2d", "depthwise_conv2d"}, quantize="int8")
        report = self.rewrite(g, batch_norm.run, npu)
        self.assertEqual(ops(g), ["Conv", "Relu", "Conv"])
        self.assertEqual(report.details, {"as depthwise Conv": 1})
        conv = g.nodes[-1]
        self.assertEqual((conv.inputs[0], conv.outputs, conv.attrs["group"]), ("r", ["y"], 4))
        k = s / np.sqrt(v + 1e-5)
        np.testing.assert_allclose(g.const(conv.inputs[1]), k.reshape(4, 1, 1, 1), rtol=1e-6)
        np.testing.assert_allclose(g.const(conv.inputs[2]), b - m * k, rtol=1e-6, atol=1e-6)
        # BatchNorm1d's (N, C, L): no 2-D convolution, a Mul and an Add as before.
        g = graph([helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"])],
                  [("x", [1, 4, 6])], [("y", [1, 4, 6])],
                  [(k, RNG.uniform(0.5, 2, 4).astype(np.float32)) for k in "sbmv"])
        self.assertEqual(self.rewrite(g, batch_norm.run, npu).details, {"as Mul + Add": 1})

    def test_constant_chain_becomes_one_multiply_add(self):
        nodes = [helper.make_node("Mul", ["x", "two"], ["a"]),
                 helper.make_node("Add", ["a", "three"], ["b"]),
                 helper.make_node("Sub", ["b", "one"], ["c"]),
                 helper.make_node("Div", ["c", "four"], ["d"]),
                 helper.make_node("Sub", ["one", "d"], ["y"])]
        g = graph(nodes, [("x", [2, 5])], [("y", [2, 5])],
                  [(k, np.float32(v)) for k, v in (("two", 2), ("three", 3), ("one", 1),
                                                    ("four", 4))])
        report = self.rewrite(g, constant_chains.run, Options())
        self.assertEqual(ops(g), ["Mul", "Add"])
        self.assertEqual(report.count, 3)

    def test_channel_affine_after_conv_and_gemm_folds(self):
        w = RNG.standard_normal((4, 2, 1, 1)).astype(np.float32)
        nodes = [helper.make_node("Conv", ["x", "w"], ["c"]),
                 helper.make_node("Mul", ["c", "k"], ["m"]),
                 helper.make_node("Add", ["m", "b"], ["f"]),
                 helper.make_node("Flatten", ["f"], ["fl"]),
                 helper.make_node("Gemm", ["fl", "gw", "gb"], ["g"], transB=1, alpha=0.5),
                 helper.make_node("Mul", ["g", "gk"], ["y"])]
        g = graph(nodes, [("x", [1, 2, 1, 1])], [("y", [1, 3])],
                  [("w", w), ("k", RNG.standard_normal((4, 1, 1)).astype(np.float32)),
                   ("b", RNG.standard_normal((1, 4, 1, 1)).astype(np.float32)),
                   ("gw", RNG.standard_normal((3, 4)).astype(np.float32)),
                   ("gb", RNG.standard_normal(3).astype(np.float32)),
                   ("gk", RNG.standard_normal(3).astype(np.float32))])
        report = self.rewrite(g, constant_chains.run, Options())
        self.assertEqual(ops(g), ["Conv", "Flatten", "Gemm"])
        self.assertEqual(report.details, {"Add into Conv": 1, "Mul into Conv": 1,
                                          "Mul into Gemm": 1})

    # ---- data movement -----------------------------------------------------------------------

    def test_reshape_and_transpose_chains_merge(self):
        nodes = [helper.make_node("Flatten", ["x"], ["a"]),
                 helper.make_node("Unsqueeze", ["a", "ax"], ["b"]),
                 helper.make_node("Reshape", ["b", "shape"], ["c"]),
                 helper.make_node("Transpose", ["c"], ["d"], perm=[1, 0, 2]),
                 helper.make_node("Transpose", ["d"], ["e"], perm=[0, 2, 1]),
                 helper.make_node("Transpose", ["e"], ["f"], perm=[2, 1, 0]),
                 helper.make_node("Transpose", ["f"], ["y"], perm=[1, 0, 2])]
        g = graph(nodes, [("x", [2, 3, 4])], [("y", None)],
                  [("ax", np.array([0], np.int64)), ("shape", np.array([2, 3, 4], np.int64))])
        self.rewrite(g, reshape_chains.run, Options())
        self.assertEqual(ops(g), ["Transpose"])  # the reshapes end at the input's shape
        self.assertEqual(g.nodes[0].attrs["perm"], [2, 0, 1])

    def test_transpose_of_unit_axes_is_a_reshape(self):
        g = graph([helper.make_node("Transpose", ["x"], ["y"], perm=[1, 0, 2])],
                  [("x", [1, 3, 4])], [("y", [3, 1, 4])])
        self.rewrite(g, reshape_chains.run, Options())
        self.assertEqual(ops(g), ["Reshape"])

    def test_transpose_moves_past_clip_after_conv(self):
        w = RNG.standard_normal((4, 3, 1, 1)).astype(np.float32)
        nodes = [helper.make_node("Conv", ["x", "w"], ["c"]),
                 helper.make_node("Transpose", ["c"], ["t"], perm=[0, 2, 3, 1]),
                 helper.make_node("Clip", ["t", "lo", "hi"], ["y"])]
        g = graph(nodes, [("x", [1, 3, 2, 5])], [("y", [1, 2, 5, 4])],
                  [("w", w), ("lo", np.float32(0)), ("hi", np.float32(0.5))])
        report = self.rewrite(g, transpose_clip.run, Options())
        self.assertEqual(ops(g), ["Conv", "Clip", "Transpose"])
        self.assertEqual(report.count, 1)
        self.assertEqual(g.shape(g.nodes[1].outputs[0]), [1, 4, 2, 5])

    def test_zero_pad_before_conv_goes_into_its_pads(self):
        import torch
        pad_conv = torch.nn.Sequential(torch.nn.ZeroPad2d((1, 2, 0, 1)),
                                       torch.nn.Conv2d(3, 4, 3, padding=1))
        g = torch_graph(pad_conv, (1, 3, 6, 5))
        self.assertIn("Pad", ops(g))
        report = self.rewrite(g, fold_pad.run, Options())
        self.assertEqual((ops(g), report.count), (["Conv"], 1))
        self.assertEqual(g.nodes[0].attrs["pads"], [1, 2, 2, 3])  # top, left, bottom, right
        # F.avg_pool2d with padding exports as Pad + AveragePool (Inception-v3)
        class AvgPad(torch.nn.Module):
            def forward(self, x):
                return torch.nn.functional.avg_pool2d(x, 3, stride=1, padding=1)
        g = torch_graph(AvgPad(), (1, 3, 6, 5))
        self.assertIn("Pad", ops(g))
        fold_constants.run(g, Options())
        self.assertEqual(fold_pad.run(g, Options()).count, 1)
        g.prune()
        self.assertEqual(ops(g), ["AveragePool"])
        self.assertEqual((g.nodes[0].attrs["pads"], g.nodes[0].attrs["count_include_pad"]),
                         ([1, 1, 1, 1], 1))
        from socsim_aot import compiler, reference  # the rewritten pool as torch computes it
        x = RNG.standard_normal((1, 3, 6, 5)).astype(np.float32)
        program = compiler.compile_graph(compiler.lower(g).graph)
        with torch.no_grad():
            want = AvgPad()(torch.from_numpy(x)).numpy()
        np.testing.assert_allclose(reference.run(program, [x])[0], want, rtol=1e-5, atol=1e-6)
        # a reflecting Pad, or one that another node also reads, stays
        for module in (torch.nn.Sequential(torch.nn.ReflectionPad2d(1),
                                           torch.nn.Conv2d(3, 4, 3)),):
            g = torch_graph(module, (1, 3, 6, 5))
            self.assertEqual(self.rewrite(g, fold_pad.run, Options()).count, 0)
        w = RNG.standard_normal((4, 3, 3, 3)).astype(np.float32)
        nodes = [helper.make_node("Pad", ["x", "p"], ["xp"]),
                 helper.make_node("Conv", ["xp", "w"], ["c"]),
                 helper.make_node("Add", ["xp", "xp"], ["y2"])]
        g = graph(nodes, [("x", [1, 3, 4, 4])], [("c", [1, 4, 4, 4]), ("y2", [1, 3, 6, 6])],
                  [("w", w), ("p", np.array([0, 0, 1, 1, 0, 0, 1, 1], np.int64))])
        self.assertEqual(self.rewrite(g, fold_pad.run, Options()).count, 0)

    def test_reduce_mean_over_space_is_global_average_pool(self):
        for keep in (0, 1):
            g = graph([helper.make_node("ReduceMean", ["x"], ["y"], axes=[2, 3], keepdims=keep)],
                      [("x", [1, 4, 3, 5])], [("y", None)])
            self.rewrite(g, reduce_as_pool.run, Options())
            self.assertEqual(ops(g), ["GlobalAveragePool"] + ["Reshape"] * (1 - keep))

    def test_channel_shuffle_becomes_a_conv_for_the_npu(self):
        import torch

        class Shuffle(torch.nn.Module):
            def forward(self, x):  # torchvision.models.shufflenetv2.channel_shuffle
                n, c, h, w = x.size()
                x = x.view(n, 2, c // 2, h, w)
                return torch.transpose(x, 1, 2).contiguous().view(n, -1, h, w)
        g = torch_graph(Shuffle(), (1, 6, 3, 4))
        cpu = Options()
        self.rewrite(g, channel_shuffle.run, cpu)
        self.assertIn("Transpose", ops(g))
        npu = Options(npu_operators={"conv2d"}, quantize="int8")
        report = self.rewrite(g, channel_shuffle.run, npu)
        self.assertEqual(ops(g), ["Conv"])
        self.assertEqual(report.count, 1)
        weight = g.const(g.nodes[0].inputs[1])
        self.assertEqual(sorted(np.unique(weight)), [0, 1])
        self.assertTrue(np.all(weight.sum(axis=1) == 1))

    # ---- fusions (the schema-independent rewrite; `run` also asks the schema) ---------------

    def test_layer_norm_as_torch_exports_it_fuses(self):
        import torch
        ln = torch.nn.LayerNorm(16)
        with torch.no_grad():
            ln.weight.uniform_(0.5, 1.5)
            ln.bias.uniform_(-1, 1)
        g = torch_graph(ln, (2, 5, 16))
        self.assertEqual(sorted(set(ops(g))),
                         ["Add", "Div", "Mul", "Pow", "ReduceMean", "Sqrt", "Sub"])
        report = Report()
        self.rewrite(g, fuse_layer_norm.fuse, report)
        self.assertEqual(ops(g), ["LayerNormalization"])
        self.assertEqual(g.nodes[0].attrs["axis"], 2)
        self.assertEqual(report.details, {"LayerNorm with scale and bias": 1})

    def test_layer_norm_fusion_needs_sole_readers(self):
        import torch

        class Leaky(torch.nn.Module):
            def forward(self, x):
                m = x.mean(-1, keepdim=True)
                d = x - m
                v = (d ** 2).mean(-1, keepdim=True)
                return d / torch.sqrt(v + 1e-5) + m  # m read twice: no LayerNorm
        g = torch_graph(Leaky(), (3, 8))
        report = Report()
        self.rewrite(g, fuse_layer_norm.fuse, report)
        self.assertEqual(report.count, 0)

    def test_glu_fuses(self):
        import torch
        g = torch_graph(torch.nn.GLU(dim=1), (2, 8, 3))
        self.assertEqual(ops(g), ["Split", "Sigmoid", "Mul"])
        report = Report()
        self.rewrite(g, fuse_glu.fuse, report)
        self.assertEqual(ops(g), ["GLU"])
        self.assertEqual(g.nodes[0].attrs, {"axis": 1})

    def test_silu_and_hardswish_fuse(self):
        import torch
        g = torch_graph(torch.nn.SiLU(), (2, 8))
        self.assertEqual(ops(g), ["Sigmoid", "Mul"])
        self.rewrite(g, fuse_silu.fuse, Report(), {"Sigmoid": "SiLU"})
        self.assertEqual(ops(g), ["SiLU"])
        g = torch_graph(torch.nn.Hardswish(), (2, 8))
        self.assertEqual(ops(g), ["HardSigmoid", "Mul"])
        self.rewrite(g, fuse_silu.fuse, Report(), {"HardSigmoid": "HardSwish"})
        self.assertEqual(ops(g), ["HardSwish"])

    def test_gelu_as_torch_exports_it_fuses(self):
        import torch
        g = torch_graph(torch.nn.GELU(), (2, 8))
        self.assertEqual(ops(g), ["Div", "Erf", "Add", "Mul", "Mul"])
        report = Report()
        self.rewrite(g, fuse_gelu.fuse, report)
        self.assertEqual(ops(g), ["GELU"])
        self.assertEqual(report.count, 1)

    def test_causal_masks_fuse_into_the_softmax(self):
        """Add of a 0/-inf (or -1e9) constant and Where with a constant condition and -inf,
        each before a Softmax over the last axis, become MaskedSoftmax with a uint8 mask;
        an additive bias that is not a mask, and a Softmax over another axis below opset 13,
        stay."""
        upper = np.triu(np.ones((5, 5), bool), 1)
        for mask_value in (-np.inf, -1e9):
            g = graph([helper.make_node("Add", ["x", "m"], ["s"]),
                       helper.make_node("Softmax", ["s"], ["y"], axis=-1)],
                      [("x", [2, 5, 5])], [("y", [2, 5, 5])],
                      [("m", np.where(upper, mask_value, 0).astype(np.float32))])
            report = Report()
            self.rewrite(g, mask_softmax.fuse, report)
            self.assertEqual(ops(g), ["MaskedSoftmax"])
            mask = g.const(g.nodes[0].inputs[1])
            self.assertEqual((mask.dtype, mask.shape), (np.dtype(np.uint8), (2, 5, 5)))
            np.testing.assert_array_equal(mask[1], upper)
        g = graph([helper.make_node("Where", ["c", "ninf", "x"], ["s"]),
                   helper.make_node("Softmax", ["s"], ["y"], axis=2)],
                  [("x", [1, 5, 5])], [("y", [1, 5, 5])],
                  [("c", upper), ("ninf", np.array(-np.inf, np.float32))])
        self.rewrite(g, mask_softmax.fuse, Report())
        self.assertEqual(ops(g), ["MaskedSoftmax"])
        self.assertEqual(g.nodes[0].attrs, {"dim": 2})
        bias = graph([helper.make_node("Add", ["x", "m"], ["s"]),
                      helper.make_node("Softmax", ["s"], ["y"], axis=-1)],
                     [("x", [2, 5])], [("y", [2, 5])],
                     [("m", np.array([0, -1e9, 0.5, 0, 0], np.float32))])
        self.rewrite(bias, mask_softmax.fuse, Report())
        self.assertEqual(ops(bias), ["Add", "Softmax"])
        old = graph([helper.make_node("Add", ["x", "m"], ["s"]),
                     helper.make_node("Softmax", ["s"], ["y"], axis=1)],
                    [("x", [2, 5, 5])], [("y", [2, 5, 5])],
                    [("m", np.where(upper, -np.inf, 0).astype(np.float32))], opset=11)
        self.rewrite(old, mask_softmax.fuse, Report())
        self.assertEqual(ops(old), ["Add", "Softmax"])

    def test_einsum_of_attention_becomes_matmul(self):
        """bhqd,bhkd->bhqk is MatMul with the second operand transposed; bqhd,bkhd->bhqk
        transposes both and the result stays in order; bhqd,bhkd->bqhk transposes the
        result; a trace (ii->i) or a sum over one operand stays Einsum."""
        cases = [("bhqd,bhkd->bhqk", [2, 3, 4, 5], [2, 3, 6, 5],
                  ["Transpose", "MatMul"]),
                 ("bqhd,bkhd->bhqk", [2, 4, 3, 5], [2, 6, 3, 5],
                  ["Transpose", "Transpose", "MatMul"]),
                 ("bhqd,bhkd->bqhk", [2, 3, 4, 5], [2, 3, 6, 5],
                  ["Transpose", "MatMul", "Transpose"]),
                 ("...qd,...dk->...qk", [2, 3, 4, 5], [2, 3, 5, 6], ["MatMul"]),
                 ("bij,bjk->bk", [2, 3, 4], [2, 4, 5], ["Einsum"])]
        for equation, a, b, want in cases:
            with self.subTest(equation):
                out = list(np.einsum(equation, np.zeros(a), np.zeros(b)).shape)
                g = graph([helper.make_node("Einsum", ["a", "b"], ["y"], equation=equation)],
                          [("a", a), ("b", b)], [("y", out)])
                x = feeds(g)
                want_y = np.einsum(equation, x["a"], x["b"])
                einsum_as_matmul.run(g, Options())
                self.assertEqual(ops(g), want)
                if want != ["Einsum"]:
                    got = onnx_eval.run_graph(g, x)[0]
                    np.testing.assert_allclose(got, want_y, rtol=1e-5, atol=1e-5)

    def test_gate_of_another_value_is_not_silu(self):
        g = graph([helper.make_node("Sigmoid", ["x"], ["s"]),
                   helper.make_node("Mul", ["z", "s"], ["y"])],
                  [("x", [4]), ("z", [4])], [("y", [4])])
        report = Report()
        self.rewrite(g, fuse_silu.fuse, report, {"Sigmoid": "SiLU"})
        self.assertEqual(report.count, 0)

    # ---- recurrent layers ------------------------------------------------------------------

    def unroll_case(self, kind, direction="forward", states="input", lbr=0, batch=2):
        """An ONNX LSTM/GRU node (5 steps, 3 features, hidden 4) unrolled: the nodes left are
        the runtime's, and they compute the operator's definition (`recurrent`)."""
        seq, features, hid = 5, 3, 4
        gates = 4 if kind == "LSTM" else 3
        dirs = 2 if direction == "bidirectional" else 1
        w, r, b = (RNG.standard_normal(s).astype(np.float32) * 0.5 for s in
                   ([dirs, gates * hid, features], [dirs, gates * hid, hid],
                    [dirs, 2 * gates * hid]))
        x = RNG.standard_normal([seq, batch, features]).astype(np.float32)
        state = [dirs, batch, hid]
        h0, c0 = (RNG.standard_normal(state).astype(np.float32) for _ in range(2))
        inputs, inits = [("x", list(x.shape))], [("w", w), ("r", r), ("b", b)]
        node_inputs = ["x", "w", "r", "b", ""]
        if states == "input":
            inputs += [("h0", state)] + ([("c0", state)] if kind == "LSTM" else [])
        elif states == "constant":
            inits += [("h0", h0)] + ([("c0", c0)] if kind == "LSTM" else [])
        if states != "none":
            node_inputs += ["h0"] + (["c0"] if kind == "LSTM" else [])
        outputs = ["y", "y_h"] + (["y_c"] if kind == "LSTM" else [])
        attrs = dict(hidden_size=hid, direction=direction)
        if kind == "GRU":
            attrs["linear_before_reset"] = lbr
        g = graph([helper.make_node(kind, node_inputs, outputs, **attrs)], inputs,
                  [(o, None) for o in outputs], inits)
        report = unroll_rnn.run(g, Options())
        self.assertEqual(report.count, 1)
        self.assertTrue(set(ops(g)) <= {"Reshape", "Gemm", "Slice", "Add", "Split", "Sigmoid",
                                        "Tanh", "Mul", "Sub", "Unsqueeze", "Concat"}, ops(g))
        feed = {"x": x, "h0": h0, "c0": c0}
        got = onnx_eval.run_graph(g, {n: feed[n] for n in g.inputs})
        given = states != "none"
        want = recurrent(kind, x, w, r, b, h0 if given else None,
                         c0 if given and kind == "LSTM" else None, direction, lbr)
        for o, a, e in zip(outputs, got, want):
            np.testing.assert_allclose(a, e, rtol=1e-5, atol=1e-5, err_msg=o)
        return g

    def test_lstm_unrolls(self):
        g = self.unroll_case("LSTM")
        # one input projection, then per step: the hidden state's Gemm and 3 sigmoids
        self.assertEqual(ops(g).count("Gemm"), 1 + 5)
        self.assertEqual(ops(g).count("Sigmoid"), 3 * 5)
        self.unroll_case("LSTM", "reverse", states="constant", batch=1)
        self.unroll_case("LSTM", "bidirectional", states="none")

    def test_gru_unrolls(self):
        self.unroll_case("GRU", lbr=1)
        g = self.unroll_case("GRU", states="none", lbr=0)
        # two hidden-state products per step (z and r; h of r * H), none in the first step
        # without an initial state
        self.assertEqual(ops(g).count("Gemm"), 1 + 2 * 4)
        self.unroll_case("GRU", "bidirectional", states="constant", lbr=1)
        self.unroll_case("GRU", "reverse", lbr=0, batch=1)

    def test_lstm_torch_exports_unroll(self):
        import torch
        torch.manual_seed(0)
        for module, shape in ((torch.nn.LSTM(3, 4, num_layers=2, batch_first=True), [1, 5, 3]),
                              (torch.nn.GRU(3, 4), [5, 1, 3])):
            g = torch_graph(module, shape)
            fold_constants.run(g, Options())
            self.assertEqual(unroll_rnn.run(g, Options()).count, module.num_layers)
            x = RNG.standard_normal(shape).astype(np.float32)
            with torch.no_grad():
                want = module(torch.from_numpy(x))[0].numpy()
            np.testing.assert_allclose(onnx_eval.run_graph(g, {"x": x})[0], want, rtol=1e-5,
                                       atol=1e-6)

    def test_recurrent_nodes_it_cannot_unroll_stay_with_the_reason(self):
        hid = 2
        w, r = np.ones([1, 4 * hid, 3], np.float32), np.ones([1, 4 * hid, hid], np.float32)
        g = graph([helper.make_node("LSTM", ["x", "w", "r"], ["y"], hidden_size=hid, clip=3.0)],
                  [("x", [2, 1, 3])], [("y", None)], [("w", w), ("r", r)])
        self.assertEqual(unroll_rnn.run(g, Options()).count, 0)
        self.assertEqual(ops(g), ["LSTM"])
        self.assertEqual(g.nodes[0].note, "not supported: clip")

    def test_fusions_wait_for_their_schema_operator(self):
        from socsim_aot import schema
        g = graph([helper.make_node("Sigmoid", ["x"], ["s"]),
                   helper.make_node("Mul", ["x", "s"], ["y"])], [("x", [4])], [("y", [4])])
        report = fuse_silu.run(g, Options())
        if schema.find(fuse_silu.SILU) is None:
            self.assertEqual(ops(g), ["Sigmoid", "Mul"])
            self.assertIn("schema", report.note)
        else:
            self.assertEqual(ops(g), ["SiLU"])


class IntegerProductsTest(unittest.TestCase):
    """MatMulInteger as float32 operators: exact int32 results within the 2^24 bound, the
    node kept (with its reason) beyond it."""

    def model(self, k):
        import onnx
        rng = np.random.default_rng(9)
        b = rng.integers(-128, 128, (k, 5)).astype(np.int8)
        graph = helper.make_graph(
            [helper.make_node("MatMulInteger", ["a", "b", "za", "zb"], ["y"], name="mmi")],
            "g", [helper.make_tensor_value_info("a", TensorProto.UINT8, [3, k])],
            [helper.make_tensor_value_info("y", TensorProto.INT32, [3, 5])],
            [numpy_helper.from_array(b, "b"),
             numpy_helper.from_array(np.array(131, np.uint8), "za"),
             numpy_helper.from_array(np.array(-3, np.int8), "zb")])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
        return onnx.ModelProto.FromString(model.SerializeToString()), b

    def test_exact_within_the_bound(self):
        import os
        import tempfile
        import onnx
        from socsim_aot import compiler, reference
        model, b = self.model(40)
        path = os.path.join(tempfile.mkdtemp(), "m.onnx")
        onnx.save(model, path)
        program = compiler.compile_model(path, compiler.CompileOptions())
        a = np.random.default_rng(10).integers(0, 256, (3, 40)).astype(np.uint8)
        want = (a.astype(np.int64) - 131) @ (b.astype(np.int64) + 3)
        got = reference.run(program, [a])[0]
        self.assertEqual(got.dtype, np.int32)
        np.testing.assert_array_equal(got, want)

    def test_refused_beyond_the_bound(self):
        import os
        import tempfile
        import onnx
        from socsim_aot import compiler
        from socsim_aot.ir import CompileError
        model, _ = self.model(1000)  # 1000 x 131 x 131 > 2^24
        path = os.path.join(tempfile.mkdtemp(), "m.onnx")
        onnx.save(model, path)
        with self.assertRaises(CompileError) as ctx:
            compiler.compile_model(path, compiler.CompileOptions())
        self.assertIn("MatMulInteger with sums up to 1000", str(ctx.exception))


if __name__ == "__main__":
    unittest.main()
