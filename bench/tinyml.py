#!/usr/bin/python3
"""TinyML models from TensorFlow Lite: MLPerf Tiny's four workload shapes on the simulator.

For each model of tests/runtime/tflite/ (a DS-CNN keyword spotter, MobileNetV1 0.25 at
96x96, ResNet-8 for CIFAR-10 and the dense autoencoder of anomaly detection, int8 from
TensorFlow's converter; scripts/gen_tflite_fixtures.py) the program is compiled twice with
scripts/compile_model.py, for the CPU only and with the NPU delegate (default preset), run
once with executor_runner on the simulator (`socsim run`, the default SoC), and its outputs
compared with TFLite's reference kernels bit for bit. Printed per model (a Markdown table):

  CPU cycles    one inference on the CPU only
  NPU cycles    one inference with the NPU delegate (CPU and NPU time)
  speed-up      CPU cycles / NPU cycles
  NPU share     operators of the program the NPU runs
  start-up      program load + method load cycles (with the NPU delegate)
  arena         planned memory of the activations (bytes, NPU program)
  weights       constant data of the CPU program (weights, biases, multipliers; bytes)
  exact         every output equal to the reference interpreter's (CPU / NPU)
  transposes    the NHWC<->NCHW transposes the front end adds around NCHW kernels: their
                count, and their cycles on the core in the run with the NPU (share of its
                cycles; the probes' `operator transpose` region)

A model whose operators do not all lower yet gets a row naming them. Run after
scripts/build.sh:

  bench/tinyml.py [--models ds_cnn,autoencoder]
"""
import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

from socsim_aot import compiler, tflite_check  # noqa: E402
from socsim_aot import tflite_frontend  # noqa: E402

MODELS = ("ds_cnn", "mobilenet_v1_025", "resnet8", "autoencoder")
FIXTURES = os.path.join(ROOT, "tests", "runtime", "tflite")
HEADER = ("| model | CPU cycles | NPU cycles | speed-up | NPU share | start-up | arena | weights "
          "| exact | transposes |\n|---|---:|---:|---:|---:|---:|---:|---:|---|---:|")


def _weights(program) -> int:
    return sum(t.nbytes for t in program.tensors if t.constant is not None)


def _kernel_calls(program) -> int:
    return sum(1 for i in program.instructions if i.name)


def row(name, socsim, runner) -> str:
    model = tflite_frontend.read_model(os.path.join(FIXTURES, name + ".tflite"))
    ops = len(model.operators)
    try:
        cpu = tflite_check.run_fixture(socsim, runner, FIXTURES, name)
        npu = tflite_check.run_fixture(socsim, runner, FIXTURES, name, npu=True, probes=True)
    except compiler.CompileError as e:
        return f"| {name} ({ops} ops) | not compiled: {e} |" + " |" * 8
    except RuntimeError as e:  # the run failed: tflite_check says why
        return f"| {name} ({ops} ops) | run failed: {e} |" + " |" * 8
    on_cpu = _kernel_calls(npu["program"]) / max(_kernel_calls(cpu["program"]), 1)
    exact = "/".join("yes" if r["differ"] == 0 else f"{r['differ']} differ" for r in (cpu, npu))
    startup = (npu["program_load"] or 0) + (npu["method_load"] or 0)
    return (f"| {name} ({ops} ops) | {cpu['cycles']:,} | {npu['cycles']:,} | "
            f"{cpu['cycles'] / npu['cycles']:.0f}x | {100 * (1 - on_cpu):.0f} % | {startup:,} | "
            f"{npu['program'].buffers[0]:,} | {_weights(cpu['program']):,} | {exact} | "
            f"{_transposes(npu)} |")


def _transposes(run) -> str:
    count = sum(1 for i in run["program"].instructions if i.name == "aten::permute_copy.out")
    cycles = run["transpose_cycles"] or 0
    return f"{count}: {cycles:,} ({100 * cycles / run['cycles']:.1f} %)"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", default=",".join(MODELS),
                        help=f"comma-separated (default {','.join(MODELS)})")
    parser.add_argument("--build", default=os.path.join(ROOT, "build"),
                        help="the build folder (default build/)")
    args = parser.parse_args(argv)
    socsim = os.path.join(args.build, "bin", "socsim")
    runner = os.path.join(args.build, "firmware", "apps", "executor_runner",
                          "executor_runner.elf")
    for path in (socsim, runner):
        if not os.path.exists(path):
            print(f"tinyml: {path} is missing (run scripts/build.sh)", file=sys.stderr)
            return 1
    names = [m for m in args.models.split(",") if m]
    unknown = [m for m in names if m not in MODELS]
    if unknown:
        parser.error(f"unknown model(s): {', '.join(unknown)} (known: {', '.join(MODELS)})")
    print(HEADER)
    for name in names:
        print(row(name, socsim, runner), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
