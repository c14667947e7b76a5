"""Metric expressions, the cost model (against hand computations), Pareto fronts and what
the plots draw."""

import io
import json
import os
import tempfile
import unittest

from socsim_sweep import cost, plots, report
from socsim_sweep.expr import EvalError, Expr
from socsim_sweep.source import Node, SweepError, load_text


LAYERS = {"clock_mhz": 1000.0, "rows": 16, "columns": 8, "cores": 2,
          "layers": [
              {"name": "conv", "op_type": "Conv", "data_type": "INT8", "macs": 1000,
               "read_bytes": 300, "write_bytes": 100, "total_cycles": 50, "bound": "compute"},
              {"name": "fc", "op_type": "FullyConnected", "data_type": "INT16", "macs": 10,
               "read_bytes": 50, "write_bytes": 50, "total_cycles": 30,
               "bound": "ddr"}]}


def expr(text):
    return Expr(text, Node(text, "test.yaml", 1, "m"))


def scope(values):
    def lookup(name):
        return (True, values[name]) if name in values else (False, None)
    return lookup


class ExprTest(unittest.TestCase):
    def test_fields_of_lists_and_reductions(self):
        s = scope({"npu_layers": LAYERS})
        self.assertEqual(expr("sum(npu_layers.layers.total_cycles)").evaluate(s), 80)
        self.assertEqual(expr("count(select(npu_layers.layers, bound='ddr'))")
                         .evaluate(s), 1)
        self.assertEqual(expr('npu_layers.layers["fc"].macs').evaluate(s), 10)
        self.assertEqual(expr("npu_layers.layers[0].op_type").evaluate(s), "Conv")
        self.assertEqual(expr("max(npu_layers.layers.macs) / npu_layers.clock_mhz")
                         .evaluate(s), 1.0)

    def test_dotted_parameters_resolve_whole(self):
        s = scope({"npu.mac_array.rows": 16, "npu.mac_array.columns": 32})
        self.assertTrue(expr("npu.mac_array.rows * npu.mac_array.columns <= 512").evaluate(s))
        self.assertEqual(expr("npu.mac_array.rows if npu.mac_array.rows > 8 else 0")
                         .evaluate(s), 16)

    def test_missing_fields_are_errors(self):
        s = scope({"npu_layers": LAYERS})
        with self.assertRaisesRegex(EvalError, "no field 'cycles'"):
            expr("npu_layers.layers.cycles").evaluate(s)
        with self.assertRaisesRegex(EvalError, "no element named 'pool'"):
            expr('npu_layers.layers["pool"]').evaluate(s)
        with self.assertRaisesRegex(EvalError, "unknown name 'ddr.total'"):
            expr("ddr.total").evaluate(s)

    def test_unsafe_syntax_is_refused_when_read(self):
        for text in ("__import__('os')", "(lambda: 1)()", "[x for x in y]", "a.b()"):
            with self.assertRaises(SweepError):
                expr(text)


