"""ONNX's operator conformance tests (the node tests) through the compiler and the runtime.

Each node test is a folder holding `model.onnx` (usually one node) and `test_data_set_*/`
with `input_*.pb` and `output_*.pb` (TensorProtos). Every test is compiled in float32 with the
project's compiler, run on the host build of the runtime (socsim_host_runner) and its outputs
compared with the expected ones; with --sim N, N of the passing tests run again on the
simulator (socsim run with executor_runner --print-outputs). docs/onnx-conformance.md
describes the rules and holds the generated table (--write-docs).

Inputs of type int64 (shapes, axes, indices, pads, repeats), and the inputs of
PARAMETER_INPUTS (weights, biases, zero points, normalisation parameters, clipping bounds,
resize scales): what exported models hold as initializers, are given to the compiler as
constants with the test's values; every other input stays a program input (bool ones as
uint8 bytes, the runtime's masks). Results:

  pass           every output within the tolerance (float: |got - want| <= atol + rtol |want|,
                 NaN where NaN; integers and booleans exact)
  fail           wrong values or shapes (the largest error is given)
  not supported  the compiler refused the model (its one-line reason)
  error          anything else: the compiler's internal error, the runtime's failure

Usage: onnx_conformance.py [--data DIR | --venv VENV | --make-venv DIR] [-j N] [--sim N]
                           [--write-docs] [-k RE] [--expect-pass N]
Exit status 0 when the run completed (whatever the results), 1 if --expect-pass is not met,
2 on a usage error.
"""

import argparse
import collections
import dataclasses
import glob
import json
import multiprocessing
import os
import re
import subprocess
import sys
import tempfile
import time
from typing import Dict, List, Optional

import numpy as np

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
DOCS = os.path.join(ROOT, "docs", "onnx-conformance.md")
BEGIN, END = "<!-- conformance-table:begin -->", "<!-- conformance-table:end -->"
# ONNX's backend test runner compares with rtol 1e-3 and atol 1e-7; atol is 1e-5 here, as
# the runtime computes exp, log, tanh and friends in float32 with its own approximations.
RTOL, ATOL = 1e-3, 1e-5
FROZEN_TYPES = (7,)  # TensorProto INT64: given to the compiler as constants
# Inputs that exported models hold as initializers (weights, biases, normalisation
# parameters, clipping bounds, padding values, resize scales): given as constants whatever
# their type. Operator: input indices.
PARAMETER_INPUTS = {"Conv": (1, 2), "ConvTranspose": (1, 2), "Gemm": (1, 2), "PRelu": (1,),
                    "BatchNormalization": (1, 2, 3, 4), "InstanceNormalization": (1, 2),
                    "LayerNormalization": (1, 2), "GroupNormalization": (1, 2),
                    "Clip": (1, 2), "Pad": (1, 2, 3), "Resize": (1, 2, 3), "Dropout": (1,),
                    "MatMulInteger": (2, 3), "ConvInteger": (1, 2, 3)}
NODE_DATA = os.path.join("lib", "python3.11", "site-packages", "onnx", "backend", "test",
                         "data", "node")


@dataclasses.dataclass
class Result:
    name: str
    operator: str
    status: str  # "pass" | "fail" | "not supported" | "error"
    reason: str = ""
    folded: bool = False  # the program computes nothing: every output is a constant
    max_error: float = 0.0

    def line(self) -> str:
        extra = f": {self.reason}" if self.reason else ""
        return f"{self.name}: {self.status}{extra}"


# ---- one test ---------------------------------------------------------------------------------

def _read_tensor(path: str) -> np.ndarray:
    import onnx
    from onnx import numpy_helper
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    if t.data_type == 8:  # STRING
        raise ValueError("string tensor")
    try:
        array = numpy_helper.to_array(t)
    except KeyError:  # a type onnx 1.12 does not know (4- and 8-bit floats, 2-, 4-bit ints)
        raise ValueError(f"element type {t.data_type} is newer than the system's onnx "
                         "reads") from None
    if array.dtype == object:
        raise ValueError(f"element type {t.data_type} has no numpy type")
    return array


