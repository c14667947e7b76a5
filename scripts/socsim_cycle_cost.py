#!/usr/bin/python3
"""The cycle-cost method of the ExecuTorch-on-CV32E40P benchmarking campaign, as one command.

For a model family (add: float32 x + y; add8: int8 x + y; add8 with the cpu-packed delegate)
this builds the model variants it needs with the model compiler (scripts/socsim_aot), runs them
on socsim with the executor_runner firmware (in parallel, --jobs at a time), and prints the
tables of the campaign's section 7.4:

  1. fixed vs dynamic cost: total cycles of 1 and N executions of one model; the increment per
     execution and per element;
  2. per-element cost from a sweep of model sizes: a least-squares line cycles = a + b * size
     (slope, intercept, residuals) and the first-element effect (what one execution costs
     beyond slope x elements);
  3. the BSS breakdown from two executor_runner builds with different pool sizes: BSS bytes,
     cycles, cycles per byte, and the share of the fixed cost spent zeroing BSS;
  4. the delegation speed-up (add8 only): per-element cost without and with the delegate.

Times are given at --clock-mhz (default 400 MHz). Each run also writes the simulator's probe
report (probes.json), so the same quantities are read directly from single runs: execution,
operator and delegate cycles with their element counts, and the BSS loop. The tool prints
both and says where the two methods disagree and why they may. CSV files and PNG plots go to
--out-dir. The compiled models are kept in --out-dir/models/<digest of the compiler's sources>
(socsim_aot.sources) for the next run; a changed compiler or program format compiles them
again.

Example:
  scripts/socsim_cycle_cost.py --family add8 --family add8-delegated --sizes 4-40:4 \\
      --executions 1 11 --out-dir build/cost
"""

import argparse
import concurrent.futures
import csv
import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXIT_LINE = re.compile(r"EXIT SUCCESS @ cycle (\d+)")
EXECUTORCH_DIR = "executorch"  # the ExecuTorch-exported programs, under the models' folder
FAMILIES = {
    # name: (zoo model, program file pattern, delegated)
    "add": ("add", "add_{n}.pte", False),
    "add8": ("add8", "add8_{n}.pte", False),
    "add8-delegated": ("add8", "add8_{n}_cpu_packed.pte", True),
    # The same models as ExecuTorch 1.5.1 exports them (genuine .pte files, exported by
    # socsim_executorch.seed_models in the environment of scripts/executorch-npu-venv.sh,
    # kept in a folder of their own); the delegated one has its add on socsim's cpu-packed
    # backend.
    "add-pte": ("add", EXECUTORCH_DIR + "/add_{n}.pte", False),
    "add8-pte": ("add8", EXECUTORCH_DIR + "/add8_{n}.pte", False),
    "add8-delegated-pte": ("add8-cpu-packed", EXECUTORCH_DIR + "/add8_{n}_cpu_packed.pte", True),
}
DISAGREE = 0.01  # relative difference above which the two methods are said to disagree


# ---- arithmetic (no simulator needed; unit-tested in scripts/test/test_socsim_cycle_cost.py) ------

def least_squares(xs, ys):
    """Fits y = intercept + slope * x. Returns a dict: slope, intercept, residuals (y - fit),
    r2 and max_abs_residual."""
    n = len(xs)
    if n < 2 or len(ys) != n:
        raise ValueError("a fit needs at least two (x, y) points")
    mx = sum(xs) / n
    my = sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        raise ValueError("a fit needs at least two different x values")
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    intercept = my - slope * mx
    residuals = [y - (intercept + slope * x) for x, y in zip(xs, ys)]
    ss_tot = sum((y - my) ** 2 for y in ys)
    ss_res = sum(r * r for r in residuals)
    return {
        "slope": slope,
        "intercept": intercept,
        "residuals": residuals,
        "r2": 1.0 - ss_res / ss_tot if ss_tot else 1.0,
        "max_abs_residual": max(abs(r) for r in residuals),
    }


def fixed_dynamic(cycles_1, cycles_n, executions, elements):
    """1 vs N executions of one model: the increment per execution and per element, and the
    fixed cost (the 1-execution run less one execution)."""
    if executions < 2:
        raise ValueError("need more than one execution to separate the dynamic cost")
    per_run = (cycles_n - cycles_1) / (executions - 1)
    return {
        "increment": cycles_n - cycles_1,
        "runs": executions - 1,
        "per_run": per_run,
        "per_element": per_run / elements,
        "fixed": cycles_1 - per_run,
    }