class CostTest(unittest.TestCase):
    def reports(self, ddr):
        # summary.json's configuration as socsim read it: the preset merged in
        soc_yaml = ("npu:\n  preset: npu.yaml\n  cores: 2\n  mac_array: {rows: 16, columns: 8}"
                    "\n  buffer_per_core: 32KiB\n")
        return {"summary": {"config": {"file": "soc.yaml", "yaml": soc_yaml}},
                "npu_layers": LAYERS, "ddr": ddr}

    def test_against_a_hand_computation(self):
        model = cost.CostModel()
        ddr = {"ddr": {"total": {"bytes_read": 1000, "bytes_written": 24}}}
        got = model.evaluate(self.reports(ddr))
        # 2 cores x 16 x 8 MACs of 419 um^2; 32 KiB of 1.215 um^2 bits per core.
        self.assertAlmostEqual(got["cost.mac_area_mm2"], 2 * 16 * 8 * 419e-6)
        self.assertAlmostEqual(got["cost.sram_area_mm2"], 2 * 32768 * 8 * 1.215e-6)
        # 1000 int8 MACs x 0.3 pJ + 10 int16 MACs x 0.9 pJ
        self.assertAlmostEqual(got["cost.mac_energy_uj"], (300 + 9) * 1e-6)
        # 32 KiB: 20 pJ per 64 bits (Horowitz's 32 KB point): 2.5 pJ/byte, twice per byte
        self.assertAlmostEqual(got["cost.sram_energy_uj"], 2 * 500 * 2.5e-6)
        self.assertAlmostEqual(got["cost.ddr_energy_uj"], 1024 * 8 * 1300 / 64 * 1e-6)
        self.assertEqual(got["cost.ddr_energy_source"], "cost model")
        self.assertAlmostEqual(got["cost.energy_uj"], got["cost.mac_energy_uj"] +
                               got["cost.sram_energy_uj"] + got["cost.ddr_energy_uj"])

    def test_sram_energy_interpolates_on_log_size(self):
        model = cost.CostModel()
        self.assertAlmostEqual(model.sram_pj_per_byte(4 << 10), 10 / 8)
        self.assertAlmostEqual(model.sram_pj_per_byte(16 << 10), 15 / 8)  # half-way in log
        self.assertAlmostEqual(model.sram_pj_per_byte(1 << 20), 100 / 8)
        self.assertAlmostEqual(model.sram_pj_per_byte(8 << 20), 100 / 8)

    def test_ddr_energy_per_device(self):
        node = load_text("ddr_pj_per_bit: {default: 10, LPDDR4X-4266 4x16: 4}\n", "c.yaml")
        model = cost.CostModel.from_node(node)
        ddr = {"a": {"device": "LPDDR4X-4266 4x16", "total": {"bytes_read": 1000}},
               "b": {"device": "DDR4-3200", "total": {"bytes_written": 1000}}}
        uj, source = model.ddr_energy_uj(ddr)
        self.assertAlmostEqual(uj, (1000 * 8 * 4 + 1000 * 8 * 10) * 1e-6)
        self.assertEqual(source, "cost model")
        with self.assertRaisesRegex(SweepError, r"c\.yaml:1: .*must be greater than 0"):
            cost.CostModel.from_node(load_text("ddr_pj_per_bit: -1\n", "c.yaml"))

    def test_the_ddr_models_energy_wins(self):
        ddr = {"ddr": {"total": {"bytes_read": 10 ** 9, "bytes_written": 0},
                       "energy": {"total_nj": 2500.0}}}
        got = cost.CostModel().evaluate(self.reports(ddr))
        self.assertAlmostEqual(got["cost.ddr_energy_uj"], 2.5)
        self.assertEqual(got["cost.ddr_energy_source"], "ddr model")

    def test_no_npu_no_npu_costs(self):
        got = cost.CostModel().evaluate({"summary": {"config": {"yaml": "cpu: {}\n"}}})
        self.assertNotIn("cost.npu_area_mm2", got)


def row(idx, params, metrics, sweep="s"):
    return {"sweep": sweep, "idx": idx, "status": "ok", "params": params, "metrics": metrics}


class MetricProblemsTest(unittest.TestCase):
    def test_errors_of_ok_points_are_listed_by_metric(self):
        import io
        rows = [{"idx": 0, "status": "ok", "metric_errors": {"x": "no field 'cycels'"}},
                {"idx": 1, "status": "ok", "metric_errors": {}},
                {"idx": 2, "status": "ok", "metric_errors": {"x": "no field 'cycels'",
                                                            "y": "the run wrote no ddr.json"}},
                {"idx": 3, "status": "failed", "metric_errors": {"x": "ignored"}}]
        problems = report.metric_problems(rows)
        self.assertEqual(problems, {"x": ([0, 2], "no field 'cycels'"),
                                    "y": ([2], "the run wrote no ddr.json")})
        out = io.StringIO()
        report.print_metric_problems(problems, out)
        self.assertEqual(out.getvalue().splitlines(), [
            "metric errors (2 metric(s) without a value):",
            "  x: 2 point(s) [0,2]: no field 'cycels'",
            "  y: 1 point(s) [2]: the run wrote no ddr.json"])
        self.assertEqual(report.metric_problems(rows[1:2]), {})


