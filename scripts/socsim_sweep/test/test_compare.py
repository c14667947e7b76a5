"""`socsim compare`: the NPU layer table (layers matched by name, the frame total)."""

import unittest

from socsim_sweep import compare


def run(layers):
    return {"npu_layers": {"layers": layers}}


class CompareLayers(unittest.TestCase):
    def test_frame_total_sums_elapsed_cycles(self):
        # Total Cycles is max(DDR, NPU) per layer and leaves out setup and unoverlapped loads;
        # the layers of a frame take their elapsed cycles one after another.
        a = run([{"op_type": "Conv", "total_cycles": 100, "elapsed_cycles": 700},
                 {"op_type": "Add", "total_cycles": 40, "elapsed_cycles": 560}])
        b = run([{"op_type": "Conv", "total_cycles": 100, "elapsed_cycles": 700},
                 {"op_type": "Add", "total_cycles": 40, "elapsed_cycles": 600}])
        rows = {r[1]: (r, d) for r, d in compare.compare_layers(a, b).rows}
        total, differs = rows["all"]
        self.assertEqual(total[3], "1260 / 1300")
        self.assertEqual(total[4], "+40 (+3.17%)")
        self.assertTrue(differs)
        self.assertFalse(rows["0"][1])
        self.assertTrue(rows["1"][1])

    def test_reports_without_elapsed_cycles_sum_total_cycles(self):
        a = run([{"op_type": "Conv", "total_cycles": 100}])
        rows = {r[1]: r for r, _ in compare.compare_layers(a, a).rows}
        self.assertEqual(rows["all"][3], "100 / 100")

    def test_layers_are_matched_by_name(self):
        # B ran the pooling layer elsewhere: by position, B's fc was set against A's pool
        a = run([{"name": "/conv1/Conv", "op_type": "ConvRelu", "total_cycles": 100},
                 {"name": "/pool/MaxPool", "op_type": "MaxPool", "total_cycles": 30},
                 {"name": "/fc/Gemm", "op_type": "FullyConnected", "total_cycles": 50}])
        b = run([{"name": "/conv1/Conv", "op_type": "ConvRelu", "total_cycles": 90},
                 {"name": "/fc/Gemm", "op_type": "FullyConnected", "total_cycles": 50},
                 {"name": "/extra/Add", "op_type": "Add", "total_cycles": 7}])
        rows = [(r[1], r[2], r[3], d) for r, d in compare.compare_layers(a, b).rows]
        self.assertEqual(rows[:4], [
            ("/conv1/Conv", "ConvRelu", "100 / 90", True),
            ("/pool/MaxPool", "MaxPool", "30 / -", True),
            ("/fc/Gemm", "FullyConnected", "50 / 50", False),
            ("/extra/Add", "Add", "- / 7", True)])
        self.assertEqual(rows[4][0], "all")

    def test_repeated_names_and_frames(self):
        a = run([{"name": "c", "frame": 0, "total_cycles": 1},
                 {"name": "c", "frame": 0, "total_cycles": 2},
                 {"name": "c", "frame": 1, "total_cycles": 3}])
        b = run([{"name": "c", "frame": 1, "total_cycles": 3},
                 {"name": "c", "frame": 0, "total_cycles": 1},
                 {"name": "c", "frame": 0, "total_cycles": 2}])
        rows = [(r[1], r[3], d) for r, d in compare.compare_layers(a, b).rows]
        self.assertEqual(rows[:3], [("c (frame 0)", "1 / 1", False),
                                    ("c #2 (frame 0)", "2 / 2", False),
                                    ("c (frame 1)", "3 / 3", False)])


if __name__ == "__main__":
    unittest.main()