def first_element_effect(per_run, slope, elements):
    """What one execution of `elements` costs beyond `slope` per element: the cost of the first
    element over the others (per_run - slope * (elements - 1)) and the per-execution overhead
    projected to zero elements (per_run - slope * elements)."""
    return {
        "first_element": per_run - slope * (elements - 1),
        "overhead": per_run - slope * elements,
    }


def bss_breakdown(bss_normal, cycles_normal, bss_small, cycles_small, fixed_cycles):
    """Two builds differing only in BSS size: the cycles per byte of zeroing, the cycles the
    normal build spends on its whole BSS, and that as a share of the run and of the fixed
    cost."""
    d_bytes = bss_normal - bss_small
    if d_bytes <= 0:
        raise ValueError("the normal build must have more BSS than the small one")
    d_cycles = cycles_normal - cycles_small
    per_byte = d_cycles / d_bytes
    zeroing = per_byte * bss_normal
    return {
        "bytes": (bss_normal, bss_small, d_bytes),
        "cycles": (cycles_normal, cycles_small, d_cycles),
        "cycles_per_byte": per_byte,
        "zeroing_cycles": zeroing,
        "share_of_run": zeroing / cycles_normal,
        "share_of_fixed": zeroing / fixed_cycles if fixed_cycles else float("nan"),
    }


def relative_difference(a, b):
    scale = max(abs(a), abs(b))
    return 0.0 if scale == 0 else abs(a - b) / scale


def parse_sizes(text):
    """'4-40:4' -> [4, 8, ..., 40]; '1-10' -> [1..10]; '4,8,16' -> [4, 8, 16]."""
    sizes = []
    for part in text.split(","):
        step = 1
        if ":" in part:
            part, step_text = part.split(":")
            step = int(step_text)
        if "-" in part:
            lo, hi = (int(v) for v in part.split("-"))
            sizes += list(range(lo, hi + 1, step))
        else:
            sizes.append(int(part))
    if len(sizes) < 2 or min(sizes) < 1:
        raise argparse.ArgumentTypeError("need at least two sizes, all >= 1")
    return sorted(set(sizes))


# ---- formatting --------------------------------------------------------------------------

def fmt_time(cycles, mhz):
    us = cycles / mhz
    if abs(us) >= 1000:
        return f"{us / 1000:.2f} ms"
    if abs(us) >= 1:
        return f"{us:.2f} us"
    return f"{us * 1000:.1f} ns"


def table(title, header, rows, out):
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows)]
    print(f"\n{title}", file=out)
    line = "  ".join(str(h).rjust(w) if i else str(h).ljust(w)
                     for i, (h, w) in enumerate(zip(header, widths)))
    print(line, file=out)
    print("-" * len(line), file=out)
    for row in rows:
        print("  ".join(str(c).rjust(w) if i else str(c).ljust(w)
                        for i, (c, w) in enumerate(zip(row, widths))), file=out)


# ---- running -----------------------------------------------------------------------------

class Runner:
    """Runs executor_runner on socsim, in parallel, and keeps each run's report."""

    def __init__(self, args):
        self.args = args
        self.jobs = []

    def submit(self, key, firmware, model, executions):
        report = os.path.join(self.args.out_dir, "runs", key)
        cmd = [self.args.socsim, "run", "--firmware", firmware, "--model", model,
               "--report", report]
        if self.args.cpu:
            cmd += ["--cpu", self.args.cpu]
        cmd += ["--", "--num-executions", str(executions)]
        self.jobs.append((key, cmd, report))

    def run_all(self):
        def one(job):
            key, cmd, report = job
            result = subprocess.run(cmd, capture_output=True, text=True)
            m = EXIT_LINE.search(result.stdout)
            if result.returncode != 0 or not m:
                raise RuntimeError(f"{' '.join(cmd)} failed with status {result.returncode}:\n"
                                   f"{result.stdout[-2000:]}{result.stderr[-2000:]}")
            with open(os.path.join(report, "probes.json")) as f:
                probes = json.load(f)
            with open(os.path.join(report, "summary.json")) as f:
                summary = json.load(f)
            return key, {"cycles": summary["cycles"], "exact": summary["cycles_exact"],
                         "probes": probes}

        with concurrent.futures.ThreadPoolExecutor(max_workers=self.args.jobs) as pool:
            results = dict(pool.map(one, self.jobs))
        self.jobs = []
        return results


