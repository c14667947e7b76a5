#!/usr/bin/python3
"""The standard profile files of `socsim run --profile --report DIR`:

  - callgrind.out.socsim read by callgrind_annotate (valgrind) without a warning, with
    source files and lines from DWARF (the program's own file among them), and inclusive
    cost >= self cost for every function (callgrind_annotate --inclusive=yes);
  - the profile table on stdout: incl cycles >= self cycles on every row;
  - profile.speedscope.json: speedscope's file format, its weights adding up to the run;
  - profile.folded adding up to the run;
  - with a hex image and --symbols ELF: the same function names and source lines.

The program uses the __riscv_save_N / __riscv_restore_N millicode (shared bodies reached by
jumps into their middle, a tail jump to the restore), the case that once gave inclusive
below self.
"""
import argparse
import json
import os
import re
import subprocess
import sys

ROW = re.compile(r"^\s*([\d,]+) \([^)]*\)\s+([\d,]+) \([^)]*\)\s+(\S.*)$")


def fail(message):
    sys.exit(f"check_profile: {message}")


def annotate(tool, path, inclusive):
    done = subprocess.run([tool, f"--inclusive={'yes' if inclusive else 'no'}",
                           "--threshold=100", "--auto=no", path],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        fail(f"callgrind_annotate failed ({done.returncode}): {done.stderr}")
    text = done.stdout + done.stderr
    if re.search(r"warning|uninitiali[sz]ed|error", text, re.IGNORECASE):
        fail(f"callgrind_annotate complained:\n{text}")
    rows = {}
    in_functions = False
    for line in done.stdout.splitlines():
        if "file:function" in line:
            in_functions = True
            continue
        match = ROW.match(line)
        if in_functions and match:
            rows[match.group(3)] = int(match.group(1).replace(",", ""))
    if not rows:
        fail(f"no function rows in callgrind_annotate's output:\n{done.stdout}")
    return rows


def run(args, out, firmware, extra):
    cmd = [args.socsim, "run", "--cpu", args.cpu, "--firmware", firmware, "--profile",
           "--profile-top", "1000", "--report", out] + extra
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        fail(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stdout}")
    with open(os.path.join(out, "summary.json")) as f:
        return done.stdout, json.load(f)


def check_table(stdout):
    rows = 0
    lines = stdout.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("Function profile"))
    for line in lines[start + 2:]:
        fields = line.split()
        if len(fields) < 8 or not fields[0].isdigit():
            break
        self_cycles, incl_cycles = int(fields[0]), int(fields[2])
        if incl_cycles < self_cycles:
            fail(f"profile table: inclusive below self: {line}")
        rows += 1
    if rows < 10:
        fail(f"profile table has only {rows} rows")
    return rows


def check_files(args, out, summary, source_name):
    path = os.path.join(out, "callgrind.out.socsim")
    self_rows = annotate(args.annotate, path, inclusive=False)
    incl_rows = annotate(args.annotate, path, inclusive=True)
    for name, cost in self_rows.items():
        if incl_rows.get(name, 0) < cost:
            fail(f"{name}: inclusive {incl_rows.get(name)} below self {cost}")
    if sum(self_rows.values()) != summary["cycles"]:
        fail(f"self cycles add up to {sum(self_rows.values())}, the run took {summary['cycles']}")
    mains = [n for n in self_rows if n.endswith(":main")]
    if not mains or not mains[0].split(":")[0].endswith(source_name):
        fail(f"main is not attributed to {source_name}: {mains}")
    if not any("save-restore.S:__riscv_save_" in n for n in self_rows):
        fail("no __riscv_save_N millicode in the profile")
    with open(path) as f:
        text = f.read()
    if not re.search(rf"^c?f[lie]=\(\d+\) .*{re.escape(source_name)}$", text, re.MULTILINE):
        fail(f"no file line (fl=, fi=, cfl=) names {source_name}")

    with open(os.path.join(out, "profile.speedscope.json")) as f:
        doc = json.load(f)
    if doc.get("$schema") != "https://www.speedscope.app/file-format-schema.json":
        fail("speedscope: wrong $schema")
    frames = doc["shared"]["frames"]
    profile = doc["profiles"][0]
    if profile["type"] != "sampled" or len(profile["samples"]) != len(profile["weights"]):
        fail("speedscope: not a sampled profile with one weight per sample")
    if any(i >= len(frames) for s in profile["samples"] for i in s):
        fail("speedscope: a sample names a frame that does not exist")
    if sum(profile["weights"]) != summary["cycles"] or profile["endValue"] != summary["cycles"]:
        fail(f"speedscope: weights add up to {sum(profile['weights'])}, not {summary['cycles']}")
    with open(os.path.join(out, "profile.folded")) as f:
        folded = sum(int(line.rsplit(" ", 1)[1]) for line in f if line.strip())
    if folded != summary["cycles"]:
        fail(f"folded stacks add up to {folded}, not {summary['cycles']}")
    return len(self_rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--socsim", required=True)
    parser.add_argument("--annotate", default="callgrind_annotate")
    parser.add_argument("--objcopy", required=True)
    parser.add_argument("--firmware", required=True, help="an ELF built with -g")
    parser.add_argument("--cpu", choices=["iss", "rtl"], required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    source_name = os.path.splitext(os.path.basename(args.firmware))[0] + ".c"

    elf_out = os.path.join(args.out, "elf")
    stdout, summary = run(args, elf_out, args.firmware, [])
    rows = check_table(stdout)
    functions = check_files(args, elf_out, summary, source_name)

    hex_image = os.path.join(args.out, "firmware.hex")
    subprocess.run([args.objcopy, "-O", "verilog", args.firmware, hex_image], check=True)
    hex_out = os.path.join(args.out, "hex")
    _, hex_summary = run(args, hex_out, hex_image, ["--symbols", args.firmware])
    if hex_summary["cycles"] != summary["cycles"]:
        fail(f"the hex image ran {hex_summary['cycles']} cycles, the ELF {summary['cycles']}")
    check_files(args, hex_out, hex_summary, source_name)
    print(f"{functions} functions, {rows} table rows: inclusive >= self everywhere; "
          "callgrind_annotate silent; speedscope and folded add up; --symbols works")


if __name__ == "__main__":
    main()
