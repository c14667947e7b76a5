"""Compiles a TFLite fixture (tests/runtime/tflite/NAME.tflite), runs it with executor_runner
on the simulator and compares every output with the reference interpreter's (NAME.npz, from
ai-edge-litert's BUILTIN_REF kernels), bit for bit.

  tflite_check.py --socsim BIN --runner ELF [--npu] FIXTURE_DIR NAME

With --npu the program is compiled with `--delegate npu` (the default SoC's NPU preset). The
run's execution cycles are printed (`tflite_check: NAME: N cycles`). Exit status 0 when every
output matches, 1 otherwise (with the count and the first difference).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

from socsim_aot import compiler, sim_check


RUN_LINES = {"cycles": re.compile(r"^Execution 1: (\d+) cycles", re.M),
             "program_load": re.compile(r"^Program load: (\d+) cycles", re.M),
             "method_load": re.compile(r"method load: (\d+) cycles", re.M),
             # the probes' region of the NHWC<->NCHW transposes (permute_copy kernels)
             "transpose_cycles": re.compile(r"^operator transpose\s+\d+\s+(\d+)", re.M)}


def run_fixture(socsim, runner, fixtures, name, npu=False, max_cycles="2000000000",
                report=None, probes=False):
    """Compiles and runs fixture `name`; a dict: program (the compiled program), differ
    (outputs unlike the reference's), first (index of the first, or -1), got/want there,
    count, cycles, program_load, method_load (None if not printed); `report`: a folder for
    `socsim run --report` (the NPU's per-layer report, probes); `probes`: print the run's
    probe regions (transpose_cycles; they cost the firmware no cycles). Raises CompileError
    when the model does not compile, RuntimeError when the run fails."""
    arrays = np.load(os.path.join(fixtures, name + ".npz"))
    with tempfile.TemporaryDirectory() as tmp:
        prog_path = os.path.join(tmp, name + ".pte")
        program = compiler.compile_file(os.path.join(fixtures, name + ".tflite"), prog_path,
                                        quantize=None, delegate="npu" if npu else None)
        input_path = os.path.join(tmp, "input.bin")
        with open(input_path, "wb") as f:
            for i in range(len(program.inputs)):
                f.write(np.ascontiguousarray(arrays[f"in{i}"]).tobytes())
        cmd = [socsim, "run"] + ([] if probes else ["-q"]) + [
            "--firmware", runner, "--model", prog_path, "--max-cycles", max_cycles,
            "--input", input_path]
        if report:
            cmd += ["--report", report]
        run = subprocess.run(cmd + ["--", "--print-outputs"], capture_output=True, text=True)
        status, stdout, stderr = run.returncode, run.stdout, run.stderr
    if status != 0:
        raise RuntimeError(failure_reason(status, stdout, stderr, max_cycles))
    # int8 outputs are printed as unsigned bytes, float32 ones with 9 significant digits (which
    # give the float32 back exactly): both compared as bit patterns
    wants = [arrays[f"out{i}"].reshape(-1) for i in range(len(program.outputs))]
    floats = np.concatenate([np.full(w.size, w.dtype == np.float32) for w in wants])
    want = np.concatenate([w.astype(np.float32).view(np.uint32).astype(np.int64)
                           if w.dtype == np.float32 else w.astype(np.int64) % 256
                           for w in wants])
    printed = sim_check.RES_LINE.findall(stdout)
    if [int(i) for i, _ in printed] != list(range(want.size)):
        raise RuntimeError(f"{len(printed)} output lines, expected {want.size}")
    try:
        got = np.array([int(np.float32(float(v)).view(np.uint32)) if f else int(v)
                        for (_, v), f in zip(printed, floats)], np.int64)
    except ValueError as e:
        raise RuntimeError(f"an output line is not a number ({e})") from None
    bad = got != want
    first = int(np.argmax(bad)) if np.any(bad) else -1

    def shown(bits):
        return float(np.int64(bits).astype(np.uint32).view(np.float32)) if floats[first] \
            else int(bits)
    result = dict(program=program, differ=int(bad.sum()), first=first, count=want.size,
                  got=shown(got[first]), want=shown(want[first]))
    for key, pattern in RUN_LINES.items():
        m = pattern.search(stdout)
        result[key] = int(m.group(1)) if m else None
    return result


# Lines of the run's standard output that say why the firmware stopped (the runner's own
# messages and the exit line; the statistics after them say nothing about the cause).
WHY_LINES = re.compile(r"^(executor_runner: .*|EXIT FAILURE.*|.*(?:fault|trap|exception).*)$",
                       re.M | re.I)


def failure_reason(status, stdout, stderr, max_cycles) -> str:
    """One line saying why a run exited `status`: the cycle limit (socsim's 124), the
    firmware's own messages (printed on its standard output, not socsim's error stream), or
    socsim's error stream; never an empty message."""
    if status == 124:
        return f"the run reached --max-cycles {max_cycles} before the firmware exited"
    why = [line.strip() for line in WHY_LINES.findall(stdout.split("\nProbes:")[0])]
    why += [line.strip() for line in stderr.splitlines() if line.strip()]
    if not why:
        return f"socsim exited {status} and printed no reason"
    return f"socsim exited {status}: " + "; ".join(why)


def _report_names_operators(report, name) -> bool:
    """Every layer of the NPU report (npu_layers.json) is named after its TFLite operator
    ("operator N (OPCODE)")."""
    import json
    path = os.path.join(report, "npu_layers.json")
    try:
        with open(path) as f:
            layers = json.load(f)["layers"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"tflite_check: {name}: {path}: {e}", file=sys.stderr)
        return False
    named = [re.fullmatch(r"operator \d+ \(([A-Z_0-9]+)\)", str(l.get("name"))) for l in layers]
    if not layers or not all(named):
        print(f"tflite_check: {name}: {path}: {sum(1 for m in named if not m)} of {len(layers)} "
              "layers are not named after a TFLite operator", file=sys.stderr)
        return False
    kinds = sorted({m.group(1) for m in named})
    print(f"tflite_check: {name}: the NPU report's {len(layers)} layers are named after their "
          f"TFLite operators ({', '.join(kinds)})")
    return True


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--socsim", required=True, help="the socsim binary")
    parser.add_argument("--runner", required=True, help="executor_runner.elf")
    parser.add_argument("--npu", action="store_true", help="compile with --delegate npu")
    parser.add_argument("--max-cycles", default="2000000000", help="socsim run --max-cycles")
    parser.add_argument("--report", metavar="DIR",
                        help="socsim run --report DIR; with --npu, the NPU report must name "
                             "the TFLite operator of every layer")
    parser.add_argument("fixtures", help="folder of NAME.tflite and NAME.npz")
    parser.add_argument("name", help="the fixture's name")
    args = parser.parse_args(argv)
    try:
        r = run_fixture(args.socsim, args.runner, args.fixtures, args.name, args.npu,
                        args.max_cycles, args.report)
    except (compiler.CompileError, RuntimeError) as e:
        print(f"tflite_check: {args.name}: {e}", file=sys.stderr)
        return 1
    if r["differ"]:
        print(f"tflite_check: {args.name}: {r['differ']} of {r['count']} outputs differ from "
              f"TFLite's reference kernels; first res[{r['first']}] = {r['got']}, reference "
              f"{r['want']}", file=sys.stderr)
        return 1
    # A program the NPU takes nothing of (data movement only) has no NPU report.
    if args.report and r["program"].delegates and \
            not _report_names_operators(args.report, args.name):
        return 1
    where = "NPU" if args.npu else "CPU"
    print(f"tflite_check: {args.name} ({where}): {r['count']} outputs equal TFLite's reference "
          f"kernels; {r['cycles']} cycles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