def region(probes, name):
    for r in probes["regions"]:
        if r["name"] == name:
            return r
    return None


def call_regions(probes, delegated):
    """The operator (or delegate) call regions of a run."""
    category = "delegate" if delegated else "operator"
    return [r for r in probes["regions"] if r["category"] == category and r["count"] > 0]


def bss_bytes(elf, nm):
    out = subprocess.run([nm, elf], capture_output=True, text=True, check=True).stdout
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:
            syms[parts[2]] = int(parts[0], 16)
    return syms["__bss_end"] - syms["__bss_start"]


def models_dir_for(out_dir, compiler_digest):
    """The folder of the compiled models under OUT_DIR/models for one version of the compiler
    (socsim_aot.sources.digest()); folders and files of other versions are removed, so a
    changed compiler or program format never runs a stale model."""
    parent = os.path.join(out_dir, "models")
    current = compiler_digest[:16]
    if os.path.isdir(parent):
        for name in os.listdir(parent):
            if name == current:
                continue
            path = os.path.join(parent, name)
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path)
            else:
                os.remove(path)
    path = os.path.join(parent, current)
    os.makedirs(path, exist_ok=True)
    return path


def build_models(args, sizes_needed):
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    from socsim_aot import sources  # noqa: E402
    from socsim_aot import zoo  # noqa: E402 (needs torch; imported only when building)
    models_dir = models_dir_for(args.out_dir, sources.digest())
    for family in args.family:
        model, pattern, _ = FAMILIES[family]
        missing = [n for n in sizes_needed
                   if not os.path.exists(os.path.join(models_dir, pattern.format(n=n)))]
        if missing and pattern.startswith(EXECUTORCH_DIR + "/"):
            export_pte_models(args, model, os.path.join(models_dir, EXECUTORCH_DIR), missing)
            continue
        for n in missing:
            zoo.build_model(model, models_dir, size=n)
    return models_dir


def export_pte_models(args, model, models_dir, sizes):
    """The .pte families' programs, exported by ExecuTorch (--executorch-python)."""
    if not os.path.exists(args.executorch_python):
        raise SystemExit(f"socsim_cycle_cost: --executorch-python {args.executorch_python} "
                         "does not exist (make it with scripts/executorch-npu-venv.sh)")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PYTHONPATH"] = os.path.join(ROOT, "scripts")
    subprocess.run([args.executorch_python, "-m", "socsim_executorch.seed_models", models_dir,
                    "--sizes", ",".join(str(n) for n in sizes), "--models", model],
                   check=True, env=env)


def build_small_runner(args):
    """An executor_runner with smaller pools (less BSS), in a firmware build of its own."""
    build = os.path.join(args.out_dir, "firmware-small-pools")
    cmd = ["cmake", "-S", os.path.join(ROOT, "firmware"), "-B", build, "-G", "Ninja",
           "-DCMAKE_TOOLCHAIN_FILE=" + os.path.join(ROOT, "firmware/cmake/riscv32_toolchain.cmake"),
           "-DSOCSIM_EXECUTABLE=" + os.path.abspath(args.socsim),
           f"-DSOCSIM_RUNNER_METHOD_POOL={args.small_pools[0]}",
           f"-DSOCSIM_RUNNER_TEMP_POOL={args.small_pools[1]}"]
    subprocess.run(cmd, check=True, capture_output=True)
    subprocess.run(["cmake", "--build", build, "--target", "executor_runner",
                    "--parallel", str(args.jobs)], check=True, capture_output=True)
    for path in ("apps/executor_runner/executor_runner.elf", "apps/executor_runner.elf"):
        if os.path.exists(os.path.join(build, path)):
            return os.path.join(build, path)
    raise RuntimeError(f"no executor_runner.elf under {build}")


# ---- the campaign ------------------------------------------------------------------------