def _data_sets(case_dir: str):
    """[(inputs, outputs)] of every test_data_set_* folder, arrays in file order."""
    sets = []
    for folder in sorted(glob.glob(os.path.join(case_dir, "test_data_set_*"))):
        def read(kind):
            files = sorted(glob.glob(os.path.join(folder, f"{kind}_*.pb")),
                           key=lambda p: int(re.findall(r"(\d+)\.pb$", p)[0]))
            return [_read_tensor(p) for p in files]
        sets.append((read("input"), read("output")))
    return sets


def operator_of(case_dir: str) -> str:
    """The operator a test is for: its single node's, or for an expanded function body
    ("..._expanded", several nodes) the operator of the test it expands."""
    import onnx
    name = os.path.basename(case_dir)
    if "_expanded" in name:
        sibling = os.path.join(os.path.dirname(case_dir), name.split("_expanded")[0])
        if os.path.isdir(sibling):
            return operator_of(sibling)
    model = onnx.load(os.path.join(case_dir, "model.onnx"), load_external_data=False)
    ops = [n.op_type for n in model.graph.node]
    return collections.Counter(ops).most_common(1)[0][0] if ops else "(none)"


def _parameters(model) -> set:
    """The graph inputs that a node reads as one of its PARAMETER_INPUTS."""
    names = set()
    for n in model.graph.node:
        for i in PARAMETER_INPUTS.get(n.op_type, ()):
            if i < len(n.input) and n.input[i]:
                names.add(n.input[i])
    return names


def _freeze_inputs(model, inputs: List[np.ndarray]):
    """The model with its int64 and bool inputs, and the parameter inputs of its nodes,
    made initializers of the test's values; returns (model, the arrays still fed as program
    inputs)."""
    from onnx import numpy_helper
    fed, keep = [], []
    parameters = _parameters(model)
    for vi, array in zip(list(model.graph.input), inputs):
        t = vi.type.tensor_type if vi.type.HasField("tensor_type") else None
        if t is not None and t.elem_type in FROZEN_TYPES or vi.name in parameters:
            model.graph.initializer.append(numpy_helper.from_array(array, vi.name))
        else:
            keep.append(vi)
            fed.append(array)
    del model.graph.input[:]
    model.graph.input.extend(keep)
    return model, fed


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""


def _reason(message: str) -> str:
    """A compiler message without the node's name (the table groups equal reasons)."""
    line = _first_line(message)
    if re.match(r"^\d+ node\(s\) cannot be compiled:", line):
        line = _first_line(message.split("\n", 1)[1]) if "\n" in message else line
    line = re.sub(r"^node '[^']*' \(op (\w+)\): ", r"\1: ", line.strip())
    line = re.sub(r"'[^']*'", "'…'", line)
    return line


def _compare(want: np.ndarray, got: np.ndarray):
    """(ok, the largest error, what is wrong)."""
    if want.dtype.kind in "iub":
        if np.array_equal(want.astype(np.int64), got.astype(np.int64)):
            return True, 0.0, ""
        diff = np.abs(want.astype(np.int64) - got.astype(np.int64))
        return False, float(diff.max()), f"{int((diff != 0).sum())} of {want.size} values differ"
    want = want.astype(np.float64)
    got = got.astype(np.float64)
    nan = np.isnan(want)
    if np.any(nan != np.isnan(got)):
        return False, float("nan"), "NaN where the expected value is not (or the reverse)"
    same_inf = np.isinf(want) & (want == got)
    err = np.where(nan | same_inf, 0.0, np.abs(got - want))
    err = np.where(np.isnan(err), np.inf, err)
    bad = err > ATOL + RTOL * np.abs(np.where(np.isinf(want), 0, want))
    worst = float(err.max()) if err.size else 0.0
    if np.any(bad):
        return False, worst, f"{int(bad.sum())} of {want.size} values differ, largest error " \
                             f"{worst:.3g}"
    return True, worst, ""


