"""The operator schema's generator runs on the bare standard library.

Run as `python3 -I -S check_schema_stdlib.py GENERATED_DIR`: isolated (no PYTHONPATH, no
user site) and without the site module, so none of Debian's dist-packages (numpy, yaml) can
be imported. The check fails when numpy is importable all the same (the run would prove
nothing), when the generator fails, or when what it writes differs from the headers and CMake
lists the build generated in GENERATED_DIR (the build's generated/ folder).
"""

import filecmp
import importlib.util
import os
import sys
import tempfile

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADERS = ("operators.h", "program_layout.h", "npu_descriptor.h")


def main(argv) -> int:
    if len(argv) != 2:
        print("usage: python3 -I -S check_schema_stdlib.py GENERATED_DIR", file=sys.stderr)
        return 2
    built = argv[1]
    if importlib.util.find_spec("numpy") is not None:
        print("check_schema_stdlib: numpy is importable; run with python3 -I -S",
              file=sys.stderr)
        return 1
    sys.path.insert(0, SCRIPTS)
    from socsim_schema import generate
    loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("numpy", "yaml", "socsim_aot"))
    if loaded:
        print(f"check_schema_stdlib: the schema imported {loaded}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as out:
        lists = os.path.join(out, "operator_schema.cmake")
        if generate.main(["--out", out, "--cmake", lists]) != 0:
            return 1
        pairs = [(os.path.join(out, "firmware", "abi", "generated", h),
                  os.path.join(built, "firmware", "abi", "generated", h)) for h in HEADERS]
        signatures = os.path.join("firmware", "kernels", "generated", "signatures.h")
        pairs.append((os.path.join(out, signatures), os.path.join(built, signatures)))
        pairs.append((lists, os.path.join(built, "operator_schema.cmake")))
        for ours, theirs in pairs:
            if not filecmp.cmp(ours, theirs, shallow=False):
                print(f"check_schema_stdlib: {theirs} differs from the generator's output",
                      file=sys.stderr)
                return 1
    print(f"check_schema_stdlib: {len(pairs)} files generated without numpy, identical to "
          "the build's")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
