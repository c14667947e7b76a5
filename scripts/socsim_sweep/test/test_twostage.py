"""Two-stage studies: the Pareto selection with a margin, the comparison of estimate and
simulation, and the two_stage section's errors (file, line, key)."""

import random
import textwrap
import unittest

from socsim_sweep import twostage
from socsim_sweep.test.test_spec import SweepFileCase


def brute_force(values, margins):
    """The definition, point by point against every other (no front shortcut)."""
    n = len(values)
    front = {i for i in range(n) if values[i] is not None and not any(
        values[j] is not None and twostage.dominates(values[j], values[i])
        for j in range(n) if j != i)}
    cands = {i for i in range(n) if values[i] is not None and not any(
        values[j] is not None and twostage.dominates(values[j], values[i], margins)
        for j in range(n) if j != i)}
    return front, cands


class SelectionTest(unittest.TestCase):
    # (area, time): a front of 0, 1, 2; 3 is 5 % behind 1 in both, 4 is 20 % behind 2,
    # 5 equals 1 (on the front as well), 6 has no estimate.
    VALUES = [(1.0, 100.0), (2.0, 50.0), (4.0, 25.0), (2.1, 52.5), (4.8, 30.0),
              (2.0, 50.0), None]

    def test_front_without_margin(self):
        front, cands = twostage.select(self.VALUES)
        self.assertEqual(front, {0, 1, 2, 5})
        self.assertEqual(cands, front)

    def test_margin_keeps_the_points_near_the_front(self):
        # 3 is beaten by 1 by 4.8 % in area and 4.8 % in time: kept by 5 %, not by 4 %
        front, cands = twostage.select(self.VALUES, (0.05, 0.05))
        self.assertEqual(front, {0, 1, 2, 5})
        self.assertEqual(cands, {0, 1, 2, 3, 5})
        self.assertEqual(twostage.select(self.VALUES, (0.04, 0.04))[1], {0, 1, 2, 5})
        # 4 is 16.7 % (area) and 16.7 % (time) behind 2
        self.assertEqual(twostage.select(self.VALUES, (0.17, 0.17))[1], {0, 1, 2, 3, 4, 5})
        self.assertEqual(twostage.select(self.VALUES, (0.16, 0.16))[1], {0, 1, 2, 3, 5})

    def test_a_margin_on_one_objective(self):
        # time alone within 5 %: 3 (2.1 vs 2.0 area: 4.8 % worse) is still beaten in area
        # by more than 0 % and in time by 4.8 % < 5 %: kept
        self.assertEqual(twostage.select(self.VALUES, (0.0, 0.05))[1], {0, 1, 2, 3, 5})
        # area alone within 5 %: the same by symmetry
        self.assertEqual(twostage.select(self.VALUES, (0.05, 0.0))[1], {0, 1, 2, 3, 5})

    def test_dominates(self):
        self.assertTrue(twostage.dominates((1, 1), (2, 2)))
        self.assertTrue(twostage.dominates((1, 2), (2, 2)))
        self.assertFalse(twostage.dominates((2, 2), (2, 2)))   # equal: not dominated
        self.assertFalse(twostage.dominates((1, 3), (2, 2)))
        self.assertTrue(twostage.dominates((1, 1), (2, 2), (0.5, 0.5)))   # 1 <= 2 - 1
        self.assertFalse(twostage.dominates((1.01, 1), (2, 2), (0.5, 0.5)))
        # negative values: the margin is a fraction of the magnitude
        self.assertTrue(twostage.dominates((-11, 0), (-10, 0), (0.1, 0.0)))
        self.assertFalse(twostage.dominates((-10.5, 0), (-10, 0), (0.1, 0.0)))

    def test_matches_the_definition_on_random_points(self):
        rng = random.Random(5)
        for trial in range(60):
            k = rng.choice((2, 3))
            values = [tuple(rng.choice((rng.uniform(1, 10), float(rng.randint(1, 4))))
                            for _ in range(k)) if rng.random() > 0.05 else None
                      for _ in range(rng.randint(0, 60))]
            margins = tuple(rng.choice((0.0, 0.02, 0.1, 0.3)) for _ in range(k))
            self.assertEqual(twostage.select(values, margins),
                             brute_force(values, margins), (trial, values, margins))

    def test_no_points(self):
        self.assertEqual(twostage.select([]), (set(), set()))
        self.assertEqual(twostage.select([None, None], (0.1, 0.1)), (set(), set()))


class FakeSweep:
    class Two:
        objectives = ["area", "time"]
        margins = {"area": 0.0, "time": 0.1}
    two_stage = Two()


def row(idx, est, sim, candidate, front, status="ok"):
    return {"idx": idx, "params": {"p": idx}, "status": status, "candidate": candidate,
            "est_front": front, "estimate": dict(zip(("area", "time"), est)),
            "metrics": dict(zip(("area", "time"), sim)) if sim else {}}


