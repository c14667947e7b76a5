"""Running one point: a plain `socsim run` into the point's report folder.

The run writes into a temporary folder beside the final one; the folder gets result.json
(command, exit status, wall time, host, the error when it failed), stdout.txt and
stderr.txt, then takes the final name in one rename. A folder with a result.json is a
finished point, whoever ran it (the local backend or a Slurm task) and whether or not the
database heard of it: that is what lets a killed sweep resume without losing work.
"""

import ctypes
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import threading
import time

RESULT = "result.json"
# A run ended by one of these was interrupted (Ctrl-C, a stop request), not failed: it leaves
# no result, so that the next run of the sweep runs it again. socsim run catches SIGINT and
# SIGTERM, writes its reports and exits with 128 + the signal's number (docs/platform.md);
# a signal it does not catch ends it with the signal.
INTERRUPTS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def interrupted(code):
    """True when a socsim run's exit status says a stop request ended it."""
    return code is not None and any(code in (-s, 128 + s) for s in INTERRUPTS)

_active = set()
_active_lock = threading.Lock()


def stop_all():
    """Asks every point's socsim still running in this process to stop."""
    with _active_lock:
        for proc in _active:
            try:
                proc.send_signal(signal.SIGTERM)
            except OSError:
                pass


def _die_with_parent():
    # A point's socsim ends when the process that started it dies (a killed sweep leaves
    # no runs behind to race with its resumption).
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_stale_temporaries(points_dir):
    """Removes the temporary folders (`<point>.tmp-<pid>-<thread>`) whose process is gone: a
    sweep killed before it could clean up. Returns how many were removed."""
    try:
        names = os.listdir(points_dir)
    except OSError:
        return 0
    removed = 0
    for name in names:
        match = re.fullmatch(r".+\.tmp-(\d+)-\d+", name)
        if not match:
            continue
        pid = int(match.group(1))
        if pid == os.getpid() or _alive(pid):
            continue
        shutil.rmtree(os.path.join(points_dir, name), ignore_errors=True)
        removed += 1
    return removed


def read_result(report_dir):
    """The result.json of a finished point, or None."""
    try:
        with open(os.path.join(report_dir, RESULT)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def run_plan(plan, socsim, env=None):
    """Runs one plan; returns its result (also in report_dir/result.json), or None when the
    run was interrupted (nothing is kept)."""
    final = plan.report_dir
    tmp = f"{final}.tmp-{os.getpid()}-{threading.get_ident()}"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    result = {"key": plan.key, "index": plan.index, "host": socket.gethostname(),
              "started": time.time()}
    if plan.error:
        result.update(argv=None, exit_code=None, wall_s=0.0, timed_out=False,
                      status="failed", error=plan.error, finished=time.time())
        return _finish(tmp, final, result)
    argv = plan.argv(socsim, tmp)
    result["argv"] = plan.argv(socsim, final)
    timed_out = False
    t0 = time.perf_counter()
    with open(os.path.join(tmp, "stdout.txt"), "wb") as out, \
            open(os.path.join(tmp, "stderr.txt"), "wb") as err:
        try:
            proc = subprocess.Popen(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                    preexec_fn=_die_with_parent, env=env)
        except OSError as e:
            result.update(exit_code=None, wall_s=0.0, timed_out=False, status="failed",
                          error=f"cannot start {socsim}: {e.strerror}", finished=time.time())
            return _finish(tmp, final, result)
        with _active_lock:
            _active.add(proc)
        try:
            code = proc.wait(timeout=plan.timeout_s)
        except subprocess.TimeoutExpired:
            proc.kill()
            code = proc.wait()
            timed_out = True
        finally:
            with _active_lock:
                _active.discard(proc)
    wall = time.perf_counter() - t0
    if not timed_out and interrupted(code):
        shutil.rmtree(tmp, ignore_errors=True)
        return None
    result.update(exit_code=code, wall_s=wall, timed_out=timed_out, finished=time.time())
    if code == 0 and not timed_out:
        result.update(status="ok", error=None)
    else:
        result.update(status="failed", error=describe_failure(tmp, code, timed_out,
                                                              plan.timeout_s))
    return _finish(tmp, final, result)


def _finish(tmp, final, result):
    with open(os.path.join(tmp, RESULT), "w") as f:
        json.dump(result, f, indent=2)
    if os.path.exists(final):
        shutil.rmtree(final)
    os.rename(tmp, final)
    return result


def describe_failure(report_dir, code, timed_out, timeout_s):
    """One line saying why a run failed, from its exit status and output."""
    if timed_out:
        return f"timed out after {timeout_s:g} s (run.timeout_s)"
    if code is not None and code < 0:
        return f"killed by signal {-code}"
    stderr = _lines(os.path.join(report_dir, "stderr.txt"))
    stdout = _lines(os.path.join(report_dir, "stdout.txt"))
    for line in stderr:
        if line.startswith(("socsim: error:", "socsim run:", "socsim: simulation fault",
                            "socsim: internal")):
            return line
    for line in reversed(stdout):
        if line.startswith(("EXIT FAILURE", "CYCLE LIMIT", "SIMULATION FAULT")):
            return line
    tail = stderr[-1] if stderr else (stdout[-1] if stdout else "")
    return f"exit status {code}" + (f": {tail}" if tail else "")


def _lines(path):
    try:
        with open(path, errors="replace") as f:
            return [line.strip() for line in f if line.strip()]
    except OSError:
        return []
