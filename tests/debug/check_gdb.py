#!/usr/bin/python3
"""GDB against `socsim run --gdb`, end to end.

  session:   gdb-multiarch in batch mode on firmware/tests/debug_check.elf: break at main,
             next, step into a function, read a variable, a watchpoint that fires twice with
             the right old and new values, a monitor command, a CSR, continue to the exit.
  interrupt: the raw protocol over a socket on a program that spins forever: continue, then
             the Ctrl-C byte stops it (T02), registers can be read, and kill ends the run.
  wait:      no client: socsim waits blocked (at most 5 % of a core over 2 s) and SIGINT,
             then SIGTERM in a second run, end the wait with a message and 130 / 143.
  signals:   a client attached: SIGINT while it has sent nothing, SIGTERM while the core is
             stopped at a breakpoint, SIGINT while it runs: each ends the run with 130 / 143
             and a report marked interrupted, and GDB is told the program was terminated.
  flood:     `$` and then 64 MiB without `#`: the stub closes the connection at the
             announced PacketSize instead of buffering it (peak memory stays small), and the
             run goes on to its end.
  regwrite:  a register write at an exact boundary: at a breakpoint on debug_add's first
             instruction, its argument a1 (value, which that very instruction's successors
             use) set to 100: the first call adds 100 (total 109, counter 114, exit 1).
  pcwrite:   pc writes: `return 7` at debug_add's first instruction (a0 = 7, pc = ra: the
             body is skipped), then at the next call `jump` to its `ret` (the body skipped
             again, a0 unchanged): total 14, counter 12, exit 1.
  gpacket:   the raw protocol: at the breakpoint a `G` packet with a1 changed (the values
             read with `g`, one edited) answers OK, `p` reads the new value back, and the
             program ends as with regwrite.
  same:      regwrite and pcwrite on both CPU models, with `monitor cycles` at each stop:
             the ISS and the RTL core print the same cycles, output and exit status.
  range:     gdb-multiarch `next` over a one-line loop (20,000 iterations) reaches the next
             line within 10 s: GDB range-steps (vCont;r), the stub keeps stepping while
             the pc stays on the line. --compare also times it with range stepping off.

socsim listens on a port the system chooses (--gdb 0) and names it on stderr.
"""
import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time


STARTED = []  # socsim processes, ended at exit whatever happens


def start_socsim(socsim, cpu, firmware, *extra):
    proc = subprocess.Popen([socsim, "run", "--cpu", cpu, "--firmware", firmware, "--gdb", "0",
                             *extra],
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


def report_summary(report):
    with open(os.path.join(report, "summary.json")) as f:
        return json.load(f)


def signals(args):
    os.makedirs(args.out, exist_ok=True)
    cases = (("silent", signal.SIGINT, 130), ("breakpoint", signal.SIGTERM, 143),
             ("running", signal.SIGINT, 130))
    for case, signal_number, status in cases:
        report = os.path.join(args.out, f"signal_{case}")
        firmware = args.spin if case == "running" else args.firmware
        proc, port = start_socsim(args.socsim, args.cpu, firmware, "--report", report)
        remote = Remote(port)
        if case == "breakpoint":
            remote.ask("qSupported:swbreak+")
            main = symbol_address(args.firmware, "main")
            if remote.ask(f"Z0,{main:x},2") != "OK":
                sys.exit("check_gdb: cannot set a breakpoint")
            remote.send("c")
            stop = remote.reply()
            if not stop.startswith("T05"):
                sys.exit(f"check_gdb: expected the breakpoint's stop, got {stop!r}")
        elif case == "running":
            remote.send("c")
        time.sleep(0.5)
        proc.send_signal(signal_number)
        rc, out, err = finish(proc, timeout=20)
        name = signal.Signals(signal_number).name
        if rc != status or f"interrupted by {name}" not in err:
            sys.exit(f"check_gdb: {name} with a client ({case}): status {rc}\n{out}{err}")
        summary = report_summary(report)
        if summary["status"] != "interrupted" or summary["exit_code"] != status:
            sys.exit(f"check_gdb: {case}: summary.json says {summary['status']}, "
                     f"{summary['exit_code']}")
        # The client hears how the program ended (an X packet with the signal).
        remote.sock.settimeout(5)
        heard = remote.buf
        try:
            while True:
                chunk = remote.sock.recv(4096)
                if not chunk:
                    break
                heard += chunk
        except OSError:
            pass
        if b"$X%02x" % signal_number not in heard:
            sys.exit(f"check_gdb: {case}: GDB was not told of the end: {heard[-200:]!r}")
        print(f"{name} with a client ({case}): status {rc}, report interrupted: "
              f"{err.strip().splitlines()[-1]}")


def peak_rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0.0


def flood(args):
    proc, port = start_socsim(args.socsim, args.cpu, args.firmware)
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    before = peak_rss_mib(proc.pid)
    sent = 0
    chunk = b"a" * (1 << 20)
    try:
        sock.sendall(b"$")
        while sent < 64 << 20:
            sock.sendall(chunk)
            sent += len(chunk)
    except OSError:
        pass  # the stub closed the connection: what is expected
    time.sleep(0.2)
    peak = peak_rss_mib(proc.pid) if proc.poll() is None else before
    sock.close()
    rc, out, err = finish(proc, timeout=60)
    if "longer than the announced PacketSize" not in err or rc != 0:
        sys.exit(f"check_gdb: flood: status {rc}\n{out[-2000:]}{err[-2000:]}")
    if peak - before > 32:
        sys.exit(f"check_gdb: flood: peak memory grew by {peak - before:.0f} MiB")
    print(f"flood: {sent >> 20} MiB sent before the stub closed the connection; peak memory "
          f"{before:.0f} -> {peak:.0f} MiB; the run went on to status {rc}")


def symbol_address(elf, name):
    nm = subprocess.run(["riscv64-unknown-elf-nm", elf], stdout=subprocess.PIPE, text=True,
                        check=True).stdout
    for line in nm.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[2] == name:
            return int(fields[0], 16)
    sys.exit(f"check_gdb: no symbol {name} in {elf}")


def range_step(args):
    times = {}
    for mode in ("on", "off") if args.compare else ("on",):
        proc, port = start_socsim(args.socsim, args.cpu, args.firmware)
        commands = ["set pagination off", "set confirm off", f"set range-stepping {mode}",
                    f"target remote :{port}", "break main", "continue", "next", "next",
                    "info line *$pc", "kill"]
        cmd = [args.gdb, "-nx", "-batch"] + [a for c in commands for a in ("-ex", c)]
        cmd.append(args.firmware)
        start = time.monotonic()
        gdb = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             timeout=600)
        times[mode] = time.monotonic() - start
        finish(proc)
        expect(gdb.stdout, r"printf\(\"debug_loop: sink", f"next over the loop ({mode})")
        print(f"range stepping {mode}: break main, next, next in {times[mode]:.2f} s")
    if times["on"] > 10:
        sys.exit(f"check_gdb: next over the loop took {times['on']:.1f} s with range stepping")


