#!/usr/bin/env python3
"""Runs an ExecuTorch program (.pte) on the simulator and compares its outputs with the
portable runtime's (the checked-in NAME.expected.bin of tests/runtime/pte/).

  pte_check.py --socsim BIN --runner ELF FIXTURES_DIR NAME [socsim run options...]

The executor_runner prints every output element (--print-outputs); integer outputs must equal
the reference exactly, float32 outputs lie within 1e-5 of the largest reference output. Prints
the program's size, the simulator's cycle figures and the largest difference. Exit 0 when they
match, 1 otherwise.
"""

import argparse
import os
import re
import subprocess
import sys

import numpy as np

DTYPES = {"float32": np.float32, "int8": np.int8, "uint8": np.uint8, "int32": np.int32,
          "int64": np.int64, "float64": np.float64, "bool": np.uint8}


def manifest_entry(folder, name):
    with open(os.path.join(folder, "manifest.txt")) as f:
        for line in f:
            if line.startswith("#"):
                continue
            cols = [c.strip() for c in line.split("|")]
            if len(cols) == 5 and cols[0] == name:
                return cols
    raise SystemExit(f"pte_check: {name} is not in {folder}/manifest.txt")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--socsim", required=True)
    parser.add_argument("--runner", required=True)
    parser.add_argument("folder")
    parser.add_argument("name")
    parser.add_argument("run_args", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    cols = manifest_entry(args.folder, args.name)
    pte = os.path.join(args.folder, args.name + ".pte")
    cmd = [args.socsim, "run", "-q", "--firmware", args.runner, "--model", pte, "--input",
           os.path.join(args.folder, args.name + ".input.bin"), "--max-cycles", "2000000000",
           *args.run_args, "--", "--print-outputs"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1500)
    out = proc.stdout + proc.stderr
    if proc.returncode != 0:
        print(out)
        print(f"pte_check: {args.name}: exit status {proc.returncode}")
        return 1
    values = [v for _, v in sorted((int(i), v) for i, v in
                                   re.findall(r"^res\[(\d+)\] = (\S+)$", out, re.M))]
    want = []
    raw = open(os.path.join(args.folder, args.name + ".expected.bin"), "rb").read()
    at = 0
    for spec in cols[3].split(";"):
        dtype, shape = spec.split(":")
        n = int(np.prod([int(d) for d in shape.split("x")])) if shape != "scalar" else 1
        arr = np.frombuffer(raw, DTYPES[dtype], count=n, offset=at)
        at += arr.nbytes
        want.append((dtype, arr))
    total = sum(a.size for _, a in want)
    if len(values) != total:
        print(out)
        print(f"pte_check: {args.name}: {len(values)} outputs printed, {total} expected")
        return 1
    ok = True
    k = 0
    for dtype, arr in want:
        got_text = values[k:k + arr.size]
        k += arr.size
        if dtype in ("float32", "float64"):
            got = np.array([float(v) for v in got_text])
            ref = arr.astype(np.float64)
            largest = float(np.abs(ref).max()) if ref.size else 0.0
            diff = float(np.abs(got - ref).max()) if ref.size else 0.0
            print(f"{args.name}: {arr.size} {dtype} outputs, max abs diff {diff:.3g} "
                  f"(largest output {largest:.6g})")
            ok = ok and largest > 0 and diff <= 1e-5 * largest
        else:
            got = np.array([int(v) for v in got_text], dtype=np.int64)
            # the runner prints int8 as unsigned bytes, as the seed's runner does
            ref = arr.astype(np.int64) & 0xFF if arr.dtype.itemsize == 1 else arr.astype(np.int64)
            mismatches = int((got != ref).sum())
            print(f"{args.name}: {arr.size} {dtype} outputs, {mismatches} differ")
            ok = ok and mismatches == 0
    for pattern in (r"Program load: \d+ cycles; method load: \d+ cycles",
                    r"Execution 1: \d+ cycles", r"Model: .*"):
        m = re.search(pattern, out)
        if m:
            print(f"{args.name}: {m.group(0)}")
    print(f"{args.name}: {os.path.getsize(pte)} bytes, operators {cols[4]}")
    if not ok:
        print(f"pte_check: {args.name}: outputs differ from the portable runtime's")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
