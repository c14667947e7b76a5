#!/usr/bin/python3
"""Simulation speed of big models on the NPU:

  (1) the NPU's functional model per layer type: <build>/bin/npu_functional_bench, GMAC/s of
      the model's fast kernels against the reference loops the firmware runs, on the layer
      shapes of ResNet-50 and MobileNetV2 at 224x224;
  (2) end to end: `socsim run --cpu iss` of ResNet-50 and MobileNetV2 at 224x224 with every
      NPU-capable layer delegated (the zoo's NAME_int8_npu programs with float input, or with
      --io uint8 its NAME_uint8_npu programs that read a uint8 image, random weights), wall
      and CPU time of the whole run, and the simulated cycles of one execution by call: the
      CPU operators (the input quantise, ...) and the NPU delegate calls.

Each end-to-end run is repeated N times and the median printed; with --baseline SOCSIM a
second simulator binary (e.g. one built from an older commit) runs the same programs,
interleaved, for a side-by-side ratio (with --baseline-layers its npu_functional_bench prints
table (1) as well). The machine may be shared: CPU time is the steadier
figure. The models are exported and compiled once into --zoo-dir (a few minutes for
ResNet-50). Run after scripts/build.sh.
"""
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cpu_speed import bench_parser, timed  # noqa: E402  (a sibling script of bench/)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = ("resnet50", "mobilenet_v2")
IMAGE_SIZE = 224


# --io: (program suffix, input file suffix)
PROGRAMS = {"float": ("_int8_npu.pte", ".input.bin"),
            "uint8": ("_uint8_npu.pte", ".input_u8.bin")}


def ensure_models(zoo_dir, models, python, io):
    """Exports and compiles the models that are not yet in zoo_dir."""
    missing = [m for m in models
               if not os.path.exists(os.path.join(zoo_dir, m + PROGRAMS[io][0]))]
    if not missing:
        return
    print(f"npu_speed: compiling {', '.join(missing)} at {IMAGE_SIZE}x{IMAGE_SIZE} "
          f"into {zoo_dir}", flush=True)
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "scripts"))
    done = subprocess.run([python, "-m", "socsim_aot.zoo", "-o", zoo_dir, "--models",
                           ",".join(missing), "--image-size", str(IMAGE_SIZE)], env=env)
    if done.returncode != 0:
        sys.exit(f"npu_speed: compiling the models failed ({done.returncode})")
    for m in missing:
        if not os.path.exists(os.path.join(zoo_dir, m + PROGRAMS[io][0])):
            sys.exit(f"npu_speed: the zoo made no {m}{PROGRAMS[io][0]} (--io {io} needs a "
                     f"compiler with integer model inputs)")


PROFILE_LINE = re.compile(r"^\s+(op|delegate) \d+ (\S+): \d+ elements, (\d+) cycles", re.M)


