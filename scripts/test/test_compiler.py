"""The ONNX compiler on hand-made graphs: errors, passes, memory plan, delegation."""

import io
import os
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stderr

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from socsim_aot import npu_partition, schema
from socsim_schema import layouts
from socsim_aot.schema.conv import CONVOLUTION, QUANTIZED_CONVOLUTION, conv2d_nchw
from socsim_aot.schema.elementwise import ADD
from socsim_aot.schema.quantization import DEQUANTIZE, QUANTIZE
from socsim_aot import compiler
from socsim_aot import program_format as pf
from socsim_aot import reference
from socsim_aot import validate

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def save(nodes, inputs, outputs, inits=(), path=None):
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.save(model, path)
    return path


def vi(name, shape, elem=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, elem, shape)


class CompilerTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def test_unsupported_operator_names_node_and_op(self):
        model = save([helper.make_node("Hardmax", ["x"], ["y"], name="pick")],
                     [vi("x", [4])], [vi("y", [4])], path=self.path("hardmax.onnx"))
        with self.assertRaises(compiler.CompileError) as ctx:
            compiler.compile_file(model, self.path("hardmax.pte"))
        self.assertIn("node 'pick' (op Hardmax)", str(ctx.exception))
        self.assertIn("not supported", str(ctx.exception))

    def relu_graph(self, shape):
        path = save([helper.make_node("Relu", ["x"], ["y"], name="relu")], [vi("x", shape)],
                    [vi("y", shape)], path=self.path("relu.onnx"))
        return path, compiler.load_onnx(path)

    def test_calibration_memory_counts_what_calibration_holds(self):
        # A Relu of 40 floats (160 bytes), 3 samples: the samples (480), numpy's float64
        # draw of one input (320), the executor's planned memory of x and y (2 x 160), and the
        # Relu's copy of x, x itself, y and three temporaries of y's size (160 x 6).
        _, g = self.relu_graph([1, 4, 1, 10])
        need = compiler.calibration_memory(g, 3, drawn=True)
        self.assertEqual(need, {"samples": 480, "draw": 320, "planned": 320,
                                "instruction": 960, "total": 480 + 1280})
        self.assertEqual(compiler.calibration_memory(g, 3, drawn=False)["draw"], 0)
        # 41 floats: each value's place is rounded up to 16 bytes, as the memory plan does.
        _, g = self.relu_graph([1, 41])
        self.assertEqual(compiler.calibration_memory(g, 1, drawn=True)["planned"], 2 * 176)

    def test_calibration_cap_refuses_what_the_count_exceeds(self):
        path, _ = self.relu_graph([1, 4, 1, 10])
        cap = compiler.MAX_CALIBRATION_BYTES
        try:
            compiler.MAX_CALIBRATION_BYTES = 480 + 1280  # exactly the count of 3 samples
            compiler.compile_file(path, self.path("relu.pte"), quantize="int8", samples=3)
            compiler.MAX_CALIBRATION_BYTES = 480 + 1279
            with self.assertRaises(compiler.CompileError) as ctx:
                compiler.compile_file(path, self.path("relu.pte"), quantize="int8", samples=3)
        finally:
            compiler.MAX_CALIBRATION_BYTES = cap
        self.assertIn("calibration needs 1760 bytes (3 sample(s) of the inputs: 480; the float "
                      "program's values: 320; its largest instruction's inputs, output and "
                      "temporaries: 960;", str(ctx.exception))

    def test_calibration_ranges_are_taken_in_chunks(self):
        values = np.arange(-7, 5, dtype=np.float32).reshape(3, 4)
        chunk = compiler.CALIBRATION_CHUNK
        try:
            for compiler.CALIBRATION_CHUNK in (1, 5, 12, 100):
                self.assertEqual(compiler._max_abs(values), 7.0)
                with_nan = values.copy()
                with_nan[2, 3] = np.nan
                self.assertTrue(np.isnan(compiler._max_abs(with_nan)))
                self.assertEqual(compiler._max_abs(values[:0]), 0.0)
        finally:
            compiler.CALIBRATION_CHUNK = chunk

    def test_random_samples_are_drawn_in_chunks_as_one_draw(self):
        _, g = self.relu_graph([3, 1000])
        chunk = compiler.CALIBRATION_CHUNK
        try:
            compiler.CALIBRATION_CHUNK = 7
            chunked = compiler.random_samples(g, 2, seed=5)
        finally:
            compiler.CALIBRATION_CHUNK = chunk
        rng = np.random.default_rng(5)
        for sample in chunked:
            self.assertEqual(sample[0].dtype, np.float32)
            np.testing.assert_array_equal(sample[0],
                                          rng.standard_normal((3, 1000)).astype(np.float32))

    def test_no_sample_is_drawn_for_a_model_that_cannot_compile(self):
        # (found by the fuzz target: a 340 MB input nothing reads drew its sample, then the
        # graph output turned out to be a constant)
        path = save([helper.make_node("Clip", ["hi", "lo", "lo"], ["y"], name="clip")],
                    [vi("x", [81, 16, 1, 65536])], [vi("y", None)],
                    [numpy_helper.from_array(np.float32(1), "hi"),
                     numpy_helper.from_array(np.float32(-1), "lo")],
                    path=self.path("constant.onnx"))
        drawn = []
        real = compiler.random_samples
        try:
            compiler.random_samples = lambda *a, **k: drawn.append(a) or real(*a, **k)
            with self.assertRaisesRegex(compiler.CompileError, "graph output 'y' is a constant"):
                compiler.compile_file(path, self.path("constant.pte"), quantize="int8",
                                      samples=1)
        finally:
            compiler.random_samples = real
        self.assertEqual(drawn, [])

    def test_calibration_index_out_of_a_table_names_the_instruction(self):
        # (found by the fuzz target: a Gather from a one-row table at int32 input indices;
        # the random calibration inputs of an integer input are 0 and 1, and numpy's
        # IndexError escaped calibration as an internal error)
        path = save([helper.make_node("Gather", ["table", "ids"], ["y"], name="embed")],
                    [vi("ids", [1, 4], TensorProto.INT32)], [vi("y", [1, 4, 4])],
                    [numpy_helper.from_array(np.ones((1, 4), np.float32), "table")],
                    path=self.path("gather.onnx"))
        with self.assertRaisesRegex(compiler.CompileError,
                                    r"calibration sample 1: instruction 0 \(aten::index_select"
                                    r"\.out\): index 1 out of range: axis 0 of the table has 1 "
                                    r"entries \(calibrate with .*--calibration"):
            compiler.compile_file(path, self.path("gather.pte"), quantize="int8", samples=1)
        # with calibration inputs inside the table it compiles
        np.savez(self.path("ids.npz"), ids=np.zeros((2, 1, 4), np.int32))
        compiler.compile_file(path, self.path("gather.pte"), quantize="int8",
                              calibration=self.path("ids.npz"))

    def test_window_input_of_rank_below_three_is_refused_before_inference(self):
        # (found by the fuzz target: a Conv of a rank-2 input with weights computed by a
        # Gather, no kernel_shape: ONNX 1.12's shape inference crashed with SIGSEGV)
        path = save([helper.make_node("Gather", ["c", "i"], ["w"], name="weights"),
                     helper.make_node("Conv", ["x", "w"], ["y"], name="conv")],
                    [vi("x", [1, 1])], [vi("y", None)],
                    [numpy_helper.from_array(np.ones((1, 1, 1, 1), np.float32), "c"),
                     numpy_helper.from_array(np.zeros((1,), np.int64), "i")],
                    path=self.path("conv_rank2.onnx"))
        with self.assertRaises(validate.ModelError) as caught:
            compiler.compile_file(path, self.path("conv_rank2.pte"))
        self.assertIn("node 'conv' (op Conv): input 'x' has rank 2; a Conv's data input is "
                      "N x C x spatial axes (rank 3 or more)", caught.exception.problems)

    def test_convolution_weights_of_another_rank_are_refused_before_inference(self):
        # (found by the fuzz target: a Conv of a rank-4 input whose weights a Gather computes
        # with rank 5, no kernel_shape: ONNX 1.12's shape inference crashed with SIGSEGV; so
        # did a ConvTranspose whose computed weights have rank 1)
        def model(op, table, indices, data=(1, 1, 4, 4)):
            return save([helper.make_node("Gather", ["c", "i"], ["w"], name="weights"),
                         helper.make_node(op, ["x", "w"], ["y"], name="conv")],
                        [vi("x", list(data))], [vi("y", None)],
                        [numpy_helper.from_array(np.ones(table, np.float32), "c"),
                         numpy_helper.from_array(np.array(indices, np.int64), "i")],
                        path=self.path(f"{op}_{len(table)}.onnx"))
        for op, table, indices, rank in (("Conv", (1, 1, 1, 1, 1), [0], 5),
                                          ("Conv", (1, 1, 1, 1), 0, 3),
                                          ("ConvTranspose", (2, 2), 0, 1)):
            with self.subTest(op=op, rank=rank):
                with self.assertRaises(validate.ModelError) as caught:
                    compiler.compile_file(model(op, table, indices), self.path("w.pte"))
                self.assertEqual(caught.exception.problems, [
                    f"node 'conv' (op {op}): weights 'w' have rank {rank}, input 'x' rank 4; "
                    f"a {op}'s weights have the data input's rank (two axes of channels, then "
                    "the kernel's)"])
        # the data input's rank is followed through the nodes too (a Squeeze to rank 2)
        path = save([helper.make_node("Squeeze", ["x", "axes"], ["s"], name="squeeze"),
                     helper.make_node("Conv", ["s", "w"], ["y"], name="conv")],
                    [vi("x", [1, 1, 1, 4])], [vi("y", None)],
                    [numpy_helper.from_array(np.array([0, 1], np.int64), "axes"),
                     numpy_helper.from_array(np.ones((1, 1, 1, 1), np.float32), "w")],
                    path=self.path("squeezed.onnx"))
        with self.assertRaises(validate.ModelError) as caught:
            compiler.compile_file(path, self.path("w.pte"))
        self.assertIn("node 'conv' (op Conv): input 's' has rank 2; a Conv's data input is "
                      "N x C x spatial axes (rank 3 or more)", caught.exception.problems)
        # ranks that follow from the lengths of shapes (a ConvTranspose's weights of rank 1:
        # ONNX 1.12 read their second axis, SIGSEGV)
        shape_input = [vi("s", [1], TensorProto.INT64)]
        for nodes, inputs in (
                ([helper.make_node("Expand", ["one", "s"], ["w"], name="weights")], shape_input),
                ([helper.make_node("ConstantOfShape", ["s"], ["w"], name="weights")],
                 shape_input),
                ([helper.make_node("Squeeze", ["c4"], ["w"], name="weights")], []),
                ([helper.make_node("Shape", ["v"], ["s"], name="shape"),
                  helper.make_node("Reshape", ["one", "s"], ["w"], name="weights")],
                 [vi("v", [3])])):
            with self.subTest(op=nodes[-1].op_type):
                path = save(nodes + [helper.make_node("ConvTranspose", ["x", "w"], ["y"],
                                                      name="conv")],
                            [vi("x", [1, 1, 4, 4])] + inputs, [vi("y", None)],
                            [numpy_helper.from_array(np.ones([1], np.float32), "one"),
                             numpy_helper.from_array(np.ones([1, 1, 1, 3], np.float32), "c4")],
                            path=self.path("shape_length.onnx"))
                with self.assertRaises(validate.ModelError) as caught:
                    compiler.compile_file(path, self.path("w.pte"))
                self.assertEqual(caught.exception.problems, [
                    "node 'conv' (op ConvTranspose): weights 'w' have rank 1, input 'x' rank 4; "
                    "a ConvTranspose's weights have the data input's rank (two axes of "
                    "channels, then the kernel's)"])
        # weights of the input's rank computed by a Gather still compile
        program = compiler.compile_file(model("Conv", (2, 1, 1, 1, 1), 0), self.path("w.pte"))
        x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        np.testing.assert_array_equal(reference.run(program, [x])[0], x)

    def test_one_value_given_as_two_graph_outputs_is_dequantized_once(self):
        # (found by the fuzz target: a Sum of one input is removed, its output then names the
        # same value as another graph output; with --quantize int8 the second dequantize read
        # the float value the first had made, of scale 0: ZeroDivisionError, internal error)
        path = save([helper.make_node("Relu", ["a"], ["y"], name="relu"),
                     helper.make_node("Identity", ["y"], ["z"], name="copy")],
                    [vi("a", [1, 4])], [vi("y", [1, 4]), vi("z", [1, 4])],
                    path=self.path("two_outputs.onnx"))
        program = compiler.compile_file(path, self.path("two_outputs.pte"), quantize="int8",
                                        samples=4)
        x = np.array([[-1, 0.5, 1, 2]], np.float32)
        y, z = reference.run(program, [x])
        np.testing.assert_array_equal(y, z)
        np.testing.assert_allclose(y, np.maximum(x, 0), atol=0.02)
        sub = save([helper.make_node("Sub", ["a", "a"], ["y"], name="sub"),
                    helper.make_node("Sum", ["y"], ["z"], name="sum")],
                   [vi("a", [1, 4])], [vi("y", [1, 4]), vi("z", None)],
                   path=self.path("sub.onnx"))
        program = compiler.compile_file(sub, self.path("sub.pte"), quantize="int8", samples=1)
        for out in reference.run(program, [x]):
            np.testing.assert_array_equal(out, np.zeros((1, 4), np.float32))

    def test_windows_with_huge_pads_are_calibrated_without_making_the_padding(self):
        # (a Conv or a pooling of a 1 x 1 input with pads of 65,536 and strides of 65,536:
        # the reference executor padded the input to 131,073 x 131,073 before calibration
        # for --quantize int8: numpy's MemoryError, exit 70 "out of memory")
        x = np.array([[[[0.5]]]], np.float32)
        for op, attrs, expected in (
                ("Conv", dict(pads=[65536] * 4, strides=[65536] * 2),
                 np.pad(2 * x, ((0, 0), (0, 0), (1, 1), (1, 1)))),
                ("MaxPool", dict(kernel_shape=[65536] * 2, pads=[65535] * 4,
                                 strides=[65536] * 2), x),
                ("AveragePool", dict(kernel_shape=[65536] * 2, pads=[65535] * 4,
                                     strides=[65536] * 2), x)):
            with self.subTest(op=op):
                inputs = ["x", "w"] if op == "Conv" else ["x"]
                path = save([helper.make_node(op, inputs, ["y"], name="window", **attrs)],
                            [vi("x", [1, 1, 1, 1])], [vi("y", None)],
                            [numpy_helper.from_array(np.full((1, 1, 1, 1), 2, np.float32),
                                                     "w")] if op == "Conv" else [],
                            path=self.path("pads.onnx"))
                np.savez(self.path("x.npz"), x=x[None])
                for quantize in (None, "int8"):
                    program = compiler.compile_file(
                        path, self.path("pads.pte"), quantize=quantize,
                        calibration=self.path("x.npz") if quantize else None)
                    y = reference.run(program, [x])[0]
                    np.testing.assert_allclose(y, expected, atol=0.01)
        # the windows read only the input (no padded copy), and give what a padded copy gives
        rng = np.random.default_rng(3)
        xs = rng.standard_normal((1, 2, 5, 4)).astype(np.float32)
        ws = rng.standard_normal((3, 2, 3, 2)).astype(np.float32)
        pads, stride, dilation = (2, 1, 3, 2), (2, 3), (2, 1)
        got = conv2d_nchw(xs, ws, stride, pads, dilation, 1, np.float64)
        xp = np.pad(xs.astype(np.float64), ((0, 0), (0, 0), (2, 3), (1, 2)))
        oh, ow = got.shape[2:]
        want = np.zeros_like(got)
        for i in range(oh):
            for j in range(ow):
                patch = xp[:, :, i * 2:i * 2 + 5:2, j * 3:j * 3 + 2]
                want[:, :, i, j] = np.einsum("nchw,mchw->nm", patch, ws.astype(np.float64))
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)

    def test_pooling_of_huge_windows_reduces_spans(self):
        # (found by the fuzz target, slow units of 10 to 180 s: a MaxPool with a 65,536 x
        # 65,536 kernel, pads of 65,535 and stride 16 over 1 x 999 visited 4,096 x 999 kernel
        # positions in calibration) a window of more than SPAN_POSITIONS positions reduces
        # each axis over the spans it covers: the same results as the kernel positions
        from types import SimpleNamespace
        from socsim_aot.schema import pooling
        rng = np.random.default_rng(7)
        x = rng.integers(-50, 50, (1, 2, 5, 7)).astype(np.float32)
        xi = rng.integers(-128, 128, (1, 2, 5, 7)).astype(np.int8)
        for kh, kw, sh, sw, pads, ceil, include in ((3, 4, 2, 1, (2, 1, 0, 3), 0, 1),
                                                     (9, 11, 3, 4, (4, 5, 6, 7), 1, 0),
                                                     (6, 2, 1, 2, (5, 0, 5, 1), 0, 0)):
            a = SimpleNamespace(kernel_h=kh, kernel_w=kw, stride_h=sh, stride_w=sw,
                                pad_top=pads[0], pad_left=pads[1], pad_bottom=pads[2],
                                pad_right=pads[3], ceil_mode=ceil, count_include_pad=include,
                                zp_in=3, zp_out=-2, m=1 << 19, n=4)
            oh, ow = pooling._pool_geometry(x, a)
            results = []
            # by kernel positions; by spans, each reduced; by spans read off running reductions
            for positions, spans in ((1 << 30, 1 << 30), (0, 1 << 30), (0, 0)):
                limits = pooling.SPAN_POSITIONS, pooling.DISTINCT_SPANS
                pooling.SPAN_POSITIONS, pooling.DISTINCT_SPANS = positions, spans
                try:
                    f, i = np.empty((1, 2, oh, ow), np.float32), np.empty((1, 2, oh, ow), np.int8)
                    results.append([pooling._max_pool([x], a, f), pooling._max_pool([xi], a, i),
                                    pooling._avg_pool([x], a, f),
                                    pooling._quantized_avg_pool([xi], a, i)])
                finally:
                    pooling.SPAN_POSITIONS, pooling.DISTINCT_SPANS = limits
            for by_position, by_span, by_running in zip(*results):
                np.testing.assert_array_equal(by_position, by_span)
                np.testing.assert_array_equal(by_position, by_running)
        path = save([helper.make_node("MaxPool", ["x"], ["y"], name="pool",
                                      kernel_shape=[65536, 65536], pads=[65535, 7, 65535, 65535],
                                      strides=[16, 65536])],
                    [vi("x", [1, 1, 1, 999])], [vi("y", None)], path=self.path("pool.onnx"))
        x = np.arange(999, dtype=np.float32).reshape(1, 1, 1, 999) / 999
        np.savez(self.path("x.npz"), x=x[None])
        program = compiler.compile_file(path, self.path("pool.pte"), quantize="int8",
                                        calibration=self.path("x.npz"))
        y = reference.run(program, [x])[0]
        self.assertEqual(y.shape, (1, 1, 4096, 1))
        np.testing.assert_allclose(y[0, 0, :, 0], np.full(4096, x[0, 0, 0, 998]), atol=0.01)
        # (the next run: reducing rows first made the output's 21,846 rows by the input's 999
        # columns for 255 channels, 44 GB; the columns go first where that is smaller)
        path = save([helper.make_node("MaxPool", ["x"], ["y"], name="pool",
                                      kernel_shape=[65536, 65536],
                                      pads=[65535, 65535, 65535, 65536], strides=[3, 65536])],
                    [vi("x", [1, 255, 1, 999])], [vi("y", None)], path=self.path("pool.onnx"))
        program = compiler.compile_file(path, self.path("pool.pte"), quantize="int8",
                                        samples=1)
        self.assertEqual(program.tensors[program.outputs[0]].shape, [1, 255, 21846, 2])
        # (then a slow unit of 310 s: stride 1 over 65,536 rows, 131,071 distinct spans, each
        # reduced on its own; now read off running maxima)
        path = save([helper.make_node("MaxPool", ["x"], ["y"], name="pool",
                                      kernel_shape=[65536, 65536],
                                      pads=[65535, 65535, 65535, 7], strides=[1, 16])],
                    [vi("x", [3, 1, 65536, 1])], [vi("y", None)], path=self.path("pool.onnx"))
        x = rng.standard_normal((3, 1, 65536, 1)).astype(np.float32)
        np.savez(self.path("x.npz"), x=x[None])
        program = compiler.compile_file(path, self.path("pool.pte"), quantize="int8",
                                        calibration=self.path("x.npz"))
        self.assertEqual(program.tensors[program.outputs[0]].shape, [3, 1, 131071, 1])
        y = reference.run(program, [x])[0][:, 0, :, 0]
        ahead, behind = np.maximum.accumulate(x[:, 0, :, 0], axis=1), \
            np.maximum.accumulate(x[:, 0, ::-1, 0], axis=1)[:, ::-1]
        want = np.concatenate([ahead, behind[:, 1:]], axis=1)  # rows i - 65535 .. i
        scale = max(t.scale for t in program.tensors if pf.DTYPE_NAMES[t.dtype] == "int8")
        np.testing.assert_allclose(y, want, atol=scale)  # the int8 step

    def test_nearest_resize_gathers_rows_and_columns_at_once(self):
        # (found by the fuzz target, a timeout: a nearest Resize of 1 x 2 x 4 x 999 to
        # 1 x 2 x 393216 x 8, --quantize int8; calibration gathered the output's rows of
        # every input column first: 3.1 GB for a 25 MB output, 24 s)
        import tracemalloc
        from socsim_aot.schema import resize
        x = np.arange(2 * 4096, dtype=np.float32).reshape(1, 1, 2, 4096)
        rows, cols = np.arange(4096) % 2, np.array([4095, 7])
        out = np.empty((1, 1, 4096, 2), np.float32)
        tracemalloc.start()
        try:
            y = resize._nearest([x, np.concatenate([rows, cols]).astype(np.int32)], None, out)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        np.testing.assert_array_equal(y, x[:, :, rows][:, :, :, cols])
        self.assertLess(peak, 1 << 20)  # the rows-by-input-columns copy: 64 MiB

    def test_subnormal_ranges_get_the_smallest_float32_scale(self):
        # (found by the fuzz target: a Mul by [0, 0, 0, 2.8e-45] gave the constant and the
        # product scales that are 0 as float32, which the program's reader refused)
        c = np.array([0, 0, 0, 2], np.uint32).view(np.float32)
        path = save([helper.make_node("Mul", ["x", "c"], ["y"], name="mul")],
                    [vi("x", [1, 4])], [vi("y", [1, 4])], [numpy_helper.from_array(c, "c")],
                    path=self.path("subnormal.onnx"))
        program = compiler.compile_file(path, self.path("subnormal.pte"), quantize="int8",
                                        samples=1)
        scales = [t.scale for t in program.tensors if pf.DTYPE_NAMES[t.dtype] == "int8"]
        self.assertTrue(scales)
        self.assertGreaterEqual(min(scales), np.finfo(np.float32).tiny)
        x = np.array([[1, -2, 3, 100]], np.float32)
        np.testing.assert_array_equal(reference.run(program, [x])[0], np.zeros((1, 4)))

    def test_tile_size_is_estimated_as_numpy_tiles(self):
        # (found by the fuzz target: Tile of a [1] constant by repeats [50000, 50000] was
        # estimated at 50,000 elements and folded: numpy tiled 2.5 x 10^9, out of memory)
        from socsim_aot.passes import fold_constants
        from types import SimpleNamespace
        tile = SimpleNamespace(op_type="Tile", outputs=["e"], attrs={})
        graph = SimpleNamespace(types={})  # no inferred shape: the estimate decides
        ins = [np.ones([1], np.float32), np.array([50000, 50000], np.int64)]
        self.assertEqual(fold_constants._result_elements(graph, tile, ins), 2_500_000_000)
        ins = [np.ones([2, 3], np.float32), np.array([4], np.int64)]
        self.assertEqual(fold_constants._result_elements(graph, tile, ins),
                         np.tile(ins[0], ins[1]).size)
        node = helper.make_node("Tile", ["c", "r"], ["e"], name="tile")
        path = save([node, helper.make_node("Add", ["x", "e"], ["y"])], [vi("x", [1, 1])],
                    [vi("y", None)], [numpy_helper.from_array(np.ones([1], np.float32), "c"),
                                      numpy_helper.from_array(np.array([50000, 50000]), "r")],
                    path=self.path("tile.onnx"))
        with self.assertRaises(compiler.CompileError):
            compiler.compile_file(path, self.path("tile.pte"))

    def test_cli_errors_exit_nonzero_with_a_message(self):
        with open(self.path("bad.onnx"), "wb") as f:
            f.write(b"\x08\x07garbage that is not a protobuf model" * 3)
        result = subprocess.run([sys.executable, os.path.join(SCRIPTS, "compile_model.py"),
                                 self.path("bad.onnx"), "-o", self.path("bad.pte")],
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 1)
        self.assertIn("bad.onnx", result.stderr)
        self.assertFalse(os.path.exists(self.path("bad.pte")))
        help_text = subprocess.run([sys.executable, os.path.join(SCRIPTS, "compile_model.py"),
                                    "--help"], capture_output=True, text=True)
        self.assertEqual(help_text.returncode, 0)
        self.assertIn("--quantize", help_text.stdout)

    def test_unsupported_integer_op(self):
        model = save([helper.make_node("Relu", ["x"], ["r"]),
                      helper.make_node("GlobalAveragePool", ["r"], ["y"], name="gap")],
                     [vi("x", [1, 2, 3, 3], TensorProto.INT8)],
                     [vi("y", [1, 2, 1, 1], TensorProto.INT8)], path=self.path("i8.onnx"))
        with self.assertRaises(compiler.CompileError) as ctx:
            compiler.compile_file(model, self.path("i8.pte"))
        self.assertIn("node 'gap' (op GlobalAveragePool)", str(ctx.exception))

    def conv_bn_relu_model(self):
        rng = np.random.default_rng(0)
        w = numpy_helper.from_array(rng.standard_normal((4, 3, 3, 3)).astype(np.float32), "w")
        bn = [numpy_helper.from_array(a.astype(np.float32), n) for a, n in (
            (rng.uniform(0.5, 2, 4), "s"), (rng.standard_normal(4), "b"),
            (rng.standard_normal(4), "m"), (rng.uniform(0.5, 2, 4), "v"))]
        nodes = [helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
                 helper.make_node("BatchNormalization", ["c", "s", "b", "m", "v"], ["n"]),
                 helper.make_node("Relu", ["n"], ["y"])]
        path = save(nodes, [vi("x", [1, 3, 5, 5])], [vi("y", [1, 4, 5, 5])], [w] + bn,
                    self.path("cbr.onnx"))
        return path, w, bn

    def test_batch_norm_folds_and_relu_fuses(self):
        path, w, bn = self.conv_bn_relu_model()
        program = compiler.compile_file(path, self.path("cbr.pte"))
        self.assertEqual([i.name for i in program.instructions], [CONVOLUTION.name])
        args = schema.unpack_args(CONVOLUTION, program.instructions[0].args)
        self.assertEqual((args.act_min, args.act_max), (0.0, float("inf")))
        x = np.random.default_rng(1).standard_normal((1, 3, 5, 5)).astype(np.float32)
        (got,) = reference.run(program, [x])
        s, b, m, v = (numpy_helper.to_array(t).astype(np.float64) for t in bn)
        conv = conv2d_nchw(x.astype(np.float64), numpy_helper.to_array(w),
                           (1, 1), (1, 1, 1, 1), (1, 1), 1, np.float64)
        want = np.maximum((conv - m[None, :, None, None]) / np.sqrt(v + 1e-5)[
            None, :, None, None] * s[None, :, None, None] + b[None, :, None, None], 0)
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)

    def test_memory_plan_reuses_dead_tensors_without_overlap(self):
        # A chain x -> r1 -> r2 -> ... -> r6: only neighbours are alive together.
        nodes = [helper.make_node("Relu", [f"r{i}" if i else "x"], [f"r{i + 1}"])
                 for i in range(6)]
        program = compiler.compile_file(
            save(nodes, [vi("x", [256])], [vi("r6", [256])], path=self.path("chain.onnx")),
            self.path("chain.pte"))
        # At the last step the input (alive throughout), r5 and r6 are alive: three 1 KiB
        # slots, which the planner reaches by reusing dead intermediates.
        self.assertEqual(program.buffers, [3 * 1024])
        self.check_no_live_overlap(program)

    def check_no_live_overlap(self, program):
        life = {}
        end = len(program.instructions)
        for t in program.inputs:
            life[t] = [0, end]
        for step, ins in enumerate(program.instructions):
            for t in ins.inputs + ins.outputs:
                if not program.tensors[t].is_constant:
                    life.setdefault(t, [step, step])[1] = step
        for t in program.outputs:
            life[t][1] = end
        items = list(life)
        for i, a in enumerate(items):
            for b in items[i + 1:]:
                ta, tb = program.tensors[a], program.tensors[b]
                live = not (life[a][1] < life[b][0] or life[b][1] < life[a][0])
                disjoint = ta.offset + ta.nbytes <= tb.offset or tb.offset + tb.nbytes <= ta.offset
                self.assertTrue(not live or disjoint, f"tensors {a} and {b} overlap")

    def test_best_fit_prefers_the_smallest_gap(self):
        sizes = {0: 64, 1: 32, 2: 128, 3: 32}
        life = {0: (0, 1), 1: (0, 5), 2: (0, 1), 3: (3, 4)}
        offsets, total = compiler.plan_memory(sizes, life)
        self.assertEqual(offsets[2], 0)  # largest first
        self.assertEqual(offsets[0], 128)
        self.assertEqual(offsets[1], 192)
        self.assertEqual(offsets[3], 0)  # reuses the dead 128-byte tensor's room
        self.assertEqual(total, 224)

    def add8_model(self, n):
        return save([helper.make_node("Add", ["x", "y"], ["z"])],
                    [vi("x", [n], TensorProto.INT8), vi("y", [n], TensorProto.INT8)],
                    [vi("z", [n], TensorProto.INT8)], path=self.path(f"add8_{n}.onnx"))

    def test_delegate_partitions_int8_adds(self):
        model = self.add8_model(13)
        plain = compiler.compile_file(model, self.path("a.pte"))
        packed = compiler.compile_file(model, self.path("b.pte"), delegate="cpu-packed")
        self.assertEqual(plain.instructions[0].name, ADD.name)
        self.assertEqual(packed.instructions[0].name, "")
        self.assertEqual(packed.delegates[0].backend, "cpu-packed")
        self.assertEqual(packed.delegates[0].blob, b"CPK1" + (1).to_bytes(4, "little") +
                         (1).to_bytes(4, "little") + (13).to_bytes(4, "little"))
        x = (np.arange(13) * 37 % 256 - 128).astype(np.int8)
        a = reference.run(plain, [x, x[::-1].copy()])[0]
        b = reference.run(packed, [x, x[::-1].copy()])[0]
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(a, (x.astype(np.int32) + x[::-1]).astype(np.int8))

    def test_print_ops_lists_kernels_for_selective_build(self):
        path, _, _ = self.conv_bn_relu_model()
        out = io.StringIO()
        from contextlib import redirect_stdout
        with redirect_stdout(out), redirect_stderr(io.StringIO()):
            rc = compiler.main([path, "--print-ops", "--quantize", "int8"])
        self.assertEqual(rc, 0)
        self.assertEqual(out.getvalue().strip().splitlines()[-1],
                         "SOCSIM_KERNEL_OPS=" + ";".join(sorted((
                             QUANTIZED_CONVOLUTION.name, DEQUANTIZE.name, QUANTIZE.name))))

    def test_int8_quantisation_of_a_small_graph(self):
        path, _, _ = self.conv_bn_relu_model()
        rng = np.random.default_rng(3)
        np.savez(self.path("calib.npz"), x=rng.standard_normal((6, 1, 3, 5, 5)).astype(np.float32))
        f32 = compiler.compile_file(path, self.path("f.pte"))
        q = compiler.compile_file(path, self.path("q.pte"), quantize="int8",
                                  calibration=self.path("calib.npz"))
        self.assertEqual([i.name for i in q.instructions],
                         [QUANTIZE.name, QUANTIZED_CONVOLUTION.name, DEQUANTIZE.name])
        w = q.tensors[q.instructions[1].inputs[1]]
        self.assertEqual(w.quant, pf.QUANT_PER_CHANNEL)
        self.assertEqual(len(w.scales), 4)
        self.assertEqual(q.tensors[q.instructions[1].inputs[2]].dtype, 3)  # int32 bias
        x = rng.standard_normal((1, 3, 5, 5)).astype(np.float32)
        (a,) = reference.run(f32, [x])
        (b,) = reference.run(q, [x])
        self.assertLess(np.abs(a - b).max(), 0.05 * np.abs(a).max())
        self.assertTrue(np.all(b >= 0))  # the fused ReLU survived quantisation

    def test_a_bias_too_large_for_its_scale_widens_the_weight_scale(self):
        # GoogLeNet with random weights: activations of ~1e-13 reach the classifier, whose
        # bias (~0.03) at scale input x weight would need 2^40 and more. The offending
        # channels' weight scales widen until the bias fits the middle half of int32.
        rng = np.random.default_rng(5)
        w = (0.01 * rng.standard_normal((6, 32))).astype(np.float32)
        bias = np.array([0.03, 0.0, -0.02, 0.0, 1e-12, 0.03], np.float32)
        inits = [numpy_helper.from_array(w, "w"), numpy_helper.from_array(bias, "b")]
        path = save([helper.make_node("Gemm", ["x", "w", "b"], ["y"], transB=1)],
                    [vi("x", [1, 32])], [vi("y", [1, 6])], inits, self.path("fc.onnx"))
        calib = (1e-12 * rng.standard_normal((4, 1, 32))).astype(np.float32)
        np.savez(self.path("calib.npz"), x=calib)
        q = compiler.compile_file(path, self.path("q.pte"), quantize="int8",
                                  calibration=self.path("calib.npz"))
        (fc,) = [i for i in q.instructions if i.name == schema.conv.QUANTIZED_LINEAR.name]
        x_scale = q.tensors[fc.inputs[0]].scale
        scales = np.array(q.tensors[fc.inputs[1]].scales, np.float64)
        bq = np.asarray(q.tensors[fc.inputs[2]].constant, np.int64)
        plain = np.abs(w).max(axis=1).astype(np.float64) / 127.0
        widened = np.abs(bias) / (x_scale * plain) > 2 ** 30
        self.assertEqual(widened.tolist(), [True, False, True, False, False, True])
        np.testing.assert_allclose(scales[~widened], plain[~widened], rtol=1e-6)
        self.assertTrue(np.all(scales[widened] > plain[widened] * 1000))
        self.assertLessEqual(int(np.abs(bq).max()), 2 ** 30)
        self.assertEqual(int(np.abs(bq[widened]).max()), 2 ** 30)
        f32 = compiler.compile_file(path, self.path("f.pte"))
        x = calib[0]
        (a,) = reference.run(f32, [x])
        (b,) = reference.run(q, [x])
        self.assertLess(np.abs(a - b).max(), 0.01 * np.abs(a).max())

    def concat_model(self):
        rng = np.random.default_rng(2)
        inits = [numpy_helper.from_array(rng.standard_normal(s).astype(np.float32), n)
                 for n, s in (("wa", (16, 3, 3, 3)), ("wb", (16, 3, 1, 1)), ("wc", (8, 32, 1, 1)))]
        nodes = [helper.make_node("Conv", ["x", "wa"], ["a"], pads=[1, 1, 1, 1]),
                 helper.make_node("Relu", ["a"], ["ar"]),
                 helper.make_node("Conv", ["x", "wb"], ["b"]),
                 helper.make_node("Concat", ["ar", "b"], ["cat"], axis=1),
                 helper.make_node("Conv", ["cat", "wc"], ["y"])]
        return save(nodes, [vi("x", [1, 3, 6, 6])], [vi("y", [1, 8, 6, 6])], inits,
                    self.path("cat.onnx"))

    def test_concat_inputs_are_written_into_its_output(self):
        path = self.concat_model()
        x = np.random.default_rng(4).standard_normal((1, 3, 6, 6)).astype(np.float32)
        for options in ({}, dict(quantize="int8"), dict(quantize="int8", delegate="npu")):
            g = compiler.load_onnx(path)
            placed = compiler.compile_graph(g, samples=compiler.random_samples(g, 2), **options)
            unplaced = compiler.emit_program(g, place_concats=False)
            self.assertIn("aten::cat.out", [i.name for i in unplaced.instructions])
            self.assertNotIn("aten::cat.out", [i.name for i in placed.instructions])
            # quantised, the convolutions write the concatenation's scale: no requantize
            self.assertNotIn("quantized_decomposed::requantize.out",
                             [i.name for i in placed.instructions])
            copy = next(i for i in unplaced.instructions if i.name == "aten::cat.out")
            names = [t.name for t in placed.tensors]
            cat, a, b = (placed.tensors[names.index(unplaced.tensors[i].name)]
                         for i in copy.outputs + copy.inputs)
            self.assertEqual((a.offset - cat.offset, b.offset - cat.offset), (0, a.nbytes))
            (want,) = reference.run(unplaced, [x])
            (got,) = reference.run(placed, [x])
            np.testing.assert_array_equal(got, want)
            self.assertLess(placed.buffers[0], unplaced.buffers[0] + 1)
            pf.read(pf.write(placed))  # the runtime's checks: alignment, bounds

    def test_contiguous_slices_are_read_in_place(self):
        # ShuffleNetV2's channel split: Split on the channels of a batch-1 tensor gives two
        # blocks of it, read where they are; a slice of rows (not one block) stays a copy.
        rng = np.random.default_rng(7)
        inits = [numpy_helper.from_array(rng.standard_normal((8, 8, 1, 1)).astype(np.float32),
                                         "w"),
                 numpy_helper.from_array(rng.standard_normal((16, 3, 1, 1)).astype(np.float32),
                                         "w0"),
                 numpy_helper.from_array(np.array([2], np.int64), "two"),
                 numpy_helper.from_array(np.array([4], np.int64), "four")]
        nodes = [helper.make_node("Conv", ["x", "w0"], ["c"]),
                 helper.make_node("Split", ["c"], ["s1", "s2"], axis=1),
                 helper.make_node("Conv", ["s2", "w"], ["b"]),
                 helper.make_node("Relu", ["s1"], ["r"]),
                 helper.make_node("Concat", ["r", "b"], ["cat"], axis=1),
                 helper.make_node("Slice", ["cat", "two", "four", "two"], ["rows"])]
        path = save(nodes, [vi("x", [1, 3, 6, 6])], [vi("rows", [1, 16, 2, 6])], inits,
                    self.path("split.onnx"))
        x = rng.standard_normal((1, 3, 6, 6)).astype(np.float32)
        npu_ops = npu_partition.load_npu_operators(compiler.DEFAULT_NPU_CONFIG)
        for options in ({}, dict(quantize="int8"),
                        dict(quantize="int8", delegate="npu", npu_ops=npu_ops)):
            g = compiler.load_onnx(path)
            placed = compiler.compile_graph(g, samples=compiler.random_samples(g, 2), **options)
            unplaced = compiler.emit_program(g, place_concats=False)
            kernels = [i.name for i in placed.instructions]
            if "npu_ops" in options:  # the relu's requantisation to the concatenation's scale
                self.assertNotIn(schema.quantization.REQUANTIZE.name, kernels)
                reports = [schema.by_npu_opcode(layouts.NPU_DESCRIPTOR.unpack(
                    d.blob, layouts.NPU_BLOB_HEADER.size + k * layouts.NPU_DESCRIPTOR.size)["op"])
                    .npu.report for d in placed.delegates
                    for k in range(layouts.NPU_BLOB_HEADER.unpack(d.blob)["layer_count"])]
                self.assertIn("Requantize", reports)
            elif "quantize" in options:
                self.assertIn(schema.quantization.REQUANTIZE.name, kernels)
            slices = [i for i in unplaced.instructions if i.name == "aten::slice_copy.Tensor_out"]
            self.assertEqual(len(slices), 3)
            kept = [i for i in placed.instructions if i.name == "aten::slice_copy.Tensor_out"]
            self.assertEqual(len(kept), 1, options)  # the rows
            self.assertEqual(unplaced.tensors[slices[2].outputs[0]].shape, [1, 16, 2, 6])
            names = [t.name for t in placed.tensors]
            c, s1, s2 = (placed.tensors[names.index(unplaced.tensors[i].name)]
                         for i in slices[0].inputs + slices[0].outputs + slices[1].outputs)
            self.assertEqual((s1.offset - c.offset, s2.offset - c.offset), (0, s1.nbytes))
            (want,) = reference.run(unplaced, [x])
            (got,) = reference.run(placed, [x])
            np.testing.assert_array_equal(got, want)
            pf.read(pf.write(placed))

    def test_slice_blocks(self):
        block = compiler.slice_block
        self.assertEqual(block([1, 8, 4, 4], [1, 4, 4, 4], [0, 1, 4, 1, 0, 1, 0, 1]), 64)
        self.assertEqual(block([1, 8, 4, 4], [1, 8, 4, 4], [0, 1, 0, 1, 0, 1, 0, 1]), 0)
        self.assertEqual(block([1, 1, 4, 4], [1, 1, 2, 4], [0, 1, 0, 1, 2, 1, 0, 1]), 8)
        self.assertEqual(block([1, 8, 4, 4], [1, 1, 1, 4], [0, 1, 3, 1, 2, 1, 0, 1]), None)
        self.assertEqual(block([1, 8, 4, 4], [1, 1, 4, 4], [0, 1, 5, 2, 0, 1, 0, 1]), 80)
        self.assertIsNone(block([2, 8, 4, 4], [2, 4, 4, 4], [0, 1, 0, 1, 0, 1, 0, 1]))
        self.assertIsNone(block([1, 8, 4, 4], [1, 4, 4, 4], [0, 1, 0, 2, 0, 1, 0, 1]))
        self.assertIsNone(block([1, 8, 4, 4], [1, 8, 2, 4], [0, 1, 0, 1, 0, 1, 0, 1]))
        self.assertIsNone(block([1, 8, 4, 4], [1, 8, 4, 4], [0, 1, 7, -1, 0, 1, 0, 1]))

    def test_placed_concat_may_be_a_program_output(self):
        # The stacked hidden states of an unrolled recurrent layer: the concatenation has no
        # instruction of its own, and its output lives to the end like any output.
        nodes = [helper.make_node("Tanh", ["x"], ["a"]), helper.make_node("Sigmoid", ["x"], ["b"]),
                 helper.make_node("Concat", ["a", "b"], ["y"], axis=0)]
        path = save(nodes, [vi("x", [1, 16])], [vi("y", [2, 16])], [], self.path("out.onnx"))
        x = np.random.default_rng(6).standard_normal((1, 16)).astype(np.float32)
        program = compiler.compile_file(path, self.path("out.pte"))
        self.assertNotIn("aten::cat.out", [i.name for i in program.instructions])
        (got,) = reference.run(program, [x])
        np.testing.assert_allclose(got, np.concatenate([np.tanh(x), 1 / (1 + np.exp(-x))]),
                                   rtol=1e-6)

    MEAN, STD = (123.675, 116.28, 103.53), (58.395, 57.12, 57.375)

    def integer_io_programs(self, delegate=None, output_type="int8"):
        path, _, _ = self.conv_bn_relu_model()
        rng = np.random.default_rng(5)
        np.savez(self.path("calib.npz"), x=rng.standard_normal((6, 1, 3, 5, 5)).astype(np.float32))
        common = dict(quantize="int8", calibration=self.path("calib.npz"), delegate=delegate)
        f = compiler.compile_file(path, self.path("f.pte"), **common)
        u = compiler.compile_file(path, self.path("u.pte"), input_type="uint8", mean=self.MEAN,
                                  std=self.STD, output_type=output_type, **common)
        image = rng.integers(0, 256, (1, 3, 5, 5)).astype(np.uint8)
        norm = (image - np.array(self.MEAN).reshape(1, 3, 1, 1)) / \
            np.array(self.STD).reshape(1, 3, 1, 1)
        return f, u, image, norm.astype(np.float32)

    def test_uint8_input_is_normalised_by_a_first_layer(self):
        f, u, image, norm = self.integer_io_programs()
        self.assertEqual([i.name for i in u.instructions],
                         [QUANTIZED_CONVOLUTION.name, QUANTIZED_CONVOLUTION.name])
        self.assertEqual(u.tensors[u.inputs[0]].dtype, pf.dtype_code(np.uint8))
        out = u.tensors[u.outputs[0]]
        self.assertEqual((out.dtype, out.quant), (pf.dtype_code(np.int8), pf.QUANT_PER_TENSOR))
        # the float program fed the normalised image: the same int8 values, within one step
        # (the float quantise and the first layer round differently)
        (want,) = reference.run(f, [norm])
        (got,) = reference.run(u, [image])
        self.assertLessEqual(np.abs(got * out.scale - want).max(), out.scale * 1.0001)
        first = u.instructions[0]
        x, normalised = u.tensors[first.inputs[0]], u.tensors[first.outputs[0]]
        trace = {}
        reference.run(u, [image], trace)
        self.assertLessEqual(
            np.abs(trace[first.outputs[0]] * normalised.scale - norm).max(), normalised.scale)
        self.assertEqual(x.dtype, pf.dtype_code(np.uint8))

    def test_uint8_input_on_the_npu_leaves_no_cpu_operator(self):
        f, u, image, norm = self.integer_io_programs(delegate="npu")
        self.assertEqual([i.name for i in f.instructions], [QUANTIZE.name, "", DEQUANTIZE.name])
        self.assertEqual([i.name for i in u.instructions], [""])
        (want,) = reference.run(f, [norm])
        (got,) = reference.run(u, [image])
        scale = u.tensors[u.outputs[0]].scale
        self.assertLessEqual(np.abs(got * scale - want).max(), scale * 1.0001)

    def test_float_outputs_of_an_integer_input_are_dequantised(self):
        _, u, image, _ = self.integer_io_programs(output_type="float32")
        self.assertEqual([i.name for i in u.instructions][-1], DEQUANTIZE.name)
        self.assertEqual(u.tensors[u.outputs[0]].dtype, pf.dtype_code(np.float32))

    def test_integer_io_errors(self):
        path, _, _ = self.conv_bn_relu_model()
        with self.assertRaises(compiler.CompileError) as ctx:
            compiler.compile_file(path, self.path("x.pte"), input_type="uint8")
        self.assertIn("add --quantize int8", str(ctx.exception))
        with self.assertRaises(compiler.CompileError) as ctx:
            compiler.compile_file(path, self.path("x.pte"), quantize="int8", input_type="uint8",
                                  mean=(1.0, 2.0))
        self.assertIn("--mean has 2 values; the input has 3 channels", str(ctx.exception))
        with self.assertRaises(compiler.CompileError) as ctx:
            compiler.compile_file(path, self.path("x.pte"), quantize="int8", input_type="int8",
                                  std=(0.0,))
        self.assertIn("--std must be positive", str(ctx.exception))
        result = subprocess.run([sys.executable, os.path.join(SCRIPTS, "compile_model.py"), path,
                                 "-o", self.path("x.pte"), "--quantize", "int8",
                                 "--input-type", "uint8", "--mean", "1,x"],
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 2)
        self.assertIn("'1,x' is not a comma-separated list of numbers", result.stderr)


if __name__ == "__main__":
    unittest.main()
