"""`socsim compare`: the NPU layer table's frame total."""

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


if __name__ == "__main__":
    unittest.main()