class Runner:
    """Compiles and runs tests; one per worker process (imports made once)."""

    def __init__(self, host_runner: str, work: str):
        self.host_runner = host_runner
        self.work = work

    def compile(self, model, name: str):
        """(program, None) or (None, Result fields (status, reason))."""
        from socsim_aot import compiler
        from socsim_aot import pte_format
        from socsim_aot.ir import CompileError
        from socsim_aot.onnx_graph import InferenceCrash
        path = os.path.join(self.work, name + ".onnx")
        with open(path, "wb") as f:
            f.write(model.SerializeToString())
        try:
            program = compiler.compile_model(path, compiler.CompileOptions())
            return pte_format.read(pte_format.write(program)), None
        except CompileError as e:
            return None, ("not supported", _reason(str(e)))
        except InferenceCrash as e:
            return None, ("error", f"internal error: {_first_line(str(e))}")
        except Exception as e:  # noqa: BLE001 - the compiler's internal error, reported
            return None, ("error", f"internal error: {type(e).__name__}: {_first_line(str(e))}")
        finally:
            os.unlink(path)

    def run_host(self, program, data: bytes, name: str):
        """(outputs, None) or (None, why)."""
        from socsim_aot import pte_format
        prog = os.path.join(self.work, name + ".pte")
        inp = os.path.join(self.work, name + ".in")
        out = os.path.join(self.work, name + ".out")
        try:
            with open(prog, "wb") as f:
                f.write(pte_format.write(program))
            with open(inp, "wb") as f:
                f.write(data)
            r = subprocess.run([self.host_runner, prog, inp, out], capture_output=True,
                               text=True, timeout=120)
            if r.returncode != 0:
                return None, f"host runner exit {r.returncode}: " + _first_line(r.stderr)
            with open(out, "rb") as f:
                raw = f.read()
        except subprocess.TimeoutExpired:
            return None, "host runner: no answer in 120 s"
        finally:
            for p in (prog, inp, out):
                if os.path.exists(p):
                    os.unlink(p)
        return split_outputs(program, raw), None


def input_bytes(program, fed: List[np.ndarray]) -> bytes:
    """The program's inputs' raw bytes in order (what socsim_host_runner and socsim run
    --input read)."""
    from socsim_aot import program_format as pf
    chunks = []
    for tid, array in zip(program.inputs, fed):
        t = program.tensors[tid]
        chunks.append(np.ascontiguousarray(array, pf.DTYPES[t.dtype]).tobytes())
    return b"".join(chunks)


def split_outputs(program, raw: bytes) -> List[np.ndarray]:
    from socsim_aot import program_format as pf
    outs, at = [], 0
    for tid in program.outputs:
        t = program.tensors[tid]
        n = int(np.prod(t.shape, dtype=np.int64))
        outs.append(np.frombuffer(raw, pf.DTYPES[t.dtype], n, at).reshape(t.shape))
        at += t.nbytes
    return outs


def check_outputs(got: List[np.ndarray], want: List[np.ndarray]):
    """(ok, the largest error, what is wrong)."""
    if len(got) != len(want):
        return False, 0.0, f"{len(got)} outputs, expected {len(want)}"
    worst = 0.0
    for i, (g, w) in enumerate(zip(got, want)):
        if g.size != w.size or (g.shape != w.shape and w.size > 1):
            return False, 0.0, f"output {i} has shape {list(g.shape)}, expected {list(w.shape)}"
        ok, err, why = _compare(w.reshape(-1), g.reshape(-1))
        worst = max(worst, err) if not np.isnan(err) else err
        if not ok:
            return False, worst, f"output {i}: {why}"
    return True, worst, ""


_RUNNER: Optional[Runner] = None


def _init_worker(host_runner: str, work: str):
    global _RUNNER
    import warnings
    warnings.simplefilter("ignore")
    _RUNNER = Runner(host_runner, work)


