#!/usr/bin/env python3
"""Helpers of build.sh (standard library only).

  prepare.py ops FLATC SCHEMA_DIR WORK_DIR PTE...
      The operators the programs call, as ExecuTorch's selective build names them
      ("aten::add.out"), comma-separated: each program is turned into JSON by flatc with the
      checkout's schema and its execution plans' operator tables are read.
  prepare.py sources ET_ROOT OPS
      The kernel sources that define those operators' kernels, ';'-separated: the kernel
      function named by kernels/portable/functions.yaml or kernels/quantized/quantized.yaml,
      found in the .cpp file that defines it (or, for a kernel a macro defines, names it).
"""

import json
import os
import re
import subprocess
import sys

YAMLS = (("kernels/portable/functions.yaml", "kernels/portable/cpu"),
         ("kernels/quantized/quantized.yaml", "kernels/quantized/cpu"))


def program_operators(flatc, schema_dir, work, pte):
    os.makedirs(work, exist_ok=True)
    size = os.path.getsize(pte)
    # A program with an extended header still starts with the FlatBuffer; flatc reads it as is.
    cmd = [flatc, "--json", "--strict-json", "--raw-binary", "--defaults-json",
           "-o", work, os.path.join(schema_dir, "program.fbs"), "--", pte]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"prepare.py: flatc could not read {pte} ({size} bytes): "
                 f"{proc.stderr.strip() or proc.stdout.strip()}")
    name = os.path.splitext(os.path.basename(pte))[0] + ".json"
    with open(os.path.join(work, name)) as f:
        return operators_of(f.read())


def operators_of(flatc_json):
    """The operator names of a program as flatc's JSON of it gives them, in order."""
    # flatc writes infinite and NaN doubles as bare inf/nan, which JSON has not
    text = re.sub(r"(?<=[:\[,\s])-?(?:inf|nan)(?=[\s,\]}])", "null", flatc_json)
    program = json.loads(text)
    ops = []
    for plan in program.get("execution_plan", []):
        for op in plan.get("operators", []):
            overload = op.get("overload", "")
            ops.append(op["name"] + ("." + overload if overload else ""))
    return ops


def kernel_table(et_root):
    """{"aten::add.out": (kernel function, cpu source folder)} from the checkout's yaml files."""
    table = {}
    for yaml_path, folder in YAMLS:
        current = None
        with open(os.path.join(et_root, yaml_path)) as f:
            for line in f:
                m = re.match(r"^- (?:op|func):\s*([\w:.]+)", line)
                if m:
                    current = m.group(1)
                    if "::" not in current:
                        current = "aten::" + current
                    continue
                m = re.match(r"^\s+kernel_name:\s*([\w:]+)", line)
                if m and current and current not in table:
                    table[current] = (m.group(1).split("::")[-1], folder)
    return table


def kernel_sources(et_root, ops):
    table = kernel_table(et_root)
    found, missing = [], []
    cache = {}
    for op in ops:
        if op not in table:
            missing.append(op)
            continue
        fn, folder = table[op]
        cpu = os.path.join(et_root, folder)
        if folder not in cache:
            cache[folder] = {}
            for name in sorted(os.listdir(cpu)):
                if name.endswith(".cpp"):
                    with open(os.path.join(cpu, name)) as f:
                        cache[folder][name] = f.read()
        definition = re.compile(r"^[A-Za-z].*[&\s*]" + re.escape(fn) + r"\(", re.M)
        files = [n for n, text in cache[folder].items() if definition.search(text)]
        if not files:
            # kernels defined by a macro (e.g. a unary function's): the file naming the
            # kernel, preferring op_<operator>.cpp
            word = re.compile(r"\b" + re.escape(fn) + r"\b")
            base = "op_" + op.split("::")[-1].split(".")[0] + ".cpp"
            files = sorted((n for n, text in cache[folder].items() if word.search(text)),
                           key=lambda n: n != base)
        if not files:
            missing.append(op)
            continue
        path = os.path.join(cpu, files[0])
        if path not in found:
            found.append(path)
    if missing:
        sys.exit("prepare.py: no kernel source in the checkout for " + ", ".join(missing))
    return found


def main(argv):
    if len(argv) >= 5 and argv[1] == "ops":
        ops = []
        for pte in argv[5:]:
            for op in program_operators(argv[2], argv[3], argv[4], pte):
                if op not in ops:
                    ops.append(op)
        print(",".join(ops))
        return 0
    if len(argv) == 4 and argv[1] == "sources":
        print(";".join(kernel_sources(argv[2], [o for o in argv[3].split(",") if o])))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
