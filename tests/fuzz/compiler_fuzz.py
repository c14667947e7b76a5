"""What the compiler's fuzz targets (fuzz_compile_model.py, fuzz_compile_tflite.py) share: a
scratch folder for the input and the program, and one compilation of an input with the
accepted outcomes checked. The targets import socsim_aot's compiler themselves, under
atheris's instrumentation, and pass it in."""

import atexit
import io
import os
import shutil
import tempfile
from contextlib import redirect_stderr, redirect_stdout


def scratch_paths(prefix, model_name):
    """(model path, program path) in a fresh folder under /dev/shm (or $TMPDIR), removed at
    exit."""
    base = os.environ.get("TMPDIR") or ("/dev/shm" if os.path.isdir("/dev/shm") else None)
    top = tempfile.mkdtemp(prefix=prefix, dir=base)
    atexit.register(shutil.rmtree, top, True)
    return os.path.join(top, model_name), os.path.join(top, "output.prog")


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
    if status not in (0, compiler.EXIT_MODEL):
        raise RuntimeError(f"compile_model {' '.join(argv[3:])} exited {status}:\n"
                           f"{log.getvalue()}")