def campaign(args, out=sys.stdout):
    mhz = args.clock_mhz
    e1, en = args.executions
    sizes = args.sizes
    models_dir = build_models(args, sorted(set(sizes) | {args.size}))
    runner = Runner(args)
    for family in args.family:
        _, pattern, _ = FAMILIES[family]
        big = os.path.join(models_dir, pattern.format(n=args.size))
        runner.submit(f"{family}-x{e1}", args.runner, big, e1)
        runner.submit(f"{family}-x{en}", args.runner, big, en)
        for n in sizes:
            runner.submit(f"{family}-n{n}", args.runner,
                          os.path.join(models_dir, pattern.format(n=n)), 1)
    small_runner = build_small_runner(args) if args.bss else None
    if small_runner:
        _, pattern, _ = FAMILIES[args.family[0]]
        runner.submit("bss-small", small_runner,
                      os.path.join(models_dir, pattern.format(n=args.size)), 1)
    runs = runner.run_all()
    exact = all(r["exact"] for r in runs.values())
    note = "" if exact else " [iss: estimated cycles]"
    results = {"clock_mhz": mhz, "cycles_exact": exact, "families": {}}
    disagreements = []

    for family in args.family:
        delegated = FAMILIES[family][2]
        r1, rn = runs[f"{family}-x{e1}"], runs[f"{family}-x{en}"]
        fd = fixed_dynamic(r1["cycles"], rn["cycles"], en, args.size)
        table(f"7.4.1.1 {family}: dynamic cost from {e1} vs {en} executions "
              f"({args.size} elements){note}",
              ["# runs", str(e1), str(en)],
              [["Cycles", f"{r1['cycles']:,}", f"{rn['cycles']:,}"],
               [f"Time @ {mhz:g} MHz", fmt_time(r1["cycles"], mhz), fmt_time(rn["cycles"], mhz)]],
              out)
        table("", ["", "cycles", f"time @ {mhz:g} MHz"],
              [[f"Increment for {fd['runs']} runs", f"{fd['increment']:,}",
                fmt_time(fd["increment"], mhz)],
               ["Increment for 1 run", f"{fd['per_run']:,.1f}", fmt_time(fd["per_run"], mhz)],
               ["Per element", f"{fd['per_element']:,.2f}", fmt_time(fd["per_element"], mhz)],
               ["Fixed cost (1 run less 1 increment)", f"{fd['fixed']:,.0f}",
                fmt_time(fd["fixed"], mhz)]], out)

        ys = [runs[f"{family}-n{n}"]["cycles"] for n in sizes]
        fit = least_squares(sizes, ys)
        rows = []
        for i, n in enumerate(sizes):
            inc = "" if i == 0 else fmt_time(ys[i] - ys[i - 1], mhz)
            per = "" if i == 0 else fmt_time((ys[i] - ys[i - 1]) / (n - sizes[i - 1]), mhz)
            rows.append([n, f"{ys[i]:,}", fmt_time(ys[i], mhz), inc, per,
                         f"{fit['residuals'][i]:+.1f}"])
        table(f"7.4.1.2 {family}: cost by model size (1 execution each){note}",
              ["Vector size", "Cycles", f"Time @ {mhz:g} MHz", "Incremental time",
               "Time per element", "Residual (cycles)"], rows, out)
        fe = first_element_effect(fd["per_run"], fit["slope"], args.size)
        table(f"Least-squares fit: cycles = intercept + slope x size ({family})",
              ["", "cycles", f"time @ {mhz:g} MHz"],
              [["Slope (per element)", f"{fit['slope']:,.2f}", fmt_time(fit["slope"], mhz)],
               ["Intercept (fixed cost at size 0)", f"{fit['intercept']:,.0f}",
                fmt_time(fit["intercept"], mhz)],
               ["Max |residual|", f"{fit['max_abs_residual']:,.1f}", ""],
               ["R^2", f"{fit['r2']:.6f}", ""],
               [f"Per element from {e1} vs {en} executions", f"{fd['per_element']:,.2f}",
                fmt_time(fd["per_element"], mhz)],
               ["First element (per run - slope x (N - 1))", f"{fe['first_element']:,.1f}",
                fmt_time(fe["first_element"], mhz)],
               ["Per-execution overhead (per run - slope x N)", f"{fe['overhead']:,.1f}",
                fmt_time(fe["overhead"], mhz)]], out)

        # The same quantities straight from the probes of single runs.
        probes_n = rn["probes"]
        execute = region(probes_n, "execute")
        calls_n = call_regions(probes_n, delegated)
        probe_rows = []
        fam = {"fixed_dynamic": fd, "fit": {k: v for k, v in fit.items()}, "first": fe,
               "sizes": sizes, "cycles": ys}
        if execute and execute["count"] >= 2:
            occ = [o["cycles"] for o in execute["occurrences"]]
            steady = sum(occ[1:]) / len(occ[1:])
            fam["probe_execute_first"] = occ[0]
            fam["probe_execute_steady"] = steady
            probe_rows.append(["Method::execute, first", f"{occ[0]:,}", fmt_time(occ[0], mhz)])
            probe_rows.append(["Method::execute, later (mean)", f"{steady:,.1f}",
                               fmt_time(steady, mhz)])
            d = relative_difference(steady, fd["per_run"])
            if d > DISAGREE:
                disagreements.append(
                    f"{family}: per execution {fd['per_run']:,.1f} cycles (differential) vs "
                    f"{steady:,.1f} in Method::execute (probes), {100 * d:.1f} % apart: the "
                    "differential increment also counts the runner's work around execute "
                    "(setting the inputs, printing), which the execute region does not.")
        if calls_n:
            c = calls_n[0]
            fam["probe_call_cycles"] = c["cycles"] / c["count"]
            probe_rows.append([f"{c['name']} per call", f"{c['cycles'] / c['count']:,.1f}",
                               fmt_time(c["cycles"] / c["count"], mhz)])
        call_fit_points = []
        for n in sizes:
            cr = call_regions(runs[f"{family}-n{n}"]["probes"], delegated)
            if cr and cr[0]["elements"]:
                call_fit_points.append((cr[0]["elements"] / cr[0]["count"],
                                        cr[0]["cycles"] / cr[0]["count"]))
        if len(call_fit_points) >= 2:
            cfit = least_squares([p[0] for p in call_fit_points], [p[1] for p in call_fit_points])
            fam["probe_call_fit"] = {"slope": cfit["slope"], "intercept": cfit["intercept"]}
            probe_rows.append(["Call cycles per element (fit over sizes)",
                               f"{cfit['slope']:,.2f}", fmt_time(cfit["slope"], mhz)])
            probe_rows.append(["Call cycles at 0 elements (fit)", f"{cfit['intercept']:,.1f}",
                               fmt_time(cfit["intercept"], mhz)])
            d = relative_difference(cfit["slope"], fit["slope"])
            if d > DISAGREE:
                disagreements.append(
                    f"{family}: per element {fit['slope']:,.2f} cycles (size sweep) vs "
                    f"{cfit['slope']:,.2f} inside the {'delegate' if delegated else 'operator'}"
                    f" calls (probes), {100 * d:.1f} % apart: element-dependent work outside "
                    "the call (input setting by the runner) is in the sweep only.")
        if probe_rows:
            table(f"The same from the probes ({family}, {en} executions of {args.size} "
                  f"elements){note}", ["", "cycles", f"time @ {mhz:g} MHz"], probe_rows, out)
        results["families"][family] = fam

    if small_runner:
        family = args.family[0]
        normal = runs[f"{family}-x{e1}"]
        small = runs["bss-small"]
        bn, bs = bss_bytes(args.runner, args.nm), bss_bytes(small_runner, args.nm)
        fixed = results["families"][family]["fixed_dynamic"]["fixed"]
        b = bss_breakdown(bn, normal["cycles"], bs, small["cycles"], fixed)
        table(f"7.4.1.3 Breaking down the fixed cost: BSS ({family}, {args.size} elements)"
              f"{note}", ["", "Normal buffers", "Small buffers", "Difference"],
              [["Size of BSS (bytes)"] + [f"{v:,}" for v in b["bytes"]],
               ["Cycles"] + [f"{v:,}" for v in b["cycles"]],
               [f"Time @ {mhz:g} MHz"] + [fmt_time(v, mhz) for v in b["cycles"]],
               ["Cycles per byte", "", "", f"{b['cycles_per_byte']:.4f}"],
               ["Time per byte", "", "", fmt_time(b["cycles_per_byte"], mhz)]], out)
        table("", ["", "cycles", f"time @ {mhz:g} MHz", "share"],
              [["Zeroing all BSS (normal build)", f"{b['zeroing_cycles']:,.0f}",
                fmt_time(b["zeroing_cycles"], mhz), f"{100 * b['share_of_run']:.1f} % of run"],
               ["Fixed cost (from 1 vs N executions)", f"{fixed:,.0f}", fmt_time(fixed, mhz),
                f"BSS {100 * b['share_of_fixed']:.1f} % of it"]], out)
        results["bss"] = b
        pb = region(normal["probes"], "bss zero")
        if pb and pb["count"]:
            per_byte = pb["cycles"] / bn
            results["bss"]["probe_cycles"] = pb["cycles"]
            table(f"The same from the probes (bss zero region){note}",
                  ["", "cycles", f"time @ {mhz:g} MHz"],
                  [["BSS zeroing loop", f"{pb['cycles']:,}", fmt_time(pb["cycles"], mhz)],
                   ["Cycles per byte", f"{per_byte:.4f}", fmt_time(per_byte, mhz)]], out)
            d = relative_difference(per_byte, b["cycles_per_byte"])
            if d > DISAGREE:
                disagreements.append(
                    f"BSS: {b['cycles_per_byte']:.4f} cycles per byte (two builds) vs "
                    f"{per_byte:.4f} in the zeroing loop (probes), {100 * d:.1f} % apart: "
                    "the two builds also differ in other work that depends on the pool size.")

    plain = [f for f in args.family if not FAMILIES[f][2]]
    deleg = [f for f in args.family if FAMILIES[f][2]]
    if plain and deleg:
        p, d = results["families"][plain[0]], results["families"][deleg[0]]
        rows = []
        for label, a, b2 in (
                (f"Per element, {e1} vs {en} executions", p["fixed_dynamic"]["per_element"],
                 d["fixed_dynamic"]["per_element"]),
                ("Per element, size sweep (slope)", p["fit"]["slope"], d["fit"]["slope"])):
            rows.append([label, fmt_time(a, mhz), fmt_time(b2, mhz),
                         f"{a / b2:.1f}x" if b2 else "-"])
        if "probe_call_fit" in p and "probe_call_fit" in d:
            a, b2 = p["probe_call_fit"]["slope"], d["probe_call_fit"]["slope"]
            rows.append(["Per element inside the call (probes)", fmt_time(a, mhz),
                         fmt_time(b2, mhz), f"{a / b2:.1f}x" if b2 else "-"])
        table(f"7.4.3 The impact of delegation ({plain[0]} vs {deleg[0]}){note}",
              ["", "without", "with delegation", "speed-up"], rows, out)
        results["speedup"] = {"executions": p["fixed_dynamic"]["per_element"] /
                              d["fixed_dynamic"]["per_element"],
                              "sweep": p["fit"]["slope"] / d["fit"]["slope"]}

    print("\nWhere the two methods disagree (more than 1 %):", file=out)
    for line in disagreements or ["nowhere."]:
        print("  " + line, file=out)
    results["disagreements"] = disagreements
    write_outputs(args, results)
    return results