class ComparisonTest(unittest.TestCase):
    def test_fronts_and_order_changes(self):
        rows = [row(0, (1, 100), (1, 110), 1, 1),
                row(1, (2, 50), (2, 60), 1, 1),
                row(2, (3, 52), (3, 55), 1, 0),    # simulated: beats 1 in time
                row(3, (4, 90), None, 0, 0, "estimated")]
        c = twostage.compare(FakeSweep(), rows)
        self.assertEqual(c["candidates"], 3)
        self.assertEqual(c["simulated"], 3)
        self.assertEqual(c["estimated_front"], [0, 1])
        self.assertEqual(c["simulated_front"], [0, 1, 2])
        self.assertFalse(c["fronts_agree"])
        self.assertEqual(c["on_simulated_front_only"], [2])
        # time: 1 and 2 swap (50 < 52 estimated, 60 > 55 simulated); area keeps its order
        self.assertEqual(c["order_changes"]["time"],
                         {"pairs": 3, "swapped": 1, "largest_rank_shift": 1})
        self.assertEqual(c["order_changes"]["area"]["swapped"], 0)
        t = {i["point"]: i for i in c["candidates_table"]}
        self.assertAlmostEqual(t[0]["error_percent"]["time"], 100 * (100 - 110) / 110)
        self.assertEqual(t[0]["error_percent"]["area"], 0.0)


class TwoStageFileTest(SweepFileCase):
    BASE = """
        name: t
        models:
          m: {program: prog.bin}
        parameters:
          npu.mac_array.rows: [16, 32]
        metrics:
          npu_time_us: sum(npu_layers.layers.time_us)
        """

    def text(self, section):
        self.write("not a program", "prog.bin")
        return textwrap.dedent(self.BASE).lstrip() + textwrap.dedent(section).lstrip()

    def load_two(self, section):
        return self.load(self.text(section))

    def two_error(self, section):
        return self.error(self.text(section))

    def test_reads_the_section(self):
        s = self.load_two("""
        two_stage:
          metrics:
            npu_time_us: estimate.frame_us
          objectives: [cost.npu_area_mm2, npu_time_us]
          margin_percent: {npu_time_us: 10}
          batch: 64
        """)
        two = s.two_stage
        self.assertEqual(two.objectives, ["cost.npu_area_mm2", "npu_time_us"])
        self.assertEqual(two.margins, {"npu_time_us": 0.1})
        self.assertEqual(two.batch, 64)
        self.assertEqual(two.definition(), [["npu_time_us", "estimate.frame_us"]])

    def test_errors_name_file_line_and_key(self):
        cases = [
            ("two_stage:\n  objectives: [cost.npu_area_mm2, npu_time_us]\n",
             r"sweep.yaml:\d+: two_stage: missing key 'metrics'|metrics"),
            ("two_stage:\n  metrics: {npu_time_us: estimate.frame_us}\n"
             "  objectives: [npu_time_us]\n",
             r"sweep.yaml:\d+: two_stage.objectives: a Pareto front needs at least two"),
            ("two_stage:\n  metrics: {npu_time_us: estimat.frame_us}\n"
             "  objectives: [cost.npu_area_mm2, npu_time_us]\n",
             r"sweep.yaml:\d+: two_stage.metrics.npu_time_us: .*estimat"),
            ("two_stage:\n  metrics: {t_us: estimate.frame_us}\n"
             "  objectives: [cost.npu_area_mm2, t_us]\n",
             r"sweep.yaml:\d+: two_stage.objectives.*'t_us' is not a metric of the metrics "
             "section"),
            ("two_stage:\n  metrics: {npu_time_us: estimate.frame_us}\n"
             "  objectives: [cost.energy_uj, npu_time_us]\n",
             r"sweep.yaml:\d+: two_stage.objectives.*not a metric of two_stage.metrics"),
            ("two_stage:\n  metrics: {npu_time_us: estimate.frame_us}\n"
             "  objectives: [cost.npu_area_mm2, npu_time_us]\n  margin_percent: 100\n",
             r"sweep.yaml:\d+: two_stage.margin_percent: a margin is a percentage"),
            ("two_stage:\n  metrics: {npu_time_us: estimate.frame_us}\n"
             "  objectives: [cost.npu_area_mm2, npu_time_us]\n"
             "  margin_percent: {cycles: 5}\n",
             r"sweep.yaml:\d+: two_stage.margin_percent.cycles: 'cycles' is not an objective"),
            ("two_stage:\n  metrics: {npu_time_us: estimate.frame_us}\n"
             "  objectives: [cost.npu_area_mm2, npu_time_us]\n  batch: 0\n",
             r"sweep.yaml:\d+: two_stage.batch: must be at least 1"),
            ("two_stage:\n  metrics: {npu_time_us: estimate.frame_us}\n"
             "  objectives: [cost.npu_area_mm2, npu_time_us]\n  simulate: all\n",
             r"sweep.yaml:\d+: two_stage.*simulate"),
            ("two_stage:\n  metrics: {npu_time_us: estimate.frame_us}\n"
             "  objectives: [cost.npu_area_mm2, npu_time_us, npu_time_us]\n",
             r"sweep.yaml:\d+: two_stage.objectives.*'npu_time_us' is an objective twice"),
        ]
        for section, pattern in cases:
            with self.subTest(section=section):
                self.assertRegex(self.two_error(section), pattern)

    def test_needs_a_model(self):
        message = self.error("""
            name: t
            parameters:
              npu.mac_array.rows: [16, 32]
            two_stage:
              metrics: {t_us: estimate.frame_us}
              objectives: [cost.npu_area_mm2, t_us]
            """)
        self.assertRegex(message, r"sweep.yaml:\d+: two_stage: .*needs a models section")


if __name__ == "__main__":
    unittest.main()
