#!/usr/bin/python3
"""Lists the hand-written C and C++ functions longer than a limit (default 120 lines).

Functions and their extents come from Universal Ctags (`ctags --fields=+ne`: the line of a
definition and the line of its closing brace), over the C and C++ sources of the given folders
(default: models, platform, firmware, bench), leaving out tests (`test/` folders, `*_test.*`),
the build tree and generated code (`generated/` folders). Lambdas count as part of the
function that holds them. A function's length is from its first line to its closing brace.

Exit status: 0, or 1 with --check when a function is over the limit.
"""
import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUFFIXES = (".c", ".cc", ".cpp", ".h", ".hpp")


def sources(folders):
    """The hand-written C/C++ files under the folders, relative to the repository."""
    for folder in folders:
        for base, dirs, files in os.walk(os.path.join(ROOT, folder)):
            dirs[:] = sorted(d for d in dirs if d not in ("test", "generated", "build"))
            for name in sorted(files):
                stem = os.path.splitext(name)[0]
                if name.endswith(SUFFIXES) and not stem.endswith("_test"):
                    yield os.path.relpath(os.path.join(base, name), ROOT)


def functions(files):
    """(lines, file, line, name) of every function definition ctags finds in the files."""
    out = subprocess.run(["ctags", "--languages=C,C++", "--kinds-C=f", "--kinds-C++=f",
                          "--fields=+ne", "--extras=-F", "-o", "-", *files],
                         cwd=ROOT, stdout=subprocess.PIPE, text=True, check=True).stdout
    for entry in out.splitlines():
        parts = entry.split("\t")
        fields = dict(p.split(":", 1) for p in parts[3:] if ":" in p)
        if "line" not in fields or "end" not in fields or parts[0].startswith("__anon"):
            continue
        scope = fields.get("class") or fields.get("struct") or fields.get("namespace") or ""
        name = parts[0] if not scope else scope.split("::")[-1] + "::" + parts[0]
        first, last = int(fields["line"]), int(fields["end"])
        yield last - first + 1, parts[1], first, name


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", nargs="*", default=["models", "platform", "firmware", "bench"],
                        help="folders of the repository to scan")
    parser.add_argument("--limit", type=int, default=120, help="longest allowed (lines)")
    parser.add_argument("--check", action="store_true", help="exit 1 when one is longer")
    args = parser.parse_args()
    long = sorted((f for f in functions(list(sources(args.folders))) if f[0] > args.limit),
                  reverse=True)
    for lines, path, line, name in long:
        print(f"{lines:5d}  {path}:{line}  {name}")
    print(f"{len(long)} function(s) over {args.limit} lines")
    return 1 if args.check and long else 0


if __name__ == "__main__":
    sys.exit(main())
