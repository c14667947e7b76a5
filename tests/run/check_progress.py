#!/usr/bin/python3
"""The progress line of a long run: on a terminal, stderr shows `[socsim] cycle N (T ms
simulated), R M cycles/s` about twice a second (rewritten in place with a carriage return);
a pipe gets none.

The run on the terminal has no practical cycle limit: once three progress lines have been
seen it is interrupted (SIGINT, documented status 130), so the check does not depend on how
fast the host simulates. A run that shows no progress line within 30 s fails.

Usage: check_progress.py SOCSIM SPIN_ELF
"""
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time

LINE = re.compile(rb"\[socsim\] cycle (\d+) \(([0-9.]+) ms simulated\), ([0-9.]+) M cycles/s")


def main():
    socsim, spin = sys.argv[1], sys.argv[2]
    command = [socsim, "run", "--cpu", "iss", "--firmware", spin, "--no-probes"]
    controller, terminal = pty.openpty()
    proc = subprocess.Popen(command + ["--max-cycles", "4000000000000"],
                            stdout=subprocess.DEVNULL, stderr=terminal)
    os.close(terminal)
    seen = b""
    deadline = time.monotonic() + 30.0
    interrupted = False
    while True:
        if not interrupted and (len(LINE.findall(seen)) >= 3 or time.monotonic() > deadline):
            proc.send_signal(signal.SIGINT)
            interrupted = True
        ready, _, _ = select.select([controller], [], [], 0.2)
        if not ready:
            if proc.poll() is not None and interrupted:
                break
            continue
        try:
            chunk = os.read(controller, 4096)
        except OSError:  # the other side closed
            break
        if not chunk:
            break
        seen += chunk
    proc.wait()
    lines = LINE.findall(seen)
    if proc.returncode != 130 or len(lines) < 3:
        sys.exit(f"check_progress: status {proc.returncode} (130 expected after SIGINT), "
                 f"{len(lines)} progress lines on the terminal:\n{seen[-2000:]!r}")
    cycles = [int(c) for c, _, _ in lines]
    if cycles != sorted(cycles) or cycles[0] == cycles[-1]:
        sys.exit(f"check_progress: cycles not increasing: {cycles}")
    piped = subprocess.run(command + ["--max-cycles", "30000000"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if piped.returncode != 124:
        sys.exit(f"check_progress: the piped run ended with status {piped.returncode}, "
                 f"124 expected (cycle limit)")
    if b"[socsim] cycle" in piped.stderr:
        sys.exit("check_progress: a progress line on a pipe")
    print(f"{len(lines)} progress lines, the last: cycle {cycles[-1]}, "
          f"{lines[-1][2].decode()} M cycles/s; none on a pipe")


if __name__ == "__main__":
    main()