def write_outputs(args, results):
    with open(os.path.join(args.out_dir, "cost.json"), "w") as f:
        json.dump(results, f, indent=2)
    with open(os.path.join(args.out_dir, "sizes.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["family", "size", "cycles", "fit_cycles", "residual"])
        for family, fam in results["families"].items():
            for n, c, r in zip(fam["sizes"], fam["cycles"], fam["fit"]["residuals"]):
                w.writerow([family, n, c, c - r, r])
    with open(os.path.join(args.out_dir, "summary.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["family", "per_run_cycles", "per_element_cycles", "fixed_cycles", "slope",
                    "intercept", "r2", "first_element_cycles", "clock_mhz"])
        for family, fam in results["families"].items():
            fd, fit = fam["fixed_dynamic"], fam["fit"]
            w.writerow([family, fd["per_run"], fd["per_element"], fd["fixed"], fit["slope"],
                        fit["intercept"], fit["r2"], fam["first"]["first_element"],
                        results["clock_mhz"]])
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for family, fam in results["families"].items():
        xs, ys, fit = fam["sizes"], fam["cycles"], fam["fit"]
        axes[0].plot(xs, ys, "o", label=family)
        axes[0].plot(xs, [fit["intercept"] + fit["slope"] * x for x in xs], "-",
                     label=f"{family}: {fit['slope']:.1f} cycles/element")
        axes[1].plot(xs, fit["residuals"], "o-", label=family)
    axes[0].set_xlabel("vector size (elements)")
    axes[0].set_ylabel("cycles (1 execution)")
    axes[0].legend()
    axes[1].set_xlabel("vector size (elements)")
    axes[1].set_ylabel("residual of the fit (cycles)")
    axes[1].legend()
    fig.tight_layout()
    fig.savefig(os.path.join(args.out_dir, "sizes.png"), dpi=100)
    plt.close(fig)


def default_runner():
    for path in ("build/firmware/apps/executor_runner/executor_runner.elf",
                 "build/firmware/apps/executor_runner.elf"):
        if os.path.exists(os.path.join(ROOT, path)):
            return os.path.join(ROOT, path)
    return os.path.join(ROOT, "build/firmware/apps/executor_runner.elf")


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--family", action="append", choices=sorted(FAMILIES),
                        help="model family (repeatable; default: add8 and add8-delegated)")
    parser.add_argument("--size", type=int, default=1024,
                        help="elements of the model run 1 and N times (default 1024)")
    parser.add_argument("--executions", type=int, nargs=2, default=[1, 11],
                        metavar=("FEW", "MANY"), help="execution counts compared (default 1 11)")
    parser.add_argument("--sizes", type=parse_sizes, default=parse_sizes("4-40:4"),
                        help="sizes of the sweep: 'lo-hi[:step]' or a list (default 4-40:4)")
    parser.add_argument("--no-bss", dest="bss", action="store_false",
                        help="skip the BSS breakdown (which builds a second executor_runner)")
    parser.add_argument("--small-pools", type=int, nargs=2, default=[512 * 1024, 128 * 1024],
                        metavar=("METHOD", "TEMP"),
                        help="pool sizes of the second runner, bytes (default half: 524288 "
                             "131072)")
    parser.add_argument("--clock-mhz", type=float, default=400.0,
                        help="clock for the times (default 400 MHz)")
    parser.add_argument("--cpu", help="CPU model, one of `socsim config --cpu-models` "
                        "(default: the SoC's; rtl is exact)")
    parser.add_argument("--socsim", default=os.path.join(ROOT, "build/bin/socsim"),
                        help="the socsim binary (default build/bin/socsim)")
    parser.add_argument("--runner", default=default_runner(), help="executor_runner.elf")
    parser.add_argument("--nm", default="riscv64-unknown-elf-nm", help="nm for the BSS size")
    parser.add_argument("--executorch-python",
                        default=os.path.join(ROOT, "build/executorch-npu-venv/bin/python"),
                        help="python of the ExecuTorch environment that exports the .pte "
                             "families (default build/executorch-npu-venv/bin/python)")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="parallel runs (default 2)")
    parser.add_argument("-o", "--out-dir", default="cost",
                        help="models, run reports, CSV files and plots (default ./cost)")
    args = parser.parse_args(argv)
    args.family = args.family or ["add8", "add8-delegated"]
    if args.executions[1] <= args.executions[0] or args.executions[0] != 1:
        parser.error("--executions: the first count must be 1 and the second larger")
    for path, what in ((args.socsim, "--socsim"), (args.runner, "--runner")):
        if not os.path.exists(path):
            parser.error(f"{what} {path} does not exist (build first)")
    if args.cpu:
        sys.path.insert(0, os.path.join(ROOT, "scripts"))
        import socsim_cpu
        try:
            message = socsim_cpu.check_cpu(args.socsim, args.cpu)
        except socsim_cpu.CpuModelsError as e:
            parser.error(f"--cpu: {e}")
        if message:
            parser.error(f"--cpu: {message}")
    if args.bss and not shutil.which(args.nm):
        parser.error(f"--nm {args.nm} not found (or pass --no-bss)")
    os.makedirs(args.out_dir, exist_ok=True)
    campaign(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
