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
import sys
import tempfile

import numpy as np

from socsim_aot import compiler, sim_check

EXECUTION = "Execution 1: "


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--socsim", required=True, help="the socsim binary")
    parser.add_argument("--runner", required=True, help="executor_runner.elf")
    parser.add_argument("--npu", action="store_true", help="compile with --delegate npu")
    parser.add_argument("--max-cycles", default="2000000000", help="socsim run --max-cycles")
    parser.add_argument("fixtures", help="folder of NAME.tflite and NAME.npz")
    parser.add_argument("name", help="the fixture's name")
    args = parser.parse_args(argv)
    model = os.path.join(args.fixtures, args.name + ".tflite")
    arrays = np.load(os.path.join(args.fixtures, args.name + ".npz"))
    with tempfile.TemporaryDirectory() as tmp:
        prog_path = os.path.join(tmp, args.name + ".prog")
        program = compiler.compile_file(model, prog_path, quantize=None,
                                        delegate="npu" if args.npu else None)
        inputs = [arrays[f"in{i}"] for i in range(len(program.inputs))]
        input_path = os.path.join(tmp, "input.bin")
        with open(input_path, "wb") as f:
            for a in inputs:
                f.write(np.ascontiguousarray(a).tobytes())
        run_args = argparse.Namespace(socsim=args.socsim, runner=args.runner,
                                      max_cycles=args.max_cycles, input=input_path, set=[],
                                      runner_arg=[])
        status, stdout, stderr = sim_check.run_runner(run_args, prog_path)
    if status != 0:
        print(f"tflite_check: {args.name}: socsim exited {status}\n{stderr}", file=sys.stderr)
        return 1
    want = np.concatenate([arrays[f"out{i}"].reshape(-1).astype(np.int64)
                           for i in range(len(program.outputs))])
    printed = sim_check.RES_LINE.findall(stdout)
    if [int(i) for i, _ in printed] != list(range(want.size)):
        print(f"tflite_check: {args.name}: {len(printed)} output lines, expected {want.size}",
              file=sys.stderr)
        return 1
    got = np.array([int(v) for _, v in printed], np.int64)
    # The runner prints int8 values as bytes (0..255).
    bad = got != want % 256
    if np.any(bad):
        first = int(np.argmax(bad))
        print(f"tflite_check: {args.name}: {int(bad.sum())} of {want.size} outputs differ from "
              f"TFLite's reference kernels; first res[{first}] = {got[first]}, reference "
              f"{want[first] % 256}", file=sys.stderr)
        return 1
    cycles = [l[len(EXECUTION):].split()[0] for l in stdout.splitlines()
              if l.startswith(EXECUTION)]
    where = "NPU" if args.npu else "CPU"
    print(f"tflite_check: {args.name} ({where}): {want.size} outputs equal TFLite's reference "
          f"kernels; {cycles[0] if cycles else '?'} cycles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
