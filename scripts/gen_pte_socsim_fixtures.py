#!/usr/bin/env python3
"""Writes the ExecuTorch programs delegated to socsim's backends (tests/runtime/pte_socsim/).

  build/executorch-npu-venv/bin/python scripts/gen_pte_socsim_fixtures.py tests/runtime/pte_socsim
  ... --check DIR   export again and compare every file byte for byte (exit 1 on a difference)

Programs (scripts/socsim_executorch, docs/executorch-npu.md):
  convnet_npu       the zoo's convnet (1x3x16x16), PT2E int8 with socsim's quantizer, every
                    operator delegated to the NPU backend: quantize (CPU), one DelegateCall,
                    dequantize (CPU)
  add8_cpu_packed   the seed's add8 (1024 int8 elements), its add delegated to cpu-packed

The reference outputs do not come from ExecuTorch's portable runtime, which has neither
backend: convnet_npu's input is a grid of the input's quantisation (x = q * scale, so the
CPU's quantize gives q exactly whichever rounding), and its output is that of socsim's
reference executor (socsim_aot/reference.py, bit-exact with the NPU model) on the program
the compiler made of the partition, run by lower_npu.py under Debian's Python;
add8_cpu_packed's is x + y modulo 256.
"""

import argparse
import filecmp
import os
import subprocess
import sys
import tempfile

import numpy as np

SCRIPTS = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, SCRIPTS)


def versions():
    from importlib.metadata import version
    return " ".join(f"{p}=={version(p)}" for p in ("torch", "executorch", "torchao"))


def _input_scale(edge):
    """The scale and zero point of the first quantize of the lowered program's input."""
    from socsim_executorch import partition
    for node in edge.exported_program().graph.nodes:
        if node.op == "call_function" and partition.op_name(node) == partition.Q:
            return float(node.args[1]), int(node.args[2])
    raise SystemExit("gen_pte_socsim_fixtures: no input quantize in convnet_npu")


def convnet_npu(tmp):
    import torch
    from executorch.exir import EdgeCompileConfig, to_edge_transform_and_lower
    import executorch.kernels.quantized  # noqa: F401
    from socsim_aot.torch_models import make_convnet
    from socsim_executorch.backend import SocsimNpuPartitioner
    from socsim_executorch.export import quantize_pt2e
    torch.manual_seed(0)
    model = make_convnet().eval()
    gen = torch.Generator().manual_seed(0)
    calibration = [(torch.randn(1, 3, 16, 16, generator=gen),) for _ in range(8)]
    kept = os.path.join(tmp, "partitions")
    os.makedirs(kept)
    # The folder goes into the program as a compile spec: relative to `tmp`, so that the
    # program's bytes do not depend on the temporary folder's name.
    here = os.getcwd()
    os.chdir(tmp)
    try:
        with torch.no_grad():
            q = quantize_pt2e(model, calibration[0], calibration)
            ep = torch.export.export(q, calibration[0])
            edge = to_edge_transform_and_lower(
                ep, partitioner=[SocsimNpuPartitioner(keep_partitions="partitions")],
                compile_config=EdgeCompileConfig(_check_ir_validity=False))
    finally:
        os.chdir(here)
    scale, zp = _input_scale(edge)
    rng = np.random.default_rng(1)
    x = ((rng.integers(-100, 100, (1, 3, 16, 16)) - zp) * np.float32(scale)).astype(np.float32)
    data = edge.to_executorch().buffer
    return data, [x], reference_outputs(os.path.join(kept, "partition0.npz"), [x], tmp)


def reference_outputs(description, inputs, tmp):
    """socsim's reference executor on the partition's compiled program (lower_npu.py)."""
    ins, outs = os.path.join(tmp, "ref_in.npz"), os.path.join(tmp, "ref_out.npz")
    np.savez(ins, *inputs)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONHOME")}
    env["PYTHONPATH"] = SCRIPTS
    subprocess.run(["/usr/bin/python3", "-m", "socsim_executorch.lower_npu", description,
                    os.path.join(tmp, "blob.bin"), "--reference", ins, outs], env=env,
                   check=True)
    data = np.load(outs)
    return [data[f"arr_{i}"] for i in range(len(data.files))]


def add8_cpu_packed(tmp):
    from socsim_executorch.export import export_program
    import torch
    x = (np.arange(1024) % 128).astype(np.int8)

    class Add(torch.nn.Module):
        def forward(self, a, b):
            return a + b
    data = export_program(Add(), (torch.from_numpy(x), torch.from_numpy(x.copy())),
                          delegate="cpu-packed")
    out = (x.astype(np.int16) * 2).astype(np.uint8).view(np.int8)
    return data, [x, x.copy()], [out]


PROGRAMS = {"convnet_npu": convnet_npu, "add8_cpu_packed": add8_cpu_packed}


def describe(arrays):
    return ";".join(f"{a.dtype}:{'x'.join(str(d) for d in a.shape) or 'scalar'}"
                    for a in arrays)


def operators_of(data):
    """Operator names of the program, then its delegates' backend ids as delegate:ID."""
    from executorch.exir._serialize._program import deserialize_pte_binary
    program = deserialize_pte_binary(data)
    program = getattr(program, "program", program)
    names = []
    for plan in program.execution_plan:
        names += [op.name + ("." + op.overload if op.overload else "") for op in plan.operators]
        names += ["delegate:" + d.id for d in plan.delegates]
    return names


def generate(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    lines = ["# ExecuTorch programs delegated to socsim's backends "
             "(scripts/gen_pte_socsim_fixtures.py)", f"# exporter: {versions()}",
             "# name | bytes | inputs | outputs | operators"]
    for name, make in PROGRAMS.items():
        with tempfile.TemporaryDirectory() as tmp:
            data, inputs, outputs = make(tmp)
        with open(os.path.join(out_dir, name + ".pte"), "wb") as f:
            f.write(data)
        with open(os.path.join(out_dir, name + ".input.bin"), "wb") as f:
            f.write(b"".join(np.ascontiguousarray(a).tobytes() for a in inputs))
        with open(os.path.join(out_dir, name + ".expected.bin"), "wb") as f:
            f.write(b"".join(np.ascontiguousarray(a).tobytes() for a in outputs))
        lines.append(f"{name} | {len(data)} | {describe(inputs)} | {describe(outputs)} | "
                     f"{','.join(operators_of(data))}")
    with open(os.path.join(out_dir, "manifest.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir")
    parser.add_argument("--check", action="store_true",
                        help="export into a temporary folder and compare with OUT_DIR")
    args = parser.parse_args()
    if not args.check:
        generate(args.out_dir)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        generate(tmp)
        differ = [f for f in sorted(os.listdir(tmp))
                  if not filecmp.cmp(os.path.join(tmp, f), os.path.join(args.out_dir, f),
                                     shallow=False)]
    for f in differ:
        print(f"gen_pte_socsim_fixtures: {f} differs from the checked-in file")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
