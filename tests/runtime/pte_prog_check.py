#!/usr/bin/python3
"""One model compiled to both program formats, `.pte` and `.prog`, run alike:

  - compile_model.py writes MODEL.pte, and its main with the legacy writer
    (compiler.main(legacy_prog=True): the command line refuses .prog) MODEL.prog, with the
    same options;
  - `socsim run` of each (executor_runner --print-outputs --profile, --report DIR): every
    output line is the same, bit for bit;
  - with NPU layers: the per-layer NPU report (npu_layers.json: names, operator types, MACs,
    bytes moved, compute cycles of every layer) is the same; the DMA's cycles (DDR cycles,
    elapsed cycles, each npu delegate call's NPU cycles) depend on where the weights lie in
    DDR, which differs between the files, and are compared within --ddr-tolerance;
  - `socsim estimate` (NPU programs) prints the same per-layer estimate for both files, and
    refuses a truncated `.pte` with status 2 and one line;
  - prints the sizes and the program-load, method-load and execution CPU cycles of both.

Usage: pte_prog_check.py --socsim BIN --runner ELF --compiler compile_model.py --out-dir DIR
           [--input BIN] [--estimate-config SOC.yaml] MODEL [-- COMPILE_OPTIONS...]
"""
import argparse
import json
import os
import re
import subprocess
import sys

CYCLES = re.compile(r"Program load: (\d+) cycles; method load: (\d+) cycles")
EXECUTION = re.compile(r"Execution 1: (\d+) cycles")
NPU_CALL = re.compile(r"^  delegate \d+ npu: \d+ elements, \d+ cycles, (\d+) npu cycles$", re.M)
# The layer fields that depend on the program only: equal in both formats.
LAYER_KEYS = ("name", "op_type", "macs", "npu_cycles", "read_bytes", "write_bytes",
              "ddr_read_bytes", "ddr_write_bytes", "input_shape", "output_shape", "frame", "run",
              "index")
# The DMA's: where the weights lie in DDR (the two files place their constants at other
# addresses) and which DDR rows the CPU left open decide them.
DDR_KEYS = ("ddr_cycles", "elapsed_cycles")
# compile_model.py's main with the legacy writer (socsim_aot.compiler.main(legacy_prog=True));
# argv[1] is the folder of compile_model.py
LEGACY_COMPILE = ("import sys; sys.path.insert(0, sys.argv.pop(1)); "
                  "from socsim_aot import compiler; "
                  "sys.exit(compiler.main(sys.argv[1:], legacy_prog=True))")


