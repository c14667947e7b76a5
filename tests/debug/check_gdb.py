#!/usr/bin/python3
"""GDB against `socsim run --gdb`, end to end.

  session:   gdb-multiarch in batch mode on firmware/tests/debug_check.elf: break at main,
             next, step into a function, read a variable, a watchpoint that fires twice with
             the right old and new values, a monitor command, a CSR, continue to the exit.
  interrupt: the raw protocol over a socket on a program that spins forever: continue, then
             the Ctrl-C byte stops it (T02), registers can be read, and kill ends the run.
  wait:      no client: socsim waits blocked (at most 5 % of a core over 2 s) and SIGINT,
             then SIGTERM in a second run, end the wait with a message and 130 / 143.

socsim listens on a port the system chooses (--gdb 0) and names it on stderr.
"""
import argparse
import os
import re
import signal
import socket
import subprocess
import sys
import time


STARTED = []  # socsim processes, ended at exit whatever happens


def start_socsim(socsim, cpu, firmware):
    proc = subprocess.Popen([socsim, "run", "--cpu", cpu, "--firmware", firmware, "--gdb", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    STARTED.append(proc)
    line = proc.stderr.readline()
    match = re.search(r"waiting for GDB on 127\.0\.0\.1:(\d+)", line)
    if not match:
        proc.kill()
        sys.exit(f"check_gdb: socsim did not announce its port: {line!r}")
    return proc, int(match.group(1))


def finish(proc, timeout=60):
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        sys.exit(f"check_gdb: socsim did not end within {timeout} s:\n{out}{err}")
    return proc.returncode, out, err


def expect(text, pattern, what):
    if not re.search(pattern, text, re.MULTILINE):
        sys.exit(f"check_gdb: {what}: /{pattern}/ not found in:\n{text}")


def session(args):
    proc, port = start_socsim(args.socsim, args.cpu, args.firmware)
    commands = [
        "set pagination off", "set confirm off", f"target remote :{port}",
        "break main", "continue", "next", "step", "print debug_counter", "print value",
        "watch debug_counter", "continue", "continue", "print debug_counter", "delete",
        "monitor cycles", "info registers misa", "info registers pc", "continue",
    ]
    cmd = [args.gdb, "-nx", "-batch"] + [a for c in commands for a in ("-ex", c)] + [args.firmware]
    gdb = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         timeout=120)
    rc, out, err = finish(proc)
    text = gdb.stdout
    print(text)
    expect(text, r"Breakpoint 1, main \(\) at .*debug_check\.c:\d+", "stop at main")
    expect(text, r"debug_add \(total=[^,]*0, value=[^)]*1\) at .*debug_check\.c:9",
           "step into debug_add")
    expect(text, r"^\$1 = 5$", "debug_counter before the first call")
    expect(text, r"^\$2 = 1$", "argument value")
    expect(text, r"Hardware watchpoint 2: debug_counter\s+Old value = 5\s+New value = 6",
           "first watchpoint hit")
    expect(text, r"Old value = 6\s+New value = 8", "second watchpoint hit")
    expect(text, r"^\$3 = 8$", "debug_counter after two calls")
    # The ISS takes the RTL core's cycles: exact on both models.
    expect(text, r"cycle \d+ \(exact\), \d+ instructions retired", "monitor cycles")
    expect(text, r"misa\s+0x40001104", "misa CSR")
    expect(text, r"Inferior 1 \(Remote target\) exited normally", "exit reported to GDB")
    if gdb.returncode != 0 or rc != 0:
        sys.exit(f"check_gdb: gdb status {gdb.returncode}, socsim status {rc}\n{err}")
    expect(out, r"debug_check: total 10, counter 15", "the program ran to its end")


class Remote:
    """Just enough of the remote protocol to drive a stub by hand."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.buf = b""

    def send(self, payload):
        data = payload.encode()
        self.sock.sendall(b"$%s#%02x" % (data, sum(data) & 0xFF))

    def reply(self):
        while True:
            match = re.search(rb"\$([^#]*)#[0-9a-f]{2}", self.buf)
            if match:
                self.buf = self.buf[match.end():]
                self.sock.sendall(b"+")
                return match.group(1).decode()
            chunk = self.sock.recv(4096)
            if not chunk:
                sys.exit("check_gdb: the stub closed the connection")
            self.buf += chunk

    def ask(self, payload):
        self.send(payload)
        return self.reply()


def interrupt(args):
    proc, port = start_socsim(args.socsim, args.cpu, args.firmware)
    remote = Remote(port)
    if "qXfer:features:read+" not in remote.ask("qSupported:swbreak+"):
        sys.exit("check_gdb: the stub announces no target description")
    regs_before = remote.ask("g")
    remote.send("c")
    time.sleep(0.5)
    remote.sock.sendall(b"\x03")
    stop = remote.reply()
    if stop != "T02":
        sys.exit(f"check_gdb: Ctrl-C: expected T02, got {stop!r}")
    pc_after = remote.ask("p20")
    regs = remote.ask("g")
    # The program counts in a register while it spins.
    if len(regs) != 33 * 8 or regs == regs_before:
        sys.exit(f"check_gdb: after Ctrl-C: registers {regs_before!r} -> {regs!r}")
    cycles = remote.ask("qRcmd," + b"cycles".hex())
    text = bytes.fromhex(cycles).decode()
    count = int(re.search(r"cycle (\d+)", text).group(1))
    if count < 1000:
        sys.exit(f"check_gdb: after half a second only {count} cycles ran: {text}")
    remote.send("k")
    rc, out, err = finish(proc)
    if rc != 3 or "stopped by the debugger" not in out + err:
        sys.exit(f"check_gdb: kill: socsim status {rc}\n{out}{err}")
    pc = int.from_bytes(bytes.fromhex(pc_after), "little")
    print(f"Ctrl-C stopped the core at pc {pc:#x} after {count} cycles; kill ended the run")


def cpu_seconds(pid):
    """User + system CPU time of a process so far (/proc/PID/stat, fields 14 and 15)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait(args):
    for signal_number, status in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
        proc, _ = start_socsim(args.socsim, args.cpu, args.firmware)
        before = cpu_seconds(proc.pid)
        time.sleep(2)
        used = cpu_seconds(proc.pid) - before
        proc.send_signal(signal_number)
        rc, out, err = finish(proc, timeout=10)
        name = signal.Signals(signal_number).name
        if used > 0.1:
            sys.exit(f"check_gdb: waiting for GDB took {used:.2f} s of CPU time in 2 s")
        if rc != status or f"stopped by {name} while waiting for GDB" not in err:
            sys.exit(f"check_gdb: {name} while waiting: socsim status {rc}\n{out}{err}")
        print(f"{name}: waited 2 s using {used:.2f} s of CPU time, then status {rc}: "
              f"{err.strip()}")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["session", "interrupt", "wait"])
    parser.add_argument("--socsim", required=True)
    parser.add_argument("--gdb", default="gdb-multiarch")
    parser.add_argument("--cpu", choices=["iss", "rtl"], required=True)
    parser.add_argument("--firmware", required=True)
    args = parser.parse_args()
    try:
        {"session": session, "interrupt": interrupt, "wait": wait}[args.mode](args)
    finally:
        for proc in STARTED:
            if proc.poll() is None:
                proc.kill()


if __name__ == "__main__":
    main()
