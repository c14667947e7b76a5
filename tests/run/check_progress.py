#!/usr/bin/python3
"""The progress line of a long run: on a terminal, stderr shows `[socsim] cycle N (T ms
simulated), R M cycles/s` about twice a second (rewritten in place with a carriage return);
a pipe gets none.

Usage: check_progress.py SOCSIM SPIN_ELF
"""
import os
import pty
import re
import subprocess
import sys


def main():
    socsim, spin = sys.argv[1], sys.argv[2]
    command = [socsim, "run", "--cpu", "iss", "--firmware", spin, "--max-cycles", "30000000",
               "--no-probes"]
    controller, terminal = pty.openpty()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=terminal)
    os.close(terminal)
    seen = b""
    while True:
        try:
            chunk = os.read(controller, 4096)
        except OSError:  # the other side closed
            break
        if not chunk:
            break
        seen += chunk
    proc.wait()
    lines = re.findall(rb"\[socsim\] cycle (\d+) \(([0-9.]+) ms simulated\), ([0-9.]+) M cycles/s",
                       seen)
    if proc.returncode != 124 or len(lines) < 2:
        sys.exit(f"check_progress: status {proc.returncode}, {len(lines)} progress lines on "
                 f"the terminal:\n{seen[-2000:]!r}")
    cycles = [int(c) for c, _, _ in lines]
    if cycles != sorted(cycles):
        sys.exit(f"check_progress: cycles not increasing: {cycles}")
    piped = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if b"[socsim] cycle" in piped.stderr:
        sys.exit("check_progress: a progress line on a pipe")
    print(f"{len(lines)} progress lines, the last: cycle {cycles[-1]}, "
          f"{lines[-1][2].decode()} M cycles/s; none on a pipe")


if __name__ == "__main__":
    main()
