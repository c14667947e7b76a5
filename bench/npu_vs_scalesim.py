"""Per-layer compute cycles of socsim's scalesim-compatible NPU preset against SCALE-Sim v3.

Steps: (1) a venv made with `/usr/bin/python3 -m venv --system-site-packages` gets PyPI
scalesim==3.0.0 (with numpy<2 and pandas<3: 3.0.0 fails with numpy 2); (2) MobileNetV2,
ResNet-18 and AlexNet (torchvision, random weights) are exported to ONNX and their Conv
nodes written as SCALE-Sim topology CSVs (ifmap = (Ho - 1) * stride + K, so SCALE-Sim's
ceil((H - K + S) / S) gives the model's output size; depthwise convolutions are "DP"
layers with one filter); (3) SCALE-Sim runs each topology for ws, os and is on a 32 x 32
array with scratchpads large enough never to stall, and (4) bench/npu_layer_cycles runs
the same topology on configs/npu/scalesim-32x32.yaml. SCALE-Sim's "Total Cycles" is the
index of the last cycle, so a layer's count is that + 1 (+ 1 per channel of a DP layer,
which SCALE-Sim runs as one layer per channel; all its channels are identical, so the
bench runs one and multiplies). Prints per-layer cycles, the error, mean and max; with
--write-data DIR it writes DIR/scalesim_v3_<model>.csv, the figures the unit test
ScaleSimCompatible.* checks socsim against.
"""

import argparse
import contextlib
import csv
import io
import os
import subprocess
import sys
import tempfile

MODELS = ("mobilenet_v2", "resnet18", "alexnet")
DATAFLOWS = ("ws", "os", "is")
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

SCALESIM_CONFIG = """[general]
run_name = run
[run_presets]
InterfaceBandwidth = CALC
UseRamulatorTrace = False
[architecture_presets]
ArrayHeight = 32
ArrayWidth = 32
IfmapSramSzkB = 65536
FilterSramSzkB = 65536
OfmapSramSzkB = 65536
IfmapOffset = 0
FilterOffset = 100000000
OfmapOffset = 200000000
Bandwidth = 10
Dataflow = {dataflow}
ReadRequestBuffer = 32
WriteRequestBuffer = 32
[layout]
IfmapCustomLayout = False
FilterCustomLayout = False
IfmapSRAMBankBandwidth = 10
IfmapSRAMBankNum = 10
IfmapSRAMBankPort = 2
FilterSRAMBankBandwidth = 10
FilterSRAMBankNum = 10
FilterSRAMBankPort = 2
[sparsity]
SparsitySupport = false
SparseRep = ellpack_block
OptimizedMapping = false
BlockSize = 8
RandomNumberGeneratorSeed = 40
"""
HEADER = "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, " \
         "Num Filter, Strides,\n"

# Runs inside the venv: SCALE-Sim on a topology, prints one "Total Cycles" per layer.
RUNNER = r"""
import contextlib, io, sys
from scalesim.scale_sim import scalesim
cfg, topo, out = sys.argv[1:4]
with contextlib.redirect_stdout(io.StringIO()):
    s = scalesim(save_disk_space=True, verbose=False, config=cfg, topology=topo, layout=topo)
    s.run_scale(top_path=out)
with open(out + "/run/COMPUTE_REPORT.csv") as f:
    next(f)
    for line in f:
        print(line.split(",")[2].strip())
"""


def make_venv(venv):
    python = os.path.join(venv, "bin", "python")
    if not os.path.exists(python):
        subprocess.run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", venv],
                       check=True)
    probe = subprocess.run([python, "-c", "import scalesim"], capture_output=True)
    if probe.returncode != 0:
        subprocess.run([python, "-m", "pip", "install", "-q", "scalesim==3.0.0", "numpy<2",
                        "pandas<3"], check=True)
    return python


def conv_layers(model, image_size, work):
    """(name, H, W, Kh, Kw, C, M, stride, depthwise) of every Conv node of the ONNX model."""
    import onnx
    import torch
    import torchvision
    from onnx import numpy_helper, shape_inference
    torch.manual_seed(0)
    module = getattr(torchvision.models, model)(weights=None).eval()
    # Every convolution of a torchvision model with a `features` trunk (AlexNet, MobileNetV2)
    # lies in that trunk; exporting it alone keeps AlexNet's adaptive pooling (which ONNX
    # export refuses below 224 x 224) out of the graph.
    module = getattr(module, "features", module)
    path = os.path.join(work, model + ".onnx")
    with torch.no_grad():
        torch.onnx.export(module, torch.zeros(1, 3, image_size, image_size), path,
                          opset_version=13, do_constant_folding=True)
    graph = shape_inference.infer_shapes(onnx.load(path)).graph
    shapes = {v.name: [d.dim_value for d in v.type.tensor_type.shape.dim]
              for v in list(graph.value_info) + list(graph.input) + list(graph.output)}
    weights = {t.name: numpy_helper.to_array(t).shape for t in graph.initializer}
    layers = []
    for node in graph.node:
        if node.op_type != "Conv":
            continue
        attrs = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
        m, cin_g, kh, kw = weights[node.input[1]]
        _, c, _, _ = shapes[node.input[0]]
        _, _, ho, wo = shapes[node.output[0]]
        stride = attrs.get("strides", [1, 1])[0]
        groups = attrs.get("group", 1)
        depthwise = groups > 1 and groups == c == m
        if groups > 1 and not depthwise:
            raise SystemExit(f"{model}: grouped convolution {node.name} is not supported")
        layers.append({"name": f"L{len(layers)}" + ("DP" if depthwise else ""),
                       "h": (ho - 1) * stride + kh, "w": (wo - 1) * stride + kw, "kh": kh,
                       "kw": kw, "c": c, "m": 1 if depthwise else m, "stride": stride})
    return layers


