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


class PlotsForAPaperTest(unittest.TestCase):
    """Log axes for powers of two, units in words, Pareto labels that overlap nothing, a heat
    map of close values on a relative scale with plain numbers: read back from the figures'
    descriptions."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.rows = []
        for r in (16, 32, 64):
            for c in (16, 32, 64):
                for ddr in ("../ddr/lpddr4x-4266.yaml", "../ddr/ddr4-3200.yaml"):
                    macs = r * c
                    self.rows.append(row(len(self.rows), {
                        "npu.mac_array.rows": r, "npu.mac_array.columns": c,
                        "memory_map.ddr.preset": ddr}, {
                        "npu_time_us": 300 + 2.0e5 / macs, "cost.npu_area_mm2": 0.9 + 4.5e-4 * macs,
                        "execute_cycles": 489000 + 4000 * (c == 64) - 1500 * (r == 32)}))

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def test_axis_labels_name_units_in_words(self):
        self.assertEqual(plots.axis_label("cost.npu_area_mm2"), "NPU area (mm²)")
        self.assertEqual(plots.axis_label("npu_time_us"), "NPU time (µs)")
        self.assertEqual(plots.axis_label("npu.mac_array.rows"), "MAC array rows")
        self.assertEqual(plots.axis_label("ddr_gbps"), "DDR (GB/s)")
        self.assertEqual(plots.axis_label("npu_mac_usage_percent"), "NPU MAC usage (%)")
        self.assertEqual(plots.axis_label("execute_cycles"), "execute (cycles)")
        self.assertEqual(plots.axis_label("npu_macs"), "NPU MACs")
        self.assertEqual(plots.plain(489512.3), "489,512")
        self.assertEqual(plots.plain(0.00123), "0.00123")
        self.assertEqual(plots.plain(12.5), "12.5")
        self.assertEqual(plots.tick(200000000), "200 M")
        self.assertEqual(plots.tick(2.5e9), "2.5 G")
        self.assertEqual(plots.tick(1500), "1,500")

    def test_powers_of_two_on_a_log_axis(self):
        d = plots.line_plot(self.rows, "npu.mac_array.columns", "npu_time_us",
                            "npu.mac_array.rows", self.path("l.png"))
        self.assertEqual(d["axes"]["x_scale"], "log")
        self.assertEqual(d["axes"]["x_label"], "MAC array columns")
        self.assertEqual(d["axes"]["y_label"], "NPU time (µs)")
        self.assertEqual(d["points"], 18)
        # not powers of two, or only two of them: linear
        rows = [row(i, {"n": n}, {"t": float(n)}) for i, n in enumerate((3, 6, 12))]
        d = plots.line_plot(rows, "n", "t", path=self.path("l2.png"))
        self.assertEqual(d["axes"]["x_scale"], "linear")
        rows = [row(i, {"n": n}, {"t": float(n)}) for i, n in enumerate((16, 32))]
        self.assertEqual(plots.line_plot(rows, "n", "t", path=self.path("l3.png"))
                         ["axes"]["x_scale"], "linear")

    def test_metric_axes_show_plain_numbers(self):
        # A metric of hundreds of millions on x (the prefill sweep's MACs): no offset text
        # ("1e8") and no exponent in any tick label, on the line and the Pareto plot.
        rows = [row(i, {"k": k}, {"macs": m, "t": t}) for i, (k, m, t) in
                enumerate(((1, 51904512, 404.0), (2, 210763776, 1166.0),
                           (3, 437256192, 2226.0)))]
        for d in (plots.line_plot(rows, "macs", "t", path=self.path("m.png")),
                  plots.pareto_plot(rows, "macs", "t", path=self.path("mp.png"))):
            axes = d["axes"]
            self.assertEqual((axes["x_offset"], axes["y_offset"]), ("", ""))
            self.assertTrue(axes["x_ticks"])
            for tick in axes["x_ticks"] + axes["y_ticks"]:
                self.assertNotRegex(tick, "[eE^]", tick)
            self.assertIn("200 M", axes["x_ticks"])
        # over a factor of 100: a log axis, still plain numbers
        rows = [row(i, {"k": i}, {"b": b, "t": float(i + 1)}) for i, b in
                enumerate((1e3, 2e4, 5e5))]
        axes = plots.line_plot(rows, "b", "t", path=self.path("w.png"))["axes"]
        self.assertEqual(axes["x_scale"], "log")
        self.assertIn("10,000", axes["x_ticks"])
        self.assertTrue(all("e" not in t for t in axes["x_ticks"]), axes["x_ticks"])

    def test_pareto_labels_overlap_nothing(self):
        # A crowded front: 200 points close together, each labelled.
        rows = [row(i, {"k": i}, {"a": 1 + 0.01 * i, "t": 100 - 0.01 * i}) for i in range(200)]
        d = plots.pareto_plot(rows, "a", "t", label="k", path=self.path("p.png"))
        self.assertEqual(d["front"], 200)
        self.assertEqual(d["labels_overlapping"], 0)
        self.assertEqual(d["labels"] + d["labels_left_off"], 200)
        self.assertGreater(d["labels_left_off"], 0)  # they cannot all fit
        # coincident points share one label
        d = plots.pareto_plot(self.rows, "cost.npu_area_mm2", "npu_time_us",
                              label="npu.mac_array.rows", path=self.path("p2.png"))
        self.assertEqual(d["labels_overlapping"], 0)
        self.assertLess(d["labels"] + d["labels_left_off"], d["front"])

    def test_heatmap_of_close_values(self):
        d = plots.heatmap(self.rows, "npu.mac_array.rows", "npu.mac_array.columns",
                          "execute_cycles", self.path("h.png"))
        self.assertEqual(d["cells"], 9)
        self.assertIn("489,000", d["cell_texts"])
        self.assertTrue(all("e+" not in t for t in d["cell_texts"]))
        self.assertLess(d["spread_percent"], 5)
        self.assertEqual(d["colour_scale"], "% above the lowest, 487,500")
        self.assertIn("all values within", d["title"])
        # values far apart: the metric itself
        d = plots.heatmap(self.rows, "npu.mac_array.rows", "npu.mac_array.columns",
                          "npu_time_us", self.path("h2.png"))
        self.assertEqual(d["colour_scale"], "NPU time (µs)")


if __name__ == "__main__":
    unittest.main()