def main(argv=None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    options = []
    if "--" in argv:
        at = argv.index("--")
        argv, options = argv[:at], argv[at + 1:]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--socsim", required=True)
    parser.add_argument("--runner", required=True)
    parser.add_argument("--compiler", required=True)
    parser.add_argument("--out-dir", required=True)
    parser.add_argument("--input")
    parser.add_argument("--estimate-config")
    parser.add_argument("--ddr-tolerance", type=float, default=0.05,
                        help="largest relative difference of the frame's NPU cycles")
    parser.add_argument("model")
    args = parser.parse_args(argv)
    os.makedirs(args.out_dir, exist_ok=True)
    failures = []

    def check(ok, message):
        if not ok:
            failures.append(message)

    stem = os.path.splitext(os.path.basename(args.model))[0]
    runs = {}
    for fmt in ("prog", "pte"):
        path = os.path.join(args.out_dir, f"{stem}.{fmt}")
        # the command line writes .pte only; the legacy writer is asked for by name
        compile_cmd = [sys.executable, args.compiler] if fmt == "pte" else \
            [sys.executable, "-c", LEGACY_COMPILE, os.path.dirname(os.path.abspath(args.compiler))]
        subprocess.run(compile_cmd + [args.model, "-o", path, "-q"] + options,
                       check=True, capture_output=True)
        report = os.path.join(args.out_dir, f"report_{fmt}")
        cmd = [args.socsim, "run", "-q", "--firmware", args.runner, "--model", path,
               "--report", report, "--max-cycles", "400000000"]
        if args.input:
            cmd += ["--input", args.input]
        done = subprocess.run(cmd + ["--", "--print-outputs", "--profile"],
                              capture_output=True, text=True)
        if done.returncode != 0:
            print(f"pte_prog_check: {fmt}: socsim exited {done.returncode}\n{done.stdout[-2000:]}"
                  f"\n{done.stderr[-2000:]}")
            return 1
        out = done.stdout
        layers_path = os.path.join(report, "npu_layers.json")
        layers = []
        if os.path.exists(layers_path):
            with open(layers_path) as f:
                layers = json.load(f)["layers"]
        cycles, execution = CYCLES.search(out), EXECUTION.search(out)
        runs[fmt] = dict(
            path=path, size=os.path.getsize(path),
            outputs=re.findall(r"^res\[\d+\] = .*$", out, re.M),
            npu_calls=NPU_CALL.findall(out),
            layers=[{k: l.get(k) for k in LAYER_KEYS} for l in layers],
            elapsed=sum(l["elapsed_cycles"] for l in layers),
            program_load=int(cycles.group(1)) if cycles else None,
            method_load=int(cycles.group(2)) if cycles else None,
            execution=int(execution.group(1)) if execution else None)
    prog, pte = runs["prog"], runs["pte"]
    check(len(prog["outputs"]) > 0, "the .prog run printed no output")
    check(prog["outputs"] == pte["outputs"],
          f"outputs differ: {len(prog['outputs'])} lines (.prog), {len(pte['outputs'])} (.pte); "
          f"first difference: " + next((f"{a} / {b}" for a, b in
                                        zip(prog["outputs"], pte["outputs"]) if a != b), "-"))
    check(len(prog["npu_calls"]) == len(pte["npu_calls"]),
          f"npu delegate calls: {len(prog['npu_calls'])} (.prog), {len(pte['npu_calls'])} (.pte)")
    for a, b in zip(prog["npu_calls"], pte["npu_calls"]):
        check(abs(int(b) / int(a) - 1) <= args.ddr_tolerance,
              f"an npu call's NPU cycles: {a} (.prog), {b} (.pte)")
    check(prog["layers"] == pte["layers"],
          "the NPU per-layer reports differ: " +
          next((f"{a} / {b}" for a, b in zip(prog["layers"], pte["layers"]) if a != b),
               f"{len(prog['layers'])} vs {len(pte['layers'])} layers"))
    if args.estimate_config:
        estimates = {}
        for fmt, run in runs.items():
            done = subprocess.run([args.socsim, "estimate", "--model", run["path"], "-c",
                                   args.estimate_config], capture_output=True, text=True)
            check(done.returncode == 0, f"estimate of the .{fmt} exited {done.returncode}: "
                                        f"{done.stderr.strip()}")
            estimates[fmt] = done.stdout.replace(run["path"], "MODEL")
        check(estimates["prog"] == estimates["pte"], "the estimates differ")
        # A truncated .pte: status 2 and one line naming the file.
        cut = os.path.join(args.out_dir, "truncated.pte")
        with open(pte["path"], "rb") as f, open(cut, "wb") as g:
            g.write(f.read()[:pte["size"] // 2])
        done = subprocess.run([args.socsim, "estimate", "--model", cut, "-c",
                               args.estimate_config], capture_output=True, text=True)
        check(done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1 and
              cut in done.stderr, f"estimate of a truncated .pte: status {done.returncode}, "
                                  f"{done.stderr.strip()!r}")
        check(len(prog["layers"]) == 0 or "NPU" in estimates["pte"],
              f"the estimate lists no NPU layer:\n{estimates['pte'][-400:]}")
    print(f"pte_prog_check: {stem} {' '.join(options)}: {len(pte['outputs'])} outputs, "
          f"{len(pte['layers'])} NPU layers")
    print("| format | bytes | program load | method load | execution 1 | NPU cycles (calls) |")
    print("|---|---|---|---|---|---|")
    for fmt in ("prog", "pte"):
        r = runs[fmt]
        npu = " + ".join(f"{int(c):,}" for c in r["npu_calls"]) or "-"
        print(f"| .{fmt} | {r['size']:,} | {r['program_load']:,} | {r['method_load']:,} | "
              f"{r['execution']:,} | {npu} |")
    for message in failures:
        print(f"pte_prog_check: FAIL: {message}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