def write_topology(layers, path, one_channel_dp=False):
    with open(path, "w") as f:
        f.write(HEADER)
        for l in layers:
            c = 1 if one_channel_dp and "DP" in l["name"] else l["c"]
            f.write(f"{l['name']},{l['h']},{l['w']},{l['kh']},{l['kw']},{c},{l['m']},"
                    f"{l['stride']},\n")


def scalesim_cycles(python, layers, dataflow, work):
    """SCALE-Sim's cycle count of each layer (index of the last cycle + 1, per channel)."""
    topo = os.path.join(work, f"topo_{dataflow}.csv")
    write_topology(layers, topo, one_channel_dp=True)
    cfg = os.path.join(work, f"{dataflow}.cfg")
    with open(cfg, "w") as f:
        f.write(SCALESIM_CONFIG.format(dataflow=dataflow))
    out = subprocess.run([python, "-c", RUNNER, cfg, topo, os.path.join(work, "out_" + dataflow)],
                         capture_output=True, text=True, check=True).stdout.split()
    counts = []
    for l, last in zip(layers, out):
        channels = l["c"] if "DP" in l["name"] else 1
        counts.append(channels * (int(last) + 1))
    return counts


def socsim_cycles(tool, layers, dataflow, work):
    topo = os.path.join(work, "topo_socsim.csv")
    write_topology(layers, topo)
    preset = os.path.join(ROOT, "configs", "npu", "scalesim-32x32.yaml")
    out = subprocess.run([tool, "--preset", preset, "--dataflow", dataflow, topo],
                         capture_output=True, text=True, check=True).stdout
    return [int(r["npu_cycles"]) for r in csv.DictReader(io.StringIO(out))]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tool", default=os.path.join(ROOT, "build", "bin", "npu_layer_cycles"),
                        help="the npu_layer_cycles binary (default build/bin/)")
    parser.add_argument("--venv", default=os.path.join(ROOT, "build", "scalesim-venv"),
                        help="venv for SCALE-Sim (created if missing)")
    parser.add_argument("--image-size", type=int, default=224, help="input size (default 224)")
    parser.add_argument("--models", default=",".join(MODELS), help="comma-separated models")
    parser.add_argument("--write-data", metavar="DIR",
                        help="write DIR/scalesim_v3_<model>.csv (the unit test's data)")
    args = parser.parse_args(argv)
    python = make_venv(args.venv)
    worst = 0
    for model in args.models.split(","):
        with tempfile.TemporaryDirectory() as work:
            layers = conv_layers(model, args.image_size, work)
            ss = {df: scalesim_cycles(python, layers, df, work) for df in DATAFLOWS}
            mine = {df: socsim_cycles(args.tool, layers, df, work) for df in DATAFLOWS}
        print(f"\n{model} {args.image_size}x{args.image_size}, 32x32 array "
              f"(SCALE-Sim v3 / socsim scalesim-32x32 cycles)")
        print(f"{'layer':8} {'HxW':>9} {'K':>3} {'C':>5} {'M':>5} {'S':>2}" +
              "".join(f" {df + ' SCALE-Sim':>14} {df + ' socsim':>11} {'err':>5}"
                      for df in DATAFLOWS))
        errors = {df: [] for df in DATAFLOWS}
        for i, l in enumerate(layers):
            row = f"{l['name']:8} {l['h']:>4}x{l['w']:<4} {l['kh']:>3} {l['c']:>5} {l['m']:>5} " \
                  f"{l['stride']:>2}"
            for df in DATAFLOWS:
                err = mine[df][i] - ss[df][i]
                errors[df].append(abs(err))
                row += f" {ss[df][i]:>14} {mine[df][i]:>11} {err:>5}"
            print(row)
        for df in DATAFLOWS:
            e = errors[df]
            print(f"{df}: {len(e)} layers, mean |difference| {sum(e) / len(e):.2f} cycles, "
                  f"max {max(e)}; total SCALE-Sim {sum(ss[df])}, socsim {sum(mine[df])}")
            worst = max(worst, max(e))
        if args.write_data:
            os.makedirs(args.write_data, exist_ok=True)
            path = os.path.join(args.write_data, f"scalesim_v3_{model}.csv")
            with open(path, "w", newline="") as f:
                w = csv.writer(f)
                w.writerow(["name", "ifmap_h", "ifmap_w", "kh", "kw", "channels", "filters",
                            "stride", "ws_cycles", "os_cycles", "is_cycles"])
                for i, l in enumerate(layers):
                    w.writerow([l["name"], l["h"], l["w"], l["kh"], l["kw"], l["c"], l["m"],
                                l["stride"]] + [ss[df][i] for df in DATAFLOWS])
            print(f"wrote {path}")
    return 0 if worst == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
