"""Area and energy estimates per configuration (docs/sweeps.md, "Cost model").

Area: the NPU's MAC arrays and on-chip buffers (their shape from the run's configuration),
  cores x (rows x columns x mac_area + buffer_bits x sram_bit_area).
Energy of a run: the NPU's MACs, its buffer traffic and the DDR traffic,
  sum over NPU layers of macs x mac_energy(data type)
  + sum over NPU layers of 2 x (read_bytes + write_bytes) x sram_energy_per_byte(buffer)
  + DDR energy: the DDR model's figure from ddr.json when it reports one, else
    (bytes read + written) x 8 x ddr_pj_per_bit (of the DDR device, or the default).
Every byte the NPU's DMA moves is counted once into the buffer and once out of it (a lower
bound: reuse inside the array is part of the MAC figure).

Default figures, all at 45 nm (see docs/sweeps.md for the sources):
  MAC energy  int8 0.3 pJ (8-bit multiply 0.2 + 32-bit add 0.1), fp16 1.5 pJ (1.1 + 0.4),
              int16 0.9 pJ (16-bit multiply scaled as width^2 from the 8-bit one, 0.8, + 0.1);
              M. Horowitz, "Computing's energy problem", ISSCC 2014 (45 nm, 0.9 V).
  MAC area    419 um^2 (8-bit multiplier 282 + 32-bit adder 137; same source).
  SRAM energy 10 / 20 / 100 pJ per 64-bit access of an 8 KiB / 32 KiB / 1 MiB array (same
              source), interpolated on log(size) and held at the ends.
  SRAM area   1.215 um^2 per bit: 600 lambda^2 at lambda = 45 nm, the CACTI-derived rule of
              thumb of D. J. Greaves' System-on-Chip course (Cambridge), above the 0.346 um^2
              bare 6T cell of Intel's 45 nm process (Mistry et al., IEDM 2007) by the periphery.
  DDR energy  20.3 pJ per bit: 1.3 nJ per 64-bit DRAM access, the low end of Horowitz's
              1.3-2.6 nJ; used only when the DDR model reports no energy.
"""

import math

from socsim_sweep.source import load_yaml_text, parse_size

COST_METRICS = (
    "cost.npu_area_mm2", "cost.mac_area_mm2", "cost.sram_area_mm2",
    "cost.mac_energy_uj", "cost.sram_energy_uj", "cost.ddr_energy_uj", "cost.energy_uj",
    "cost.ddr_energy_source",
)