def run_case(case_dir: str) -> Result:
    """One node test: compile, run on the host, compare."""
    import onnx
    name = os.path.basename(case_dir)
    try:
        operator = operator_of(case_dir)
    except Exception as e:  # noqa: BLE001 - a file onnx 1.12 cannot read
        return Result(name, "(unreadable)", "not supported", f"model: {_first_line(str(e))}")
    model = onnx.load(os.path.join(case_dir, "model.onnx"), load_external_data=False)
    for vi in list(model.graph.input) + list(model.graph.output):
        if not vi.type.HasField("tensor_type"):
            kind = vi.type.WhichOneof("value") or "unknown"
            return Result(name, operator, "not supported",
                          f"a {kind.replace('_type', '')} input or output (not a tensor)")
    try:
        sets = _data_sets(case_dir)
    except Exception as e:  # noqa: BLE001 - element types numpy or onnx 1.12 has not
        return Result(name, operator, "not supported", f"test data: {_first_line(str(e))}")
    if not sets:
        return Result(name, operator, "error", "no test data set")
    inputs, want = sets[0]
    model, fed = _freeze_inputs(model, inputs)
    program, why = _RUNNER.compile(model, name)
    if program is None:
        return Result(name, operator, why[0], why[1])
    folded = not any(ins.name for ins in program.instructions)
    worst = 0.0
    for inputs, want in sets:
        _, fed = _freeze_inputs(onnx.load(os.path.join(case_dir, "model.onnx")), inputs)
        if len(fed) != len(program.inputs):
            return Result(name, operator, "error",
                          f"the program has {len(program.inputs)} inputs, the test feeds "
                          f"{len(fed)}")
        got, why = _RUNNER.run_host(program, input_bytes(program, fed), name)
        if got is None:
            return Result(name, operator, "error", why)
        ok, err, why = check_outputs(got, want)
        worst = err if np.isnan(err) else max(worst, err)
        if not ok:
            return Result(name, operator, "fail", why, folded, worst)
    return Result(name, operator, "pass", "", folded, worst)


# ---- the simulator sample ---------------------------------------------------------------------

RES_LINE = re.compile(r"^res\[(\d+)\] = (\S+)$", re.M)