def run_gdb_script(args, cpu, commands):
    """Runs gdb-multiarch with `commands` against a socsim of `cpu`: (transcript, status, out)."""
    proc, port = start_socsim(args.socsim, cpu, args.firmware)
    commands = ["set pagination off", "set confirm off", f"target remote :{port}"] + commands
    cmd = [args.gdb, "-nx", "-batch"] + [a for c in commands for a in ("-ex", c)] + [args.firmware]
    gdb = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         timeout=120)
    rc, out, err = finish(proc)
    return gdb.stdout, rc, out + err


REGWRITE = ["break debug_add", "continue", "monitor cycles", "set $a1 = 100", "print $a1",
            "continue", "monitor cycles", "print total", "delete", "continue"]


def check_regwrite(text, rc, out):
    expect(text, r"Breakpoint 1, debug_add \(total=[^,]*0, value=[^)]*1\)", "stop in debug_add")
    if "E02" in text or "Could not write" in text:
        sys.exit(f"check_gdb: a register write was refused:\n{text}")
    expect(text, r"^\$1 = 100$", "a1 written")
    # The second call gets the total of the first: 0 + 100.
    expect(text, r"^\$2 = 100$", "the first call added the new value")
    expect(text, r"exited with code 01", "the program saw the new argument")
    expect(out, r"debug_check: total 109, counter 114", "100 + 2 + 3 + 4, 5 + 100 + 9")
    if rc != 1:
        sys.exit(f"check_gdb: socsim status {rc}, not 1\n{out}")


def register_writes(args):
    text, rc, out = run_gdb_script(args, args.cpu, REGWRITE)
    print(text)
    check_regwrite(text, rc, out)


def ret_address(elf, function):
    """The address of the `ret` in `function` (a leaf with one return)."""
    dump = subprocess.run(["riscv64-unknown-elf-objdump", "-d", f"--disassemble={function}", elf],
                          stdout=subprocess.PIPE, text=True, check=True).stdout
    rets = re.findall(r"^\s*([0-9a-f]+):\s+[0-9a-f]+\s+ret\b", dump, re.MULTILINE)
    if len(rets) != 1:
        sys.exit(f"check_gdb: {function}: expected one ret, found {rets}")
    return int(rets[0], 16)


def pcwrite_commands(args):
    return ["break debug_add", "continue", "monitor cycles", "return 7", "continue",
            "monitor cycles", f"jump *{ret_address(args.firmware, 'debug_add'):#x}",
            "monitor cycles", "delete", "continue"]