class CostModel:
    """The figures of the cost model; `from_node` reads a sweep file's `cost:` overrides."""

    def __init__(self):
        self.node = "45 nm"
        self.mac_pj = {"INT8": 0.3, "INT16": 0.9, "FP16": 1.5}
        self.mac_area_um2 = 282.0 + 137.0
        self.sram_bit_area_um2 = 600 * 0.045 ** 2
        self.sram_pj_per_64b = [(8 << 10, 10.0), (32 << 10, 20.0), (1 << 20, 100.0)]
        self.ddr_pj_per_bit = 1300.0 / 64
        self.ddr_pj_per_bit_by_device = {}  # DDR device name (ddr.json `device`) -> pJ/bit

    @classmethod
    def from_node(cls, node):
        model = cls()
        m = node.as_map()
        if (n := m.get("node")) is not None:
            model.node = n.as_str()
        if (n := m.get("mac_pj")) is not None:
            for dtype, v in n.as_map().entries():
                if dtype.upper() not in model.mac_pj:
                    v.fail(f"unknown data type '{dtype}' (int8, int16, fp16)")
                model.mac_pj[dtype.upper()] = _positive(v)
        if (n := m.get("mac_area_um2")) is not None:
            model.mac_area_um2 = _positive(n)
        if (n := m.get("sram_bit_area_um2")) is not None:
            model.sram_bit_area_um2 = _positive(n)
        if (n := m.get("sram_pj_per_64b")) is not None:
            table = []
            for size_text, v in n.as_map().entries():
                size = parse_size(size_text)
                if not size:
                    v.fail(f"'{size_text}' is not a size (e.g. 32KiB)")
                table.append((size, _positive(v)))
            model.sram_pj_per_64b = sorted(table)
        if (n := m.get("ddr_pj_per_bit")) is not None:
            if n.is_map():
                for device, v in n.as_map().entries():
                    if device == "default":
                        model.ddr_pj_per_bit = _positive(v)
                    else:
                        model.ddr_pj_per_bit_by_device[device] = _positive(v)
            else:
                model.ddr_pj_per_bit = _positive(n)
        m.done()
        return model

    def describe(self):
        return {
            "node": self.node,
            "mac_pj": self.mac_pj,
            "mac_area_um2": self.mac_area_um2,
            "sram_bit_area_um2": self.sram_bit_area_um2,
            "sram_pj_per_64b": {str(s): e for s, e in self.sram_pj_per_64b},
            "ddr_pj_per_bit": self.ddr_pj_per_bit,
            "ddr_pj_per_bit_by_device": self.ddr_pj_per_bit_by_device,
        }

    def sram_pj_per_byte(self, size_bytes):
        """Access energy per byte of an SRAM of `size_bytes`, interpolated on log(size)."""
        table = self.sram_pj_per_64b
        if size_bytes <= table[0][0]:
            return table[0][1] / 8
        for (s0, e0), (s1, e1) in zip(table, table[1:]):
            if size_bytes <= s1:
                t = math.log(size_bytes / s0) / math.log(s1 / s0)
                return (e0 + t * (e1 - e0)) / 8
        return table[-1][1] / 8

    def evaluate(self, reports):
        """The cost metrics of one run from its reports (a dict of parsed report files)."""
        layers = (reports.get("npu_layers") or {}).get("layers", [])
        out = self.npu_costs(npu_geometry(reports), layers)
        ddr_uj, ddr_source = self.ddr_energy_uj(reports.get("ddr"))
        if ddr_uj is not None:
            out["cost.ddr_energy_uj"] = ddr_uj
            out["cost.ddr_energy_source"] = ddr_source
        parts = [out.get(k) for k in ("cost.mac_energy_uj", "cost.sram_energy_uj",
                                      "cost.ddr_energy_uj")]
        if any(p is not None for p in parts):
            out["cost.energy_uj"] = sum(p for p in parts if p is not None)
        return out

    def npu_costs(self, geometry, layers):
        """The NPU's area and MAC and buffer energy: `geometry` is (cores, rows, columns,
        buffer bytes per core) or None, `layers` the NPU layers (macs, read_bytes,
        write_bytes, data_type) of a run or of an estimate."""
        out = {}
        if geometry is not None:
            cores, rows, columns, buffer_bytes = geometry
            mac_area = cores * rows * columns * self.mac_area_um2 * 1e-6
            sram_area = cores * buffer_bytes * 8 * self.sram_bit_area_um2 * 1e-6
            out["cost.mac_area_mm2"] = mac_area
            out["cost.sram_area_mm2"] = sram_area
            out["cost.npu_area_mm2"] = mac_area + sram_area
            mac_pj = 0.0
            for layer in layers:
                dtype = str(layer.get("data_type", "INT8")).upper()
                mac_pj += layer.get("macs", 0) * self.mac_pj.get(dtype, self.mac_pj["INT8"])
            traffic = sum(layer.get("read_bytes", 0) + layer.get("write_bytes", 0)
                          for layer in layers)
            sram_pj = 2 * traffic * self.sram_pj_per_byte(buffer_bytes)
            out["cost.mac_energy_uj"] = mac_pj * 1e-6
            out["cost.sram_energy_uj"] = sram_pj * 1e-6
        return out

    def ddr_energy_uj(self, ddr):
        """(energy in uJ, 'ddr model' | 'cost model') over every DDR region, or (None, None)."""
        if not ddr:
            return None, None
        total, sources = 0.0, set()
        for region in ddr.values():
            if not isinstance(region, dict):
                continue
            reported = reported_energy_uj(region)
            if reported is not None:
                total += reported
                sources.add("ddr model")
                continue
            t = region.get("total", {})
            moved = t.get("bytes_read", 0) + t.get("bytes_written", 0)
            pj_per_bit = self.ddr_pj_per_bit_by_device.get(region.get("device"),
                                                            self.ddr_pj_per_bit)
            total += moved * 8 * pj_per_bit * 1e-6
            sources.add("cost model")
        if not sources:
            return None, None
        return total, " + ".join(sorted(sources))


_ENERGY_UNITS = {"pj": 1e-6, "nj": 1e-3, "uj": 1.0, "mj": 1e3, "j": 1e6}


def reported_energy_uj(region):
    """The DDR model's own energy for a region of ddr.json, in uJ, when it reports one: an
    `energy` map with a `total_<unit>` field (pj, nj, uj, mj, j), or `energy_<unit>`."""
    energy = region.get("energy")
    candidates = []
    if isinstance(energy, dict):
        candidates = [(k[len("total_"):], v) for k, v in energy.items()
                      if k.startswith("total_")]
    candidates += [(k[len("energy_"):], v) for k, v in region.items()
                   if k.startswith("energy_")]
    for unit, value in candidates:
        if unit.lower() in _ENERGY_UNITS and isinstance(value, (int, float)):
            return value * _ENERGY_UNITS[unit.lower()]
    return None


def npu_geometry(reports):
    """(cores, rows, columns, buffer bytes per core) of the run's NPU, or None without one,
    from the SoC description as run (summary.json holds it as socsim read it: presets
    merged, --set applied, defaults filled)."""
    config = (reports.get("summary") or {}).get("config") or {}
    soc = load_yaml_text(config.get("yaml") or "", "summary.json's config") or {}
    npu = soc.get("npu") if isinstance(soc, dict) else None
    if not isinstance(npu, dict):
        return None
    array = npu.get("mac_array") or {}
    cores, rows, columns = npu.get("cores"), array.get("rows"), array.get("columns")
    buffer_bytes = parse_size(npu.get("buffer_per_core"))
    if not all(isinstance(v, int) for v in (cores, rows, columns)) or buffer_bytes is None:
        return None
    return cores, rows, columns, buffer_bytes


def _positive(node):
    v = node.as_number()
    if v <= 0:
        node.fail("must be greater than 0")
    return float(v)
