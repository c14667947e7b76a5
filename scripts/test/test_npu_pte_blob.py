"""The self-contained npu blob (socsim_aot/npu_pte_blob.py) and the partition lowering of
socsim_executorch/lower_npu.py, without torch 2: a partition described by hand (the QDQ form
ExecuTorch's PT2E graphs take) is compiled, packed and checked field by field."""

import unittest

import numpy as np

from socsim_aot import npu_pte_blob
from socsim_executorch import lower_npu
from socsim_schema import layouts

KIND = layouts.NPU_ADDR_KINDS


def conv_relu_description(op="Relu"):
    """int8 input -> DQ -> Conv(+bias) -> activation -> Q -> int8 output, then a second
    convolution reading the first's result (an intermediate in the scratch memory)."""
    rng = np.random.default_rng(0)
    arrays = {
        "w1": rng.integers(-127, 128, (8, 3, 3, 3)).astype(np.int8),
        "w1_scales": np.full(8, 0.01, np.float32), "w1_zps": np.zeros(8, np.int8),
        "b1": rng.standard_normal(8).astype(np.float32),
        "w2": rng.integers(-127, 128, (4, 8, 1, 1)).astype(np.int8),
        "w2_scales": np.full(4, 0.02, np.float32), "w2_zps": np.zeros(4, np.int8),
        "s_in": np.float32(0.05), "s_mid": np.float32(0.1), "s_out": np.float32(0.2),
        "zp": np.int8(0),
    }
    conv = dict(strides=[1, 1], pads=[1, 1, 1, 1], dilations=[1, 1], group=1,
                kernel_shape=[3, 3])
    nodes = [
        dict(op_type="DequantizeLinear", name="dq_x", inputs=["x", "s_in", "zp"],
             outputs=["dq_x"]),
        dict(op_type="DequantizeLinear", name="dq_w1", inputs=["w1", "w1_scales", "w1_zps"],
             outputs=["dq_w1"], attrs=dict(axis=0)),
        dict(op_type="Conv", name="conv1", inputs=["dq_x", "dq_w1", "b1"], outputs=["c1"],
             attrs=conv),
        dict(op_type=op, name="act1", inputs=["c1"], outputs=["a1"]),
        dict(op_type="QuantizeLinear", name="q1", inputs=["a1", "s_mid", "zp"], outputs=["q1"]),
        dict(op_type="DequantizeLinear", name="dq1", inputs=["q1", "s_mid", "zp"],
             outputs=["dq1"]),
        dict(op_type="DequantizeLinear", name="dq_w2", inputs=["w2", "w2_scales", "w2_zps"],
             outputs=["dq_w2"], attrs=dict(axis=0)),
        dict(op_type="Conv", name="conv2", inputs=["dq1", "dq_w2"], outputs=["c2"],
             attrs=dict(conv, pads=[0, 0, 0, 0], kernel_shape=[1, 1])),
        dict(op_type="QuantizeLinear", name="q2", inputs=["c2", "s_out", "zp"], outputs=["y"]),
    ]
    description = dict(inputs=[dict(name="x", shape=[1, 3, 8, 8])], input_quant=[[0.05, 0]],
                       outputs=["y"], output_quant=[[0.2, 0]], nodes=nodes)
    return description, arrays


def slots(blob):
    fields = npu_pte_blob.describe(blob)
    out = []
    for k in range(fields["layer_count"]):
        d = layouts.NPU_DESCRIPTOR.unpack(blob, fields["descriptors_offset"] +
                                          k * layouts.NPU_DESCRIPTOR.size)
        out.append(d["addr"])
    return fields, out


class SelfContainedBlob(unittest.TestCase):
    def test_layout(self):
        description, arrays = conv_relu_description()
        blob = lower_npu.lower(description, arrays)
        fields, addrs = slots(blob)
        self.assertEqual(fields["magic"], layouts.NPU_BLOB_MAGIC)
        self.assertEqual(fields["version"], layouts.NPU_BLOB_VERSION_SELF_CONTAINED)
        self.assertEqual(fields["layer_count"], 2)  # the ReLU fused into the first conv
        self.assertEqual((fields["input_count"], fields["output_count"]), (1, 1))
        self.assertEqual(fields["constants_offset"] % layouts.NPU_CONSTANT_ALIGNMENT, 0)
        self.assertEqual(fields["constants_offset"] + fields["constants_size"], len(blob))
        inp, out = layouts.NPU_SLOTS.index("input"), layouts.NPU_SLOTS.index("output")
        first, second = addrs
        self.assertEqual(first[inp], KIND["call"] << layouts.NPU_ADDR_KIND_SHIFT | 0)
        self.assertEqual(second[out], KIND["call"] << layouts.NPU_ADDR_KIND_SHIFT | 1)
        # The intermediate result: written by the first layer, read by the second, scratch.
        self.assertEqual(first[out], second[inp])
        self.assertEqual(first[out] >> layouts.NPU_ADDR_KIND_SHIFT, KIND["scratch"])
        self.assertGreaterEqual(fields["scratch_size"], 8 * 8 * 8)
        # The weights are constants, their bytes in the blob as the model gives them.
        w = layouts.NPU_SLOTS.index("weights")
        self.assertEqual(first[w] >> layouts.NPU_ADDR_KIND_SHIFT, KIND["constant"])
        at = fields["constants_offset"] + (first[w] & layouts.NPU_ADDR_OFFSET_MASK)
        self.assertEqual(blob[at:at + arrays["w1"].size], arrays["w1"].tobytes())

    def test_deterministic(self):
        a = lower_npu.lower(*conv_relu_description())
        b = lower_npu.lower(*conv_relu_description())
        self.assertEqual(a, b)

    def test_reference_runs(self):
        description, arrays = conv_relu_description()
        x = (np.random.default_rng(1).integers(-100, 100, (1, 3, 8, 8)) * 0.05).astype(
            np.float32)
        (y,) = lower_npu.reference(description, arrays, [x])
        self.assertEqual(list(y.shape), [1, 4, 8, 8])
        self.assertTrue(np.all(np.isfinite(y)))

    def test_cpu_operator_refused(self):
        # Softmax is no NPU layer: it would stay on the CPU, so the partition is refused.
        description, arrays = conv_relu_description(op="Softmax")
        description["nodes"][3]["attrs"] = dict(axis=1)
        with self.assertRaises(npu_pte_blob.BlobError) as e:
            lower_npu.lower(description, arrays)
        self.assertIn("stays on the CPU", str(e.exception))


if __name__ == "__main__":
    unittest.main()
