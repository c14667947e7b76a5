"""End to end: scripts/socsim_cycle_cost.py on add8 (sizes 4..40, 1 vs 11 executions) must print
every table of the campaign, and the per-element slope it fits from the probes of the size
sweep must equal the per-call increment per element measured in the 1024-element model within
1 %.

Usage: check_cycle_cost.py OUT_DIR [socsim_cycle_cost.py arguments...]
"""

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    out_dir = sys.argv[1]
    cmd = [sys.executable, os.path.join(ROOT, "scripts/socsim_cycle_cost.py"), "--family", "add8",
           "--family", "add8-delegated", "--sizes", "4-40:4", "--executions", "1", "11",
           "--out-dir", out_dir] + sys.argv[2:]
    result = subprocess.run(cmd, capture_output=True, text=True)
    sys.stdout.write(result.stdout)
    failures = []
    if result.returncode != 0:
        failures.append(f"socsim_cycle_cost.py exited {result.returncode}: {result.stderr[-3000:]}")
    else:
        for title in ("7.4.1.1 add8", "7.4.1.2 add8", "Least-squares fit", "7.4.1.3",
                      "7.4.3 The impact of delegation", "Where the two methods disagree"):
            if title not in result.stdout:
                failures.append(f"no table '{title}'")
        with open(os.path.join(out_dir, "cost.json")) as f:
            cost = json.load(f)
        for family in ("add8", "add8-delegated"):
            fam = cost["families"][family]
            fit = fam["probe_call_fit"]
            per_element = (fam["probe_call_cycles"] - fit["intercept"]) / 1024
            rel = abs(fit["slope"] - per_element) / per_element
            print(f"{family}: slope {fit['slope']:.3f} vs {per_element:.3f} cycles per element "
                  f"in the 1024-element calls ({100 * rel:.3f} %)")
            if rel > 0.01:
                failures.append(f"{family}: slope and per-call increment differ by {rel:.2%}")
        for name in ("sizes.csv", "summary.csv", "sizes.png", "cost.json"):
            if not os.path.exists(os.path.join(out_dir, name)):
                failures.append(f"no {name}")
        bss = cost["bss"]
        if abs(bss["cycles_per_byte"] - 1.25) > 0.01:
            failures.append(f"BSS {bss['cycles_per_byte']} cycles per byte, expected 1.25 "
                            "(5 cycles per word)")
    for f in failures:
        print("FAIL: " + f)
    if not failures:
        print("check_cycle_cost: PASS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