def check_pcwrite(text, rc, out):
    if "E02" in text or "Could not write" in text:
        sys.exit(f"check_gdb: a register write was refused:\n{text}")
    # The second call sees the 7 the first returned; the third the 7 the second left in a0.
    expect(text, r"Breakpoint 1, debug_add \(total=[^,]*7, value=[^)]*2\)", "return 7")
    expect(text, r"Breakpoint 1, debug_add \(total=[^,]*7, value=[^)]*3\)", "jump over the body")
    expect(text, r"exited with code 01", "the program saw the skipped calls")
    expect(out, r"debug_check: total 14, counter 12", "7 + 3 + 4, 5 + 3 + 4")
    if rc != 1:
        sys.exit(f"check_gdb: socsim status {rc}, not 1\n{out}")


def pc_writes(args):
    text, rc, out = run_gdb_script(args, args.cpu, pcwrite_commands(args))
    print(text)
    check_pcwrite(text, rc, out)


def g_packet(args):
    proc, port = start_socsim(args.socsim, args.cpu, args.firmware)
    remote = Remote(port)
    remote.ask("qSupported:swbreak+")
    add = symbol_address(args.firmware, "debug_add")
    if remote.ask(f"Z0,{add:x},2") != "OK":
        sys.exit("check_gdb: Z0 refused")
    stop = remote.ask("c")
    if not stop.startswith("T05"):
        sys.exit(f"check_gdb: expected a breakpoint stop, got {stop!r}")
    regs = remote.ask("g")
    if len(regs) != 33 * 8 or int.from_bytes(bytes.fromhex(regs[32 * 8:]), "little") != add:
        sys.exit(f"check_gdb: g at the breakpoint: {regs!r}")
    edited = regs[:11 * 8] + (100).to_bytes(4, "little").hex() + regs[12 * 8:]
    answer = remote.ask("G" + edited)
    if answer != "OK":
        sys.exit(f"check_gdb: G with a1 = 100 answered {answer!r}")
    a1 = remote.ask("pb")
    if a1 != (100).to_bytes(4, "little").hex():
        sys.exit(f"check_gdb: a1 after G: {a1!r}")
    if remote.ask("g") != edited:
        sys.exit("check_gdb: g after G differs from what G wrote")
    remote.ask(f"z0,{add:x},2")
    end = remote.ask("c")
    rc, out, err = finish(proc)
    if end != "W01" or rc != 1 or "debug_check: total 109, counter 114" not in out:
        sys.exit(f"check_gdb: after G: {end!r}, status {rc}\n{out}{err}")
    print("G with a1 = 100 at debug_add: OK, read back, total 109, counter 114, exit 1")


def same_on_both(args):
    for name, commands, check in (("regwrite", REGWRITE, check_regwrite),
                                  ("pcwrite", pcwrite_commands(args), check_pcwrite)):
        seen = {}
        for cpu in ("iss", "rtl"):
            text, rc, out = run_gdb_script(args, cpu, commands)
            check(text, rc, out)
            cycles = re.findall(r"cycle \d+ \(exact\), \d+ instructions retired", text)
            if len(cycles) != commands.count("monitor cycles"):
                sys.exit(f"check_gdb: {name} on {cpu}: monitor cycles: {cycles}\n{text}")
            output = [line for line in out.splitlines() if line.startswith("debug_check:")]
            seen[cpu] = (cycles, output, rc)
        if seen["iss"] != seen["rtl"]:
            sys.exit(f"check_gdb: {name}: the ISS and the RTL core differ: {seen}")
        print(f"{name}: ISS and RTL core alike: {seen['iss']}")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["session", "interrupt", "wait", "signals", "flood",
                                         "range", "regwrite", "pcwrite", "gpacket", "same"])
    parser.add_argument("--socsim", required=True)
    parser.add_argument("--gdb", default="gdb-multiarch")
    parser.add_argument("--cpu", choices=["iss", "rtl"], help="every mode but same")
    parser.add_argument("--firmware", required=True)
    parser.add_argument("--out", help="signals: the folder of the reports")
    parser.add_argument("--spin", help="signals: a program that runs forever")
    parser.add_argument("--compare", action="store_true",
                        help="range: also time `next` with range stepping off")
    args = parser.parse_args()
    if args.mode != "same" and args.cpu is None:
        parser.error(f"{args.mode} needs --cpu")
    try:
        {"session": session, "interrupt": interrupt, "wait": wait, "signals": signals,
         "flood": flood, "range": range_step, "regwrite": register_writes, "pcwrite": pc_writes,
         "gpacket": g_packet, "same": same_on_both}[args.mode](args)
    finally:
        for proc in STARTED:
            if proc.poll() is None:
                proc.kill()


if __name__ == "__main__":
    main()