def run_on_simulator(case_dir: str, socsim: str, firmware: str, work: str) -> Result:
    """A test on the simulator: compiled again, run with executor_runner --print-outputs."""
    import onnx
    name = os.path.basename(case_dir)
    runner = Runner("", work)
    inputs, want = _data_sets(case_dir)[0]
    model, fed = _freeze_inputs(onnx.load(os.path.join(case_dir, "model.onnx")), inputs)
    program, why = runner.compile(model, name)
    if program is None:
        return Result(name, "", why[0], why[1])
    from socsim_aot import program_format as pf
    from socsim_aot import pte_format
    prog = os.path.join(work, name + ".sim.pte")
    inp = os.path.join(work, name + ".sim.in")
    with open(prog, "wb") as f:
        f.write(pte_format.write(program))
    with open(inp, "wb") as f:
        f.write(input_bytes(program, fed))
    cmd = [socsim, "run", "-q", "--firmware", firmware, "--model", prog, "--input", inp,
           "--max-cycles", "2000000000", "--", "--print-outputs"]
    r = subprocess.run(cmd, capture_output=True, text=True,
                       env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
    os.unlink(prog)
    os.unlink(inp)
    if r.returncode != 0:
        return Result(name, "", "error", f"socsim exit {r.returncode}: {_first_line(r.stderr)}")
    printed = [v for _, v in RES_LINE.findall(r.stdout)]
    got, at = [], 0
    for tid in program.outputs:
        t = program.tensors[tid]
        n = int(np.prod(t.shape, dtype=np.int64))
        values = printed[at:at + n]
        at += n
        kind = pf.DTYPES[t.dtype]
        got.append(np.array([float(v) if np.dtype(kind).kind == "f" else int(v)
                             for v in values], np.float64 if np.dtype(kind).kind == "f"
                            else np.int64).reshape(t.shape))
    if at != len(printed):
        return Result(name, "", "error", f"{len(printed)} printed outputs, expected {at}")
    ok, err, why = check_outputs(got, [w.astype(np.float64) if w.dtype.kind == "f" else w
                                       for w in want])
    return Result(name, "", "pass" if ok else "fail", why, max_error=err)


# ---- the table --------------------------------------------------------------------------------

STATUSES = ("pass", "fail", "not supported", "error")


def schema_operators() -> set:
    from socsim_aot import compiler, schema
    return set(schema.onnx_operators()) | set(compiler.FUSED_OPERATORS)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def table(results: List[Result], source: str) -> str:
    """The markdown of docs/onnx-conformance.md between the markers."""
    listed = schema_operators()
    by_op: Dict[str, List[Result]] = collections.defaultdict(list)
    for r in results:
        by_op[r.operator].append(r)
    count = collections.Counter(r.status for r in results)
    folded = sum(1 for r in results if r.status == "pass" and r.folded)
    in_schema = [r for r in results if r.operator in listed]
    lines = [f"Generated by `scripts/onnx_conformance.py --write-docs` from {source}:",
             f"{len(results)} node tests, float32, on the host build of the runtime; "
             f"rtol {RTOL:g}, atol {ATOL:g}.", "",
             f"**{count['pass']} pass** ({folded} of them folded to constants by the "
             f"compiler), {count['fail']} fail, {count['not supported']} not supported,",
             f"{count['error']} error. The operators the schema lowers (column *schema*): "
             f"{sum(1 for r in in_schema if r.status == 'pass')} of {len(in_schema)} tests "
             "pass.", "",
             "| operator | schema | tests | pass | fail | not supported | error | why not "
             "(most frequent) |", "|---|---|---|---|---|---|---|---|"]
    for op in sorted(by_op, key=str.lower):
        rs = by_op[op]
        c = collections.Counter(r.status for r in rs)
        reasons = collections.Counter(r.reason if r.status != "fail" else "wrong values"
                                      for r in rs if r.status != "pass")
        why = "; ".join(f"{_cell(k)}" + (f" ({v})" if v > 1 else "")
                        for k, v in reasons.most_common(2))
        if len(why) > 160:
            why = why[:157] + "..."
        lines.append(f"| {op} | {'yes' if op in listed else ''} | {len(rs)} | {c['pass']} | "
                     f"{c['fail']} | {c['not supported']} | {c['error']} | {why} |")
    left = [r for r in in_schema if r.status != "pass"]
    lines += ["", f"Tests of operators the schema lowers that do not pass ({len(left)}):", ""]
    for r in sorted(left, key=lambda r: (r.operator.lower(), r.name)):
        lines.append(f"- `{r.name}` ({r.operator}): {r.status}: {_cell(r.reason)}")
    return "\n".join(lines)


def write_docs(text: str, path: str = DOCS):
    with open(path) as f:
        doc = f.read()
    if BEGIN not in doc or END not in doc:
        raise SystemExit(f"onnx_conformance: {path} has no {BEGIN} ... {END} markers")
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    with open(path, "w") as f:
        f.write(head + BEGIN + "\n" + text + "\n" + END + tail)


# ---- command line -----------------------------------------------------------------------------

def _default_tool(*parts) -> str:
    return os.path.join(ROOT, "build", *parts)


def _cases(data: str, pattern: Optional[str]) -> List[str]:
    cases = sorted(d for d in glob.glob(os.path.join(data, "*"))
                   if os.path.isfile(os.path.join(d, "model.onnx")))
    if pattern:
        cases = [c for c in cases if re.search(pattern, os.path.basename(c))]
    return cases


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description="Run ONNX's operator conformance tests (node tests) through the compiler "
                    "(float32) and the host build of the runtime, compare with the expected "
                    "outputs and tabulate per operator (docs/onnx-conformance.md).")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--data", help="the node tests' folder (onnx/backend/test/data/node)")
    where.add_argument("--venv", help="an environment of scripts/onnx-venv.sh holding PyPI "
                       "onnx (its node tests are used)")
    where.add_argument("--make-venv", metavar="DIR", help="make (or reuse, when current) the "
                       "pinned environment in DIR with scripts/onnx-venv.sh and use its tests")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                        help="worker processes (default: the CPU count)")
    parser.add_argument("-k", metavar="REGEX", help="only tests whose name matches")
    parser.add_argument("--host-runner", default=os.environ.get(
        "SOCSIM_HOST_RUNNER", _default_tool("bin", "socsim_host_runner")),
        help="socsim_host_runner (default: $SOCSIM_HOST_RUNNER or build/bin/)")
    parser.add_argument("--sim", type=int, default=0, metavar="N",
                        help="also run N of the passing tests (spread over the operators) on "
                             "the simulator")
    parser.add_argument("--socsim", default=_default_tool("bin", "socsim"))
    parser.add_argument("--firmware", default=_default_tool(
        "firmware", "apps", "executor_runner", "executor_runner.elf"))
    parser.add_argument("--write-docs", action="store_true",
                        help=f"write the table into {os.path.relpath(DOCS, ROOT)}")
    parser.add_argument("--json", metavar="FILE", help="write every result as JSON")
    parser.add_argument("--list", action="store_true", help="print every test's result")
    parser.add_argument("--expect-pass", type=int, metavar="N",
                        help="exit status 1 unless at least N tests pass")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    args = parser.parse_args(argv)
    if args.make_venv:
        made = subprocess.run([os.path.join(ROOT, "scripts", "onnx-venv.sh"), args.make_venv],
                              stdout=subprocess.PIPE, text=True)
        if made.returncode != 0:
            print(f"onnx_conformance: scripts/onnx-venv.sh {args.make_venv} failed",
                  file=sys.stderr)
            return 1
        args.venv = args.make_venv
    data = args.data or (os.path.join(args.venv, NODE_DATA) if args.venv else None)
    if data is None:
        parser.error("give --data DIR or --venv VENV (scripts/onnx-venv.sh makes one)")
    if not os.path.isdir(data):
        parser.error(f"{data}: no such folder")
    if not os.access(args.host_runner, os.X_OK):
        parser.error(f"{args.host_runner}: not an executable (build socsim_host_runner or give "
                     "--host-runner)")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    cases = _cases(data, args.k)
    if not cases:
        parser.error(f"{data}: no node tests" + (f" match '{args.k}'" if args.k else ""))
    results: List[Result] = []
    start = time.time()
    with tempfile.TemporaryDirectory(prefix="onnx-conformance-") as work:
        with multiprocessing.get_context("fork").Pool(
                args.jobs, _init_worker, (args.host_runner, work)) as pool:
            for i, r in enumerate(pool.imap_unordered(run_case, cases, chunksize=4), 1):
                results.append(r)
                if args.list:
                    print(r.line())
                if not args.quiet and (i % 50 == 0 or i == len(cases)):
                    c = collections.Counter(x.status for x in results)
                    print(f"onnx_conformance: [{i:4}/{len(cases)}] " +
                          ", ".join(f"{s} {c[s]}" for s in STATUSES) +
                          f" ({time.time() - start:.0f} s)", file=sys.stderr, flush=True)
        sim = []
        if args.sim:
            sim = _simulator_sample(results, data, args, work)
    results.sort(key=lambda r: r.name)
    count = collections.Counter(r.status for r in results)
    print(f"onnx_conformance: {count['pass']} of {len(results)} node tests pass "
          f"({count['fail']} fail, {count['not supported']} not supported, "
          f"{count['error']} error)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump([dataclasses.asdict(r) for r in results], f, indent=0)
    if args.write_docs:
        source = f"onnx {_onnx_version(data)}'s node tests"
        write_docs(table(results, source))
    if sim and any(r.status != "pass" for r in sim):
        return 1
    if args.expect_pass is not None and count["pass"] < args.expect_pass:
        print(f"onnx_conformance: {count['pass']} pass, fewer than --expect-pass "
              f"{args.expect_pass}", file=sys.stderr)
        return 1
    return 0


def _onnx_version(data: str) -> str:
    meta = glob.glob(os.path.join(data, "..", "..", "..", "..", "..", "onnx-*.dist-info"))
    return re.findall(r"onnx-([\d.]+)\.dist-info", meta[0])[0] if meta else "(PyPI)"


def _simulator_sample(results: List[Result], data: str, args, work: str) -> List[Result]:
    """--sim N: N passing tests that run a kernel, one per operator in turn, on the
    simulator; every output compared as on the host."""
    for tool in (args.socsim, args.firmware):
        if not os.path.exists(tool):
            raise SystemExit(f"onnx_conformance: --sim needs {tool} (build it first)")
    by_op: Dict[str, List[Result]] = collections.defaultdict(list)
    for r in sorted(results, key=lambda r: r.name):
        if r.status == "pass" and not r.folded:
            by_op[r.operator].append(r)
    sample = []
    while len(sample) < args.sim and any(by_op.values()):
        for op in sorted(by_op):
            if by_op[op] and len(sample) < args.sim:
                sample.append(by_op[op].pop(0))
    out = []
    for r in sample:
        s = run_on_simulator(os.path.join(data, r.name), args.socsim, args.firmware, work)
        print(f"onnx_conformance: simulator: {s.line()}", file=sys.stderr, flush=True)
        out.append(s)
    passed = sum(1 for s in out if s.status == "pass")
    print(f"onnx_conformance: simulator: {passed} of {len(out)} sampled tests pass")
    return out


if __name__ == "__main__":
    sys.exit(main())