class MixedEnergySourcesTest(unittest.TestCase):
    """Points whose DDR energy comes from the DDR model and from the cost model's estimate
    (HBM2 has no energy model) are labelled: a warning line and the plots' titles."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def rows(self, sources):
        return [row(i, {"preset": i}, {"cost.energy_uj": 900.0 + i, "cost.ddr_energy_source": s,
                                       "time_ms": 1.0 + i})
                for i, s in enumerate(sources)]

    def test_one_source_is_not_mixed(self):
        self.assertIsNone(report.mixed_energy_note(self.rows(["ddr model"] * 3)))
        self.assertIsNone(report.mixed_energy_note([row(0, {}, {"time_ms": 1.0})]))
        out = io.StringIO()
        report.print_energy_note(self.rows(["cost model"] * 2), out)
        self.assertEqual(out.getvalue(), "")

    def test_mixed_sources_are_named_with_their_points(self):
        rows = self.rows(["ddr model", "ddr model", "cost model"])
        self.assertEqual(report.energy_sources(rows), {"ddr model": [0, 1], "cost model": [2]})
        out = io.StringIO()
        report.print_energy_note(rows, out)
        self.assertEqual(out.getvalue(),
                         "warning: mixed energy sources: the DDR energy is the cost model's on "
                         "1 point(s) [2], the ddr model's on 2 point(s) [0,1]; "
                         "cost.ddr_energy_uj and cost.energy_uj do not compare across them "
                         "(docs/sweeps.md, Cost model)\n")

    def test_an_energy_plot_of_mixed_sources_says_so(self):
        from socsim_sweep import spec
        rows = self.rows(["ddr model", "cost model"])
        for fields, mixed in (({"x": "time_ms", "y": "cost.energy_uj"}, True),
                              ({"x": "preset", "y": "time_ms"}, False)):
            plot = spec.PlotSpec("pareto", dict(fields), None)
            path, description = plots.draw(plot, rows, self.tmp.name)
            self.assertTrue(os.path.isfile(path))
            self.assertEqual("mixed DDR energy sources" in description["title"], mixed)


class ParetoAndPlotTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        # area, latency: (1, 10) (2, 5) (3, 6) (4, 1) (2, 8) -> front 0, 1, 3
        self.rows = [row(i, {"rows": r, "cores": c}, {"area": a, "latency": t})
                     for i, (r, c, a, t) in enumerate([(8, 1, 1, 10), (16, 1, 2, 5),
                                                       (8, 2, 3, 6), (16, 2, 4, 1),
                                                       (32, 1, 2, 8)])]

    def test_front(self):
        front, _ = report.pareto_front(self.rows, "area", "latency")
        self.assertEqual([r["idx"] for r in front], [0, 1, 3])
        front, _ = report.pareto_front(self.rows, "area", "latency", (False, False))
        self.assertEqual([r["idx"] for r in front], [0, 4, 2, 3])

    def test_pareto_plot_greys_the_dominated(self):
        path = os.path.join(self.tmp.name, "p.png")
        d = plots.pareto_plot(self.rows, "area", "latency", path=path)
        self.assertEqual((d["front"], d["dominated"]), (3, 2))
        self.assertEqual(d["front_points"], [0, 1, 3])
        with open(path, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        with open(path + ".json") as f:
            self.assertEqual(json.load(f), d)

    def test_line_plot_one_series_per_other_parameter_value(self):
        d = plots.line_plot(self.rows, "rows", "latency", series="cores",
                            path=os.path.join(self.tmp.name, "l.png"))
        self.assertEqual(d["series"], {"cores=1": 3, "cores=2": 2})
        self.assertEqual(d["points"], 5)

    def test_heatmap_cells(self):
        d = plots.heatmap(self.rows, "rows", "cores", "latency",
                          path=os.path.join(self.tmp.name, "h.png"))
        self.assertEqual(d["shape"], [2, 3])   # cores x rows
        self.assertEqual(d["cells"], 5)


if __name__ == "__main__":
    unittest.main()
