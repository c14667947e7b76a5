"""What the compiler's fuzz targets (fuzz_compile_model.py, fuzz_compile_tflite.py) share: a
scratch folder for the input and the program, and one compilation of an input with the
accepted outcomes checked. The targets import socsim_aot's compiler themselves, under
atheris's instrumentation, and pass it in."""

import atexit
import ctypes
import gc
import io
import os
import shutil
import tempfile
from contextlib import redirect_stderr, redirect_stdout


def scratch_paths(prefix, model_name):
    """(model path, program path) in a fresh folder under /dev/shm (or $TMPDIR), removed at
    exit. The program is a `.pte`, the compiler's default format, read back by its verifying
    reader."""
    base = os.environ.get("TMPDIR") or ("/dev/shm" if os.path.isdir("/dev/shm") else None)
    top = tempfile.mkdtemp(prefix=prefix, dir=base)
    atexit.register(shutil.rmtree, top, True)
    return os.path.join(top, model_name), os.path.join(top, "output.pte")


_COMPILED = [0]
try:
    _LIBC = ctypes.CDLL("libc.so.6")
except OSError:  # not glibc: no trimming
    _LIBC = None


def _trim_heap():
    """Every 256 compilations: a full garbage collection and glibc's malloc_trim, so that
    libFuzzer's -rss_limit_mb measures what an input allocates rather than the freed but
    unreturned pages earlier large calibrations leave in the heap (without it a long run's
    peak resident size grew from 1.35 to 2.06 GB over 573,898 inputs and met the limit)."""
    _COMPILED[0] += 1
    if _COMPILED[0] % 256 == 0:
        gc.collect()
        if _LIBC is not None:
            _LIBC.malloc_trim(0)


def compile_checked(compiler, model, program, data, options):
    """Writes data to model and compiles it as `compile_model.py model -o program -q
    options`; status 0 (a program) and the compiler's EXIT_MODEL (a one-line refusal) are
    accepted, anything else raises with the compiler's output."""
    with open(model, "wb") as f:
        f.write(data)
    argv = [model, "-o", program, "-q"] + list(options)
    log = io.StringIO()
    with redirect_stdout(log), redirect_stderr(log):
        status = compiler.main(argv)
    _trim_heap()
    if status not in (0, compiler.EXIT_MODEL):
        raise RuntimeError(f"compile_model {' '.join(argv[3:])} exited {status}:\n"
                           f"{log.getvalue()}")
