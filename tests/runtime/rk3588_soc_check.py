#!/usr/bin/python3
"""The calibrated RK3588 rows as a user sees them: each published layer (docs/npu.md,
"Calibration") exported from torch, compiled int8 for the NPU, and run with `socsim run` on
configs/soc/rk3588-like.yaml (one NPU core, the board's LPDDR4X, the DMA through the SoC's
DDR model). Checks, on the SoC run's per-layer record:

  - NPU cycles of every row within 0.5 % of silicon's;
  - DDR cycles of row 1 (the row the DMA rate is calibrated on) within 10 % of silicon's;
  - the DMA's achieved rate (the layer's bytes over its DDR cycles) within 10 % of the
    preset's dma.bytes_per_cycle on every row: the SoC moves what the estimate assumes;
  - the DDR statistics' NPU initiator (ddr.json) read and wrote exactly the DDR bytes of the
    run's NPU layers (npu_layers.json, ddr_read_bytes / ddr_write_bytes, summed over every
    layer, an input layer included): each burst counted once;
  - rows 2 and 3 still more than 40 % below silicon (the known gap of the model, docs/npu.md:
    a change that closes it shows here);
  - the CBUF as banks with one copy of a task's operands (`--set npu.buffer_banks=12 --set
    npu.double_buffer=false`, docs/npu.md "Whole networks"): the 3x3 s2 128 -> 256 row of
    the rknn-toolkit2 #163 log, whose weights the preset's double-buffered byte budget makes
    the tiler re-read (more than 10 % above the log's DDR cycles), moves each tensor once
    and comes within 10 % of them.

Usage: rk3588_soc_check.py --socsim BIN --runner ELF --config SOC.yaml --out-dir DIR
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "scripts"))

# name -> (Cin, Cout, kernel, stride, input H = W, silicon DDR cycles, silicon NPU cycles)
ROWS = {
    "conv3x3_64_64_120": (64, 64, 3, 1, 120, 79_504, 518_400),
    "conv1x1_64_32_160": (64, 32, 1, 1, 160, 277_747, 51_200),
    "conv3x3s2_32_64_320": (32, 64, 3, 2, 320, 416_796, 460_800),
}
DMA_RATE = 24  # configs/npu/rk3588-like.yaml, dma.bytes_per_cycle
# The banks row: (Cin, Cout, kernel, stride, input H = W, the log's DDR cycles) and the sets.
BANKS_ROW = ("conv3x3s2_128_256_80", (128, 256, 3, 2, 80, 64_504))
BANKS_SETS = ["npu.buffer_banks=12", "npu.double_buffer=false"]


def build_layer(name, cin, cout, k, stride, size, out_dir):
    import torch
    from socsim_aot import compiler
    torch.manual_seed(0)

    class Layer(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = torch.nn.Conv2d(cin, cout, k, stride, k // 2)

        def forward(self, x):
            return torch.relu(self.conv(x))

    onnx_path = os.path.join(out_dir, name + ".onnx")
    prog_path = os.path.join(out_dir, name + ".pte")
    with torch.no_grad():
        torch.onnx.export(Layer().eval(), torch.randn(1, cin, size, size), onnx_path,
                          opset_version=13)
    compiler.compile_file(onnx_path, prog_path, quantize="int8", samples=2, delegate="npu",
                          input_type="int8", output_type="int8")
    return prog_path


def run_layer(args, name, prog, sets=()):
    report = os.path.join(args.out_dir, name)
    cmd = [args.socsim, "run", "-q", "-c", args.config, "--firmware", args.runner, "--model",
           prog, "--report", report]
    for s in sets:
        cmd += ["--set", s]
    cmd += ["--", "--inputs-in-place"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: status {done.returncode}\n{done.stderr}")
    with open(os.path.join(report, "npu_layers.json")) as f:
        all_layers = json.load(f)["layers"]
    with open(os.path.join(report, "ddr.json")) as f:
        initiators = {i["name"]: i for i in json.load(f)["ddr"]["initiators"]}
    layers = [l for l in all_layers if l["macs"] > 0]
    return layers[-1], ddr_books(initiators.get("npu"), all_layers)


def ddr_books(npu, layers):
    """The NPU initiator's DDR bytes against its layers' (a failure message, or None)."""
    if npu is None:
        return "ddr.json has no initiator 'npu'"
    read = sum(l["ddr_read_bytes"] for l in layers)
    written = sum(l["ddr_write_bytes"] for l in layers)
    if (npu["bytes_read"], npu["bytes_written"]) != (read, written):
        return (f"DDR statistics of 'npu' read {npu['bytes_read']:,} / wrote "
                f"{npu['bytes_written']:,} B, its {len(layers)} layers {read:,} / {written:,} B")
    return None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--socsim", required=True)
    parser.add_argument("--runner", required=True)
    parser.add_argument("--config", required=True)
    parser.add_argument("--out-dir", required=True)
    args = parser.parse_args(argv)
    os.makedirs(args.out_dir, exist_ok=True)
    failures = []
    print(f"{'row':22} {'DDR soc':>9} {'silicon':>9} {'err':>7} {'NPU soc':>9} {'silicon':>9} "
          f"{'B/cycle':>7}")
    for i, (name, (cin, cout, k, s, size, ddr_si, npu_si)) in enumerate(ROWS.items()):
        layer, books = run_layer(args, name,
                                 build_layer(name, cin, cout, k, s, size, args.out_dir))
        if books:
            failures.append(f"{name}: {books}")
        ddr, npu = layer["ddr_cycles"], layer["npu_cycles"]
        rate = (layer["read_bytes"] + layer["write_bytes"]) / ddr
        ddr_err, npu_err = ddr / ddr_si - 1, npu / npu_si - 1
        print(f"{name:22} {ddr:9,} {ddr_si:9,} {100 * ddr_err:+6.1f}% {npu:9,} {npu_si:9,} "
              f"{rate:7.2f}")
        if abs(npu_err) > 0.005:
            failures.append(f"{name}: NPU cycles {npu:,} vs silicon {npu_si:,}")
        if abs(rate / DMA_RATE - 1) > 0.10:
            failures.append(f"{name}: the DMA moved {rate:.2f} B per cycle, the preset {DMA_RATE}")
        if i == 0 and abs(ddr_err) > 0.10:
            failures.append(f"{name}: DDR cycles {ddr:,} vs silicon {ddr_si:,} (> 10 %)")
        if i > 0 and ddr_err > -0.40:
            failures.append(f"{name}: DDR cycles {ddr:,} within 40 % of silicon {ddr_si:,}: "
                            "the known gap moved, update docs/npu.md and this check")
    name, (cin, cout, k, s, size, ddr_si) = BANKS_ROW
    prog = build_layer(name, cin, cout, k, s, size, args.out_dir)
    plain, _ = run_layer(args, name, prog)
    banks, books = run_layer(args, name + "_banks", prog, BANKS_SETS)
    if books:
        failures.append(f"{name} with the banks: {books}")
    print(f"{name}: DDR cycles {plain['ddr_cycles']:,} ({plain['read_bytes']:,} B read), with "
          f"{' '.join(BANKS_SETS)} {banks['ddr_cycles']:,} ({banks['read_bytes']:,} B read), "
          f"silicon {ddr_si:,}")
    if plain["ddr_cycles"] / ddr_si - 1 <= 0.10:
        failures.append(f"{name}: DDR cycles {plain['ddr_cycles']:,} within 10 % of silicon "
                        f"{ddr_si:,} without the banks: update docs/npu.md and this check")
    if abs(banks["ddr_cycles"] / ddr_si - 1) > 0.10:
        failures.append(f"{name}: DDR cycles {banks['ddr_cycles']:,} with the banks, silicon "
                        f"{ddr_si:,} (> 10 %)")
    if banks["read_bytes"] >= plain["read_bytes"]:
        failures.append(f"{name}: the banks read {banks['read_bytes']:,} B, no fewer than "
                        f"{plain['read_bytes']:,}")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
