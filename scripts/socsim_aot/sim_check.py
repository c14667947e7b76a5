"""Runs a program file on the simulator with executor_runner and checks its outputs against
the numpy reference executor.

int8/int32 outputs and the outputs of int8-quantised programs must match bit for bit (the
runner prints float32 with 9 significant digits, which round-trips exactly); outputs of
float32 programs must match within --tolerance of the largest magnitude. With --same-as
OTHER, OTHER (the same model compiled differently, e.g. without a delegate) is run too and
both runs' printed outputs must be identical.

PROGRAM is a `.pte` or a `.prog` (its npu delegate calls included: the reference executor runs
either form of the npu blob). A program the reference cannot read or run: one line naming it,
exit status 1, as for outputs that differ.
"""

import argparse
import re
import subprocess
import sys

import numpy as np

from socsim_aot import program_format as pf
from socsim_aot import pte_format
from socsim_aot import reference

RES_LINE = re.compile(r"^res\[(\d+)\] = (\S+)$", re.M)


def reference_outputs(program, input_path):
    if input_path:
        with open(input_path, "rb") as f:
            raw = f.read()
        inputs, at = [], 0
        for tid in program.inputs:
            t = program.tensors[tid]
            inputs.append(np.frombuffer(raw, pf.DTYPES[t.dtype], int(np.prod(t.shape)), at)
                          .reshape(t.shape))
            at += t.nbytes
    else:
        inputs = reference.default_inputs(program)
    return np.concatenate([o.reshape(-1) for o in reference.run(program, inputs)])


def differences(program, want, printed, tolerance=1e-5):
    """(the printed outputs as numbers, a mask of those that differ from the reference's
    `want`): bit for bit, except a float32 program's (every kernel output float32), which
    may differ by `tolerance` times the largest reference output (float32 rounding in another
    order)."""
    if want.dtype == np.float32:
        got = np.array([float(v) for v in printed], np.float32)
        float_program = all(program.tensors[t].dtype == 1 for i in program.instructions
                            for t in i.outputs)
        if float_program:
            bound = tolerance * max(float(np.abs(want).max()), 1e-30)
            return got, np.abs(got - want) > bound
        return got, got != want
    got = np.array([int(v) for v in printed], np.int64)
    return got, got != want.reshape(-1).astype(np.int64) % (256 if want.itemsize == 1 else 1 << 32)


def run_runner(args, program_path):
    """Runs program_path with the runner; returns (status, stdout, stderr)."""
    cmd = [args.socsim, "run", "-q", "--firmware", args.runner, "--model", program_path,
           "--max-cycles", args.max_cycles]
    if args.input:
        cmd += ["--input", args.input]
    for setting in args.set:
        cmd += ["--set", setting]
    cmd += ["--", "--print-outputs"] + args.runner_arg
    result = subprocess.run(cmd, capture_output=True, text=True)
    return result.returncode, result.stdout, result.stderr


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Run PROGRAM with executor_runner on the simulator (--print-outputs) and "
                    "compare every printed output with the numpy reference executor.")
    parser.add_argument("--socsim", required=True, help="the socsim binary")
    parser.add_argument("--runner", required=True, help="executor_runner.elf")
    parser.add_argument("--input", help="raw input file (passed with socsim run --input)")
    parser.add_argument("--tolerance", type=float, default=1e-5,
                        help="relative tolerance for float32 programs (default 1e-5)")
    parser.add_argument("--max-cycles", default="2000000000", help="socsim run --max-cycles")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="socsim run --set (repeatable), e.g. cpu.model=iss")
    parser.add_argument("--runner-arg", action="append", default=[],
                        help="extra executor_runner argument (repeatable)")
    parser.add_argument("--same-as", metavar="OTHER",
                        help="another program file of the same model: its outputs on the "
                             "simulator must be identical")
    parser.add_argument("program", help="program file (.pte or .prog)")
    args = parser.parse_args(argv)
    try:
        with open(args.program, "rb") as f:
            # either format: a .pte's npu calls carry version-2 blobs, which the reference
            # executor runs as the version-1 layers of a .prog (npu_partition.run_blob)
            program = pte_format.read_any(f.read())
        want = reference_outputs(program, args.input)
    except (OSError, pf.ProgramFormatError, pte_format.PteFormatError,
            reference.ReferenceError) as e:
        print(f"sim_check: {args.program}: {e}", file=sys.stderr)
        return 1
    status, stdout, stderr = run_runner(args, args.program)
    print("\n".join(l for l in stdout.splitlines() if not l.startswith("res[")))
    if status != 0:
        print(f"sim_check: socsim exited {status}\n{stderr}", file=sys.stderr)
        return 1
    printed = RES_LINE.findall(stdout)
    if len(printed) != want.size or [int(i) for i, _ in printed] != list(range(want.size)):
        print(f"sim_check: {len(printed)} output lines, expected {want.size}", file=sys.stderr)
        return 1
    got, bad = differences(program, want, [v for _, v in printed], args.tolerance)
    if np.any(bad):
        first = int(np.argmax(bad))
        print(f"sim_check: {int(bad.sum())} of {want.size} outputs differ; first res[{first}] = "
              f"{got[first]}, reference {want[first]}", file=sys.stderr)
        return 1
    print(f"sim_check: {want.size} outputs match the reference")
    if args.same_as:
        status, stdout, stderr = run_runner(args, args.same_as)
        if status != 0:
            print(f"sim_check: {args.same_as}: socsim exited {status}\n{stderr}", file=sys.stderr)
            return 1
        other = RES_LINE.findall(stdout)
        if other != printed:
            differ = [i for i, (a, b) in enumerate(zip(printed, other)) if a != b]
            print(f"sim_check: {args.same_as}: {len(other)} outputs, {len(differ)} differ from "
                  f"{args.program}'s" + (f"; first res[{differ[0]}]" if differ else ""),
                  file=sys.stderr)
            return 1
        print(f"sim_check: {len(other)} outputs identical to {args.same_as}'s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
