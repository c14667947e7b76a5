"""`socsim run` cases that need more than an exit status and a pattern: runs stopped from
outside, a report folder that goes away during the run, file names that are not UTF-8.

  run_cases.py signal SOCSIM FIRMWARE REPORT_DIR INT|TERM [socsim run options...]
      starts the run, sends the signal once it has simulated for a while, and checks the
      status (130 / 143), the position printed (cycle and pc) and summary.json
      ("status": "interrupted").
  run_cases.py report-removed SOCSIM FIRMWARE REPORT_DIR [socsim run options...]
      removes the report folder while the run goes on (the run must end by itself, e.g.
      with --max-host-seconds): the run's own status stays, the lost report is told.
  run_cases.py non-utf8 SOCSIM FIRMWARE REPORT_DIR [socsim run options...]
      runs a copy of FIRMWARE whose file name is not UTF-8: summary.json is valid JSON.
  run_cases.py record SOCSIM FIRMWARE REPORT_DIR MODEL INPUT [socsim run options...]
      runs FIRMWARE with MODEL and INPUT and firmware arguments; summary.json's record has
      the command line, each file's path, size and SHA-256 (checked against hashlib), the
      arguments, socsim's version (as `socsim --version` prints it), the host time and the
      effective configuration (presets merged).
"""
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def start(socsim, firmware, report, extra):
    shutil.rmtree(report, ignore_errors=True)
    cmd = [socsim, "run", "--firmware", firmware, "--report", report] + extra
    print(" ".join(map(os.fsdecode, cmd)))
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def finish(proc, timeout=60):
    out, err = proc.communicate(timeout=timeout)
    text = out.decode(errors="replace") + err.decode(errors="replace")
    print(text)
    return proc.returncode, text


def summary(report):
    with open(os.path.join(report, "summary.json"), "rb") as f:
        return json.loads(f.read().decode("utf-8"))


def case_signal(socsim, firmware, report, name, extra):
    signum = {"INT": signal.SIGINT, "TERM": signal.SIGTERM}[name]
    proc = start(socsim, firmware, report, extra)
    time.sleep(1.0)  # well into the simulation
    proc.send_signal(signum)
    status, text = finish(proc)
    if status != 128 + signum:
        fail(f"exit status {status}, expected {128 + signum}")
    match = re.search(r"interrupted by SIG%s at cycle ([0-9]+), pc 0x[0-9a-f]{8}" % name, text)
    if not match or int(match.group(1)) == 0:
        fail("no message naming the signal, a cycle and the pc")
    if not re.search(r"^INTERRUPTED @ cycle [0-9]+ ", text, re.M):
        fail("no INTERRUPTED end-of-run line")
    s = summary(report)
    if s["status"] != "interrupted" or s["exit_code"] != 128 + signum:
        fail(f"summary.json: status {s['status']!r}, exit_code {s['exit_code']}")
    if s["cycles"] <= 0:
        fail("summary.json: no cycles")
    if not os.path.exists(os.path.join(report, "probes.json")):
        fail("probes.json not written")


def case_report_removed(socsim, firmware, report, extra):
    proc = start(socsim, firmware, report, extra)
    time.sleep(0.5)
    shutil.rmtree(report)
    status, text = finish(proc)
    if status != 124:
        fail(f"exit status {status}, expected the run's own 124")
    told = "not written whole (exit status 124, the run's)"
    if "cannot write" not in text or told not in text:
        fail("the lost report is not told")


def case_non_utf8(socsim, firmware, report, extra):
    folder = os.path.join(os.fsencode(report) + b".fw")
    os.makedirs(folder, exist_ok=True)
    odd = os.path.join(folder, b"fw-\xff\xfe.elf")
    shutil.copyfile(firmware, odd)
    proc = start(socsim, odd, report, extra)
    status, _ = finish(proc)
    if status != 0:
        fail(f"exit status {status}, expected 0")
    s = summary(report)  # raises on invalid JSON
    if "\ufffd" not in s["firmware"] or "\ufffd" not in s["inputs"]["firmware"]["path"]:
        fail(f"firmware path {s['firmware']!r}: the bytes that are not UTF-8 should read U+FFFD")
    with open(os.path.join(report, "probes.json"), "rb") as f:
        json.loads(f.read().decode("utf-8"))


def case_record(socsim, firmware, report, model, data, extra):
    args = ["--model", model, "--input", data] + extra + ["--", "alpha", "beta gamma"]
    proc = start(socsim, firmware, report, args)
    finish(proc)
    s = summary(report)
    want_cmd = [socsim, "run", "--firmware", firmware, "--report", report] + args
    if s["command_line"] != ["socsim"] + want_cmd[1:]:
        fail(f"command_line {s['command_line']!r}")
    for key, path in (("firmware", firmware), ("model", model), ("input", data)):
        entry = s["inputs"][key]
        with open(path, "rb") as f:
            content = f.read()
        want = {"path": path, "bytes": len(content),
                "sha256": hashlib.sha256(content).hexdigest()}
        if entry != want:
            fail(f"inputs.{key} = {entry!r}, expected {want!r}")
    if len(s["inputs"]["config"]["sha256"]) != 64:
        fail("inputs.config has no SHA-256")
    if s["firmware_args"] != ["alpha", "beta gamma"]:
        fail(f"firmware_args {s['firmware_args']!r}")
    version = subprocess.run([socsim, "--version"], capture_output=True, text=True)
    if version.returncode != 0:
        fail("socsim --version failed")
    tool = s["tool"]
    if version.stdout.strip() != f"socsim {tool['version']} ({tool['git_describe']})":
        fail(f"tool {tool!r} is not what --version prints: {version.stdout!r}")
    if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z",
                        s["host"]["started_utc"]):
        fail(f"host.started_utc {s['host']['started_utc']!r}")
    if not 0 < s["host"]["wall_seconds"] < 600 or s["host"]["wall_seconds"] < s["host_seconds"]:
        fail(f"host.wall_seconds {s['host']['wall_seconds']} (simulation {s['host_seconds']})")
    # The effective configuration: the DDR and NPU presets merged in, not just the SoC file.
    for key in ("tRCD:", "rows:", "fetch_wrap:"):
        if key not in s["config"]["yaml"]:
            fail(f"config.yaml lacks {key!r}: not the effective configuration")


def main():
    case, socsim, firmware, report = sys.argv[1:5]
    rest = sys.argv[5:]
    if case == "signal":
        case_signal(socsim, firmware, report, rest[0], rest[1:])
    elif case == "report-removed":
        case_report_removed(socsim, firmware, report, rest)
    elif case == "non-utf8":
        case_non_utf8(socsim, firmware, report, rest)
    elif case == "record":
        case_record(socsim, firmware, report, rest[0], rest[1], rest[2:])
    else:
        fail(f"unknown case {case}")
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
