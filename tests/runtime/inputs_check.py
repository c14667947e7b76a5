"""How executor_runner sets a model's inputs from `socsim run --input` data.

Checks:
  - data of exactly the model's inputs' size is read in place by default (the runner says
    so); with --copy-inputs it is copied, the outputs are the same, and the execution is
    longer by at least the copy's stores and loads (one load and one store per 32-bit word:
    half a cycle per byte is a floor no copy on the core can beat);
  - data of another size is copied, the runner naming the size the model's inputs take;
  - data of the right size whose second input would start misaligned is copied, the runner
    naming the alignment; --inputs-in-place refuses it (bind_input: InvalidArgument).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

EXECUTION = re.compile(r"^Execution 1: (\d+) cycles$", re.M)
OUTPUT = re.compile(r"^res\[\d+\] = .*$", re.M)


class CheckError(Exception):
    pass


def check(condition, message):
    if not condition:
        raise CheckError(message)


def run(args, model, data, runner_args, status=0):
    cmd = [args.socsim, "run", "-q", "--cpu", "iss", "--firmware", args.runner, "--model",
           model, "--input", data, "--max-cycles", "200000000", "--", "--print-outputs"]
    result = subprocess.run(cmd + runner_args, capture_output=True, text=True)
    check(result.returncode == status,
          f"{' '.join(cmd + runner_args)}: exit {result.returncode}, expected {status}\n"
          f"{result.stdout}\n{result.stderr}")
    return result.stdout


def execution_cycles(out):
    m = EXECUTION.search(out)
    check(m is not None, f"no 'Execution 1' line in\n{out}")
    return int(m.group(1))


def run_checks(args, tmp):
    size = os.path.getsize(args.input)
    bound = run(args, args.model, args.input, [])
    check(f"Input data: {size} bytes, read in place\n" in bound,
          f"the default did not read the data in place:\n{bound}")
    copied = run(args, args.model, args.input, ["--copy-inputs"])
    check(f"Input data: {size} bytes, copied before each execution\n" in copied,
          f"--copy-inputs did not copy:\n{copied}")
    outputs = OUTPUT.findall(bound)
    check(outputs and outputs == OUTPUT.findall(copied),
          "the outputs differ between the bound and the copied input")
    saved = execution_cycles(copied) - execution_cycles(bound)
    check(saved >= size // 2,
          f"binding saved {saved} cycles of an execution, less than a copy of {size} bytes "
          f"can take (>= {size // 2})")
    print(f"{os.path.basename(args.model)}: {size} bytes in place, execution "
          f"{execution_cycles(bound)} cycles; copied {execution_cycles(copied)} cycles")

    other = run(args, args.other_model, args.input, [])
    m = re.search(rf"^Input data: {size} bytes, copied before each execution "
                  r"\(the model's inputs take (\d+) bytes\)$", other, re.M)
    check(m is not None and int(m.group(1)) != size,
          f"data of another size was not copied with the reason:\n{other}")
    inputs_size = int(m.group(1))

    # Two inputs of an odd size: the second would start at an odd offset.
    check(inputs_size % 2 == 0 and (inputs_size // 2) % 16 != 0,
          f"{args.other_model} does not have two inputs of an unaligned size ({inputs_size})")
    odd = os.path.join(tmp, "odd.bin")
    with open(args.input, "rb") as f, open(odd, "wb") as g:
        g.write(f.read(inputs_size))
    misaligned = run(args, args.other_model, odd, [])
    check(f"Input data: {inputs_size} bytes, copied before each execution (an input would "
          "not start 16-byte aligned)\n" in misaligned,
          f"misaligned inputs were not copied with the reason:\n{misaligned}")
    refused = run(args, args.other_model, odd, ["--inputs-in-place"], status=1)
    check("input data: InvalidArgument" in refused,
          f"--inputs-in-place accepted a misaligned input:\n{refused}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--socsim", required=True)
    parser.add_argument("--runner", required=True)
    parser.add_argument("--model", required=True, help="a program whose inputs --input fills")
    parser.add_argument("--input", required=True)
    parser.add_argument("--other-model", required=True,
                        help="a program of two int8 inputs of an odd size")
    args = parser.parse_args()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            run_checks(args, tmp)
    except CheckError as e:
        print(f"inputs_check: FAIL: {e}")
        return 1
    print("inputs_check: PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
