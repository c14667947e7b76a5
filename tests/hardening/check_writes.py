#!/usr/bin/python3
"""Every output file of `socsim run` is checked when it is written (docs/platform.md,
"Exit status"): a file that cannot be made is an input error before the run (status 2,
naming the path); one that cannot be written whole (a full disk, a file size limit) is
named on stderr at the end and turns the status 0 into 74.

Full disks without privileges: /dev/full (every write fails with ENOSPC), a report file
made a symbolic link to /dev/full, and a file size limit (RLIMIT_FSIZE, with SIGXFSZ
ignored, so a write past it fails with EFBIG: a disk that fills up mid-file). A path under
a regular file stands for a folder that cannot be written (root ignores permissions).

Usage: check_writes.py --socsim BIN --signature-elf ELF --profile-elf ELF --out DIR
"""
import argparse
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys

FAILURES = []


def run(args, socsim, *extra, limit=None):
    def limit_size():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    proc = subprocess.run([socsim, "run", "--cpu", "iss", *extra], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=120,
                          preexec_fn=limit_size if limit else None)
    return proc.returncode, proc.stdout, proc.stderr


def check(name, ok, detail):
    print(("ok   " if ok else "FAIL ") + name)
    if not ok:
        FAILURES.append(name)
        print(detail)


def expect(name, result, status, patterns):
    rc, out, err = result
    missing = [p for p in patterns if not re.search(p, err, re.MULTILINE)]
    check(name, rc == status and not missing,
          f"  status {rc} (expected {status}); missing on stderr: {missing}\n"
          f"  stdout: {out[-2000:]}\n  stderr: {err[-2000:]}")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--socsim", required=True)
    parser.add_argument("--signature-elf", required=True)
    parser.add_argument("--profile-elf", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(args.out)
    plain = os.path.join(args.out, "plain_file")
    with open(plain, "w") as f:
        f.write("x")

    # --signature
    good = os.path.join(args.out, "signature.txt")
    rc, out, err = run(args, args.socsim, "--firmware", args.signature_elf, "--signature", good)
    with open(good) as f:
        text = f.read()
    check("signature written", rc == 0 and text == "11223344\n" * 4, f"{rc} {text!r} {err}")
    expect("signature to /dev/full",
           run(args, args.socsim, "--firmware", args.signature_elf, "--signature", "/dev/full"),
           74, [r"--signature /dev/full: cannot write the 36-byte signature: "
                r"No space left on device",
                r"1 output file not written whole \(exit status 74\)"])
    for what, path in (("in a missing folder", os.path.join(args.out, "no", "such", "sig.txt")),
                       ("under a regular file", os.path.join(plain, "sig.txt"))):
        expect(f"signature {what}",
               run(args, args.socsim, "--firmware", args.signature_elf, "--signature", path), 2,
               [re.escape(f"--signature {path}: cannot write: ")])

    # --trace-instr
    expect("trace to /dev/full",
           run(args, args.socsim, "--firmware", args.signature_elf, "--trace-instr", "/dev/full"),
           74, [r"--trace-instr /dev/full: cannot write the trace: No space left on device"])
    expect("trace under a regular file",
           run(args, args.socsim, "--firmware", args.signature_elf, "--trace-instr",
               os.path.join(plain, "trace.txt")), 2, [r"--trace-instr .*: cannot write"])
    trace = os.path.join(args.out, "trace_limited.txt")
    expect("trace on a full disk (file size limit)",
           run(args, args.socsim, "--firmware", args.profile_elf, "--trace-instr", trace,
               limit=4096), 74, [re.escape(f"--trace-instr {trace}: cannot write the trace: "
                                           "File too large")])

    # --report: every file that could not be written is named.
    report = os.path.join(args.out, "report_full")
    expect("report on a full disk (file size limit)",
           run(args, args.socsim, "--firmware", args.profile_elf, "--profile", "--report",
               report, limit=2048), 74,
           [r"cannot write .*/callgrind.out.socsim: File too large",
            r"cannot write .*/summary.json: File too large",
            r"output files? not written whole \(exit status 74\)"])
    # Which files are damaged: each one over the limit, and each one named.
    rc, out, err = run(args, args.socsim, "--firmware", args.profile_elf, "--profile", "--report",
                       report, limit=2048)
    named = set(re.findall(r"cannot write .*/([^/:]+): ", err))
    damaged = {n for n in os.listdir(report) if os.path.getsize(os.path.join(report, n)) >= 2048}
    check("every damaged report file named", damaged and damaged == named,
          f"  damaged {sorted(damaged)}, named {sorted(named)}\n{err}")
    linked = os.path.join(args.out, "report_linked")
    os.makedirs(linked)
    os.symlink("/dev/full", os.path.join(linked, "probes.json"))
    expect("report file on /dev/full",
           run(args, args.socsim, "--firmware", args.profile_elf, "--report", linked), 74,
           [r"cannot write .*/probes.json: No space left on device"])
    with open(os.path.join(linked, "summary.json")) as f:
        summary = json.load(f)
    check("summary.json tells the damaged file and the status",
          summary["exit_code"] == 74 and summary["status"] == "success" and
          any("probes.json" in e for e in summary["output_errors"]), json.dumps(summary)[:1000])
    # A failed run keeps its own status.
    expect("a failed run keeps its status",
           run(args, args.socsim, "--firmware", args.profile_elf, "--max-cycles", "1000",
               "--trace-instr", "/dev/full"), 124,
           [r"--trace-instr /dev/full: cannot write the trace",
            r"not written whole \(exit status 124, the run's\)"])

    if FAILURES:
        sys.exit(f"check_writes: {len(FAILURES)} failed: {FAILURES}")


if __name__ == "__main__":
    main()
