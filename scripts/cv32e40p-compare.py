#!/usr/bin/python3
"""Compares two OBI bus traces (rv_harness --bus-trace) of the same program on two cores,
normally socsim's core and the OpenHW CV32E40P (a build with SOCSIM_CV32E40P_RTL).

Each line is one granted request: "<cycle> I <addr>" or "<cycle> D R|W <addr> <be> [<wdata>]".
Two cores that agree cycle for cycle print identical traces. Otherwise this prints every place
where the second core's cycle offset against the first changes (the request before and the
request at which it changed), and stops at the first request that differs in anything but its
cycle. Exit status: 0 identical, 1 different, 2 usage or file errors.

  cv32e40p-compare.py OWN_TRACE GENUINE_TRACE [--max-reports N]
"""
import argparse
import sys


def read(path):
    try:
        with open(path, encoding="ascii") as f:
            rows = []
            for number, line in enumerate(f, 1):
                fields = line.split()
                if len(fields) < 3 or not fields[0].isdigit():
                    sys.exit(f"{path}:{number}: not a bus-trace line: {line.rstrip()!r}")
                rows.append((int(fields[0]), " ".join(fields[1:])))
            return rows
    except OSError as e:
        sys.exit(f"cv32e40p-compare: {e}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first", help="trace of the reference-under-test (socsim's core)")
    parser.add_argument("second", help="trace of the other core (the genuine CV32E40P)")
    parser.add_argument("--max-reports", type=int, default=20,
                        help="offset changes to print (default 20)")
    args = parser.parse_args()
    a, b = read(args.first), read(args.second)
    offset, reports, previous = 0, 0, None
    for i in range(min(len(a), len(b))):
        (ca, ra), (cb, rb) = a[i], b[i]
        if ra != rb:
            print(f"request {i + 1}: cycle {ca}: {ra}  /  cycle {cb}: {rb}  -- different requests")
            return 1
        if cb - ca != offset:
            if reports < args.max_reports:
                before = f"after cycle {previous[0]} {previous[1]}: " if previous else ""
                print(f"request {i + 1}: {before}{ra} at cycle {ca} / {cb} "
                      f"(offset {offset:+d} -> {cb - ca:+d})")
            reports += 1
            offset = cb - ca
        previous = a[i]
    if len(a) != len(b):
        print(f"traces differ in length: {len(a)} / {len(b)} requests")
        return 1
    if reports:
        print(f"{reports} timing difference(s); same {len(a)} requests; final offset {offset:+d}")
        return 1
    print(f"identical: {len(a)} requests, last at cycle {a[-1][0] if a else 0}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