def cpu_operator_cycles(binary, cmd_tail):
    """{operator: CPU cycles} of one profiled execution (executor_runner --profile): the
    operators that run on the CPU, and the delegate calls under their backend's name."""
    done = subprocess.run([binary] + cmd_tail + ["-q", "--", "--profile"], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        sys.exit(f"npu_speed: the profiled run failed ({done.returncode}): {done.stderr}")
    cycles = {}
    for kind, name, count in PROFILE_LINE.findall(done.stdout):
        key = name if kind == "op" else f"delegate {name}"
        cycles[key] = cycles.get(key, 0) + int(count)
    return cycles


def main():
    parser = bench_parser(__doc__)
    parser.add_argument("--zoo-dir", help="where the compiled models are kept "
                                          "(default <build>/bench/zoo224)")
    parser.add_argument("--models", default=",".join(MODELS),
                        help="comma-separated, of resnet50, mobilenet_v2 (default both)")
    parser.add_argument("--io", choices=sorted(PROGRAMS), default="float",
                        help="float: the programs with float input and output (default); "
                             "uint8: those reading a uint8 image")
    parser.add_argument("--baseline", help="a second socsim binary to run side by side")
    parser.add_argument("--baseline-layers",
                        help="a second npu_functional_bench binary (e.g. of the same older "
                             "commit) whose table (1) follows this build's")
    parser.add_argument("--skip-layers", action="store_true",
                        help="leave out (1), the per-layer functional bench")
    parser.add_argument("--python", default="/usr/bin/python3",
                        help="Python with torch, for compiling the models")
    args = parser.parse_args()
    models = [m for m in args.models.split(",") if m]
    unknown = [m for m in models if m not in MODELS]
    if unknown or args.runs < 1:
        parser.error(f"unknown model(s) {', '.join(unknown)}" if unknown else "--runs >= 1")
    socsim = os.path.join(args.build, "bin", "socsim")
    layer_bench = os.path.join(args.build, "bin", "npu_functional_bench")
    runner = os.path.join(args.build, "firmware", "apps", "executor_runner",
                          "executor_runner.elf")
    extra = tuple(p for p in (args.baseline, args.baseline_layers) if p)
    for path in (socsim, layer_bench, runner) + extra:
        if not os.path.exists(path):
            sys.exit(f"npu_speed: {path} is missing: run scripts/build.sh first")
    zoo_dir = args.zoo_dir or os.path.join(args.build, "bench", "zoo224")
    os.makedirs(zoo_dir, exist_ok=True)

    if not args.skip_layers:
        print("== (1) the NPU functional model per layer type", flush=True)
        for name, binary in [("this build", layer_bench)] + (
                [("baseline", args.baseline_layers)] if args.baseline_layers else []):
            print(f"-- {name}: {binary}", flush=True)
            done = subprocess.run([binary, "--runs", str(max(args.runs, 3))])
            if done.returncode != 0:
                sys.exit(f"npu_speed: {binary} failed ({done.returncode})")

    ensure_models(zoo_dir, models, args.python, args.io)
    binaries = {"socsim": socsim}
    if args.baseline:
        binaries["baseline"] = args.baseline
    print(f"\n== (2) end to end, socsim run --cpu iss, {args.io} input, medians of {args.runs} "
          "runs", flush=True)
    print(f"{'model':<14} {'binary':<9} {'wall s':>8} {'cpu s':>8} {'cycles':>12}")
    for model in models:
        program, data = PROGRAMS[args.io]
        cmd_tail = ["run", "--cpu", "iss", "--firmware", runner,
                    "--model", os.path.join(zoo_dir, model + program),
                    "--input", os.path.join(zoo_dir, model + data)]
        times = {name: [] for name in binaries}
        cycles = {}
        for _ in range(args.runs):
            for name, binary in binaries.items():
                wall, cpu, out = timed([binary] + cmd_tail)
                times[name].append((wall, cpu))
                m = re.search(r"^Execution 1: (\d+) cycles$", out, re.M)
                cycles[name] = int(m.group(1)) if m else 0
        for name in binaries:
            wall = statistics.median(t[0] for t in times[name])
            cpu = statistics.median(t[1] for t in times[name])
            print(f"{model:<14} {name:<9} {wall:8.2f} {cpu:8.2f} {cycles[name]:12d}", flush=True)
        if args.baseline:
            ratio = (statistics.median(t[0] for t in times["baseline"]) /
                     statistics.median(t[0] for t in times["socsim"]))
            ratio_cpu = (statistics.median(t[1] for t in times["baseline"]) /
                         statistics.median(t[1] for t in times["socsim"]))
            print(f"{model:<14} speed-up over the baseline: {ratio:.1f}x wall, "
                  f"{ratio_cpu:.1f}x CPU time")
        # Where the simulated inference goes: CPU operators and NPU delegate calls.
        # Shares of the unprofiled execution's cycles; the rest is the runner's own work
        # between calls (setting the inputs, ...).
        calls = cpu_operator_cycles(socsim, cmd_tail)
        execution = max(cycles["socsim"], 1)
        calls["outside calls"] = max(execution - sum(calls.values()), 0)
        print(f"{model:<14} simulated cycles of one execution by call:")
        for name, count in sorted(calls.items(), key=lambda kv: -kv[1]):
            print(f"{'':<16}{name:<48} {count:12d} {100 * count / execution:6.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
