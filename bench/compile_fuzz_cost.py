#!/usr/bin/python3
"""What one input of the compile_model fuzz target costs its harness and the compiler
(tests/fuzz/fuzz_compile_model.py, docs/hardening.md): every seed of a folder compiled by
compiler_fuzz.compile_checked with each of the target's three option sets (float32;
--quantize int8; --quantize int8 --delegate npu), in one process as the target runs them,
without atheris (its instrumentation and libFuzzer's bookkeeping are left out).

Each source tree given with --tree (default: this one) is measured in a process of its own,
the trees interleaved, --reps times; printed are the median CPU time (children's included:
a tree whose compiler runs ONNX shape inference in a child process pays for it there) and
the median wall time per compilation, and each tree's ratio to the first. The harness
settings are each tree's own (onnx_graph.ISOLATE_INFERENCE off where the tree has it).
To compare with an older commit: git worktree add /tmp/old COMMIT, then
bench/compile_fuzz_cost.py --tree /tmp/old --tree . --seeds /tmp/old/tests/fuzz/corpus/compile_model
"""
import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPTION_SETS = ([], ["--quantize", "int8", "--samples", "1"],
               ["--quantize", "int8", "--samples", "1", "--delegate", "npu"])


def measure(tree, seeds):
    """(CPU seconds, wall seconds) per compilation of every seed with every option set, in
    this process, with `tree`'s compiler and harness."""
    sys.path.insert(0, os.path.join(tree, "scripts"))
    sys.path.insert(0, os.path.join(tree, "tests", "fuzz"))
    import compiler_fuzz
    from socsim_aot import compiler, onnx_graph
    if hasattr(onnx_graph, "ISOLATE_INFERENCE"):
        onnx_graph.ISOLATE_INFERENCE = False
    model, program = compiler_fuzz.scratch_paths("socsim-bench-compile-", "input.onnx")
    inputs = [open(f, "rb").read() for f in seeds]
    os.chdir(os.path.join(tree, "scripts"))

    def run_all():
        for data in inputs:
            for options in OPTION_SETS:
                try:
                    compiler_fuzz.compile_checked(compiler, model, program, data, options)
                except RuntimeError:  # a finding of that tree: its cost counts all the same
                    pass
    run_all()  # imports and caches warm, as after the target's first inputs
    t0, w0 = os.times(), time.perf_counter()
    run_all()
    t1, w1 = os.times(), time.perf_counter()
    cpu = (t1.user + t1.system + t1.children_user + t1.children_system) - \
        (t0.user + t0.system + t0.children_user + t0.children_system)
    n = len(inputs) * len(OPTION_SETS)
    return cpu / n, (w1 - w0) / n


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tree", action="append", help="a socsim source tree (repeatable; "
                        "default: this one)")
    parser.add_argument("--seeds", default=os.path.join(ROOT, "tests", "fuzz", "corpus",
                                                        "compile_model"),
                        help="folder of ONNX inputs (default: the target's seeds)")
    parser.add_argument("--reps", type=int, default=3, help="measurements per tree (default 3)")
    parser.add_argument("--one", nargs=2, metavar=("TREE", "SEEDS_JSON"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(os.path.abspath(args.one[0]), json.loads(args.one[1]))))
        return 0
    trees = [os.path.abspath(t) for t in (args.tree or [ROOT])]
    seeds = sorted(glob.glob(os.path.join(args.seeds, "*")))
    if not seeds:
        sys.exit(f"compile_fuzz_cost: no inputs in {args.seeds}")
    results = {t: [] for t in trees}
    for _ in range(args.reps):
        for tree in trees:
            out = subprocess.run([sys.executable, os.path.abspath(__file__), "--one", tree,
                                  json.dumps(seeds)], check=True, stdout=subprocess.PIPE,
                                 text=True).stdout
            results[tree].append(json.loads(out.strip().splitlines()[-1]))
    print(f"{len(seeds)} inputs x {len(OPTION_SETS)} option sets, median of {args.reps}")
    print("| tree | CPU per compilation | wall per compilation | CPU ratio | wall ratio |")
    print("|---|---|---|---|---|")
    base = None
    for tree in trees:
        cpu = statistics.median(r[0] for r in results[tree]) * 1e3
        wall = statistics.median(r[1] for r in results[tree]) * 1e3
        base = base or (cpu, wall)
        print(f"| {tree} | {cpu:.2f} ms | {wall:.2f} ms | {cpu / base[0]:.2f} | "
              f"{wall / base[1]:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
