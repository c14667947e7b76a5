"""Runs a language-model bundle on the simulator (executor_runner's loop: prefill, then decode
steps with the KV cache) and checks it against the host and against torch.

Checks:
  - the generated tokens equal torch's greedy tokens (the bundle's .reference.json, recorded
    by scripts/socsim_llm/build.py), token for token;
  - every step's logits equal, bit for bit, those of the same loop run by the numpy reference
    executor (scripts/socsim_llm/generate.py): the firmware's cache handling, mask and
    argmax are the host's;
  - every step's logits are within the int8 tolerance of torch's: correlation at least
    --min-correlation and largest error at most --max-error of the largest |logit|;
  - one prefill line and --generate - 1 decode lines with their cycles, and the probe marks
    (prefill once, decode once per step) in the run's probes.json.
"""

import argparse
import json
import os
import re
import subprocess
import sys

import numpy as np

TOKENS = re.compile(r"^Generated tokens:((?: \d+)+)$", re.M)
LOGIT = re.compile(r"^logits\[(\d+)\]\[(\d+)\] = (\S+)$", re.M)
PREFILL = re.compile(r"^Prefill: (\d+) tokens, (\d+) cycles, (\d+) npu cycles; token 1 = (\d+)$",
                     re.M)
DECODE = re.compile(r"^Decode step (\d+): position (\d+), (\d+) cycles, (\d+) npu cycles; "
                    r"token \d+ = (\d+)$", re.M)


def fail(message):
    print(f"llm_check: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--socsim", required=True)
    parser.add_argument("--runner", required=True)
    parser.add_argument("--scripts", required=True, help="the repository's scripts/ folder")
    parser.add_argument("--out-dir", required=True)
    parser.add_argument("--generate", type=int, default=4)
    parser.add_argument("--min-correlation", type=float, default=0.98)
    parser.add_argument("--max-error", type=float, default=0.15)
    parser.add_argument("bundle")
    args = parser.parse_args()
    sys.path.insert(0, args.scripts)
    from socsim_llm.generate import Generator, compare

    with open(os.path.splitext(args.bundle)[0] + ".reference.json") as f:
        ref = json.load(f)
    os.makedirs(args.out_dir, exist_ok=True)
    cmd = [args.socsim, "run", "-q", "--firmware", args.runner, "--model", args.bundle,
           "--report", args.out_dir, "--max-cycles", "2000000000", "--",
           "--generate", str(args.generate), "--print-logits"]
    result = subprocess.run(cmd, capture_output=True, text=True)
    out = result.stdout
    if result.returncode != 0:
        fail(f"socsim exited {result.returncode}\n{out}\n{result.stderr}")
    m = TOKENS.search(out)
    if not m:
        fail(f"no 'Generated tokens:' line\n{out}")
    tokens = [int(t) for t in m.group(1).split()]
    vocab = ref["config"]["vocab"]
    logits = np.zeros((args.generate, vocab), np.float32)
    seen = np.zeros((args.generate, vocab), bool)
    for step, i, v in LOGIT.findall(out):
        logits[int(step), int(i)] = np.float32(v)
        seen[int(step), int(i)] = True
    if not seen.all():
        fail("logits missing from the output")
    if len(PREFILL.findall(out)) != 1 or len(DECODE.findall(out)) != args.generate - 1:
        fail(f"expected one prefill line and {args.generate - 1} decode lines\n{out}")

    if tokens != ref["tokens"][:args.generate]:
        fail(f"tokens {tokens}, torch's {ref['tokens'][:args.generate]}")
    with open(args.bundle, "rb") as f:
        host_tokens, host_logits = Generator(f.read()).run(ref["prompt"], args.generate)
    if host_tokens != tokens or not np.array_equal(host_logits.astype(np.float32), logits):
        worst = np.abs(host_logits - logits).max()
        fail(f"the simulator's logits differ from the reference executor's (by up to {worst}; "
             f"tokens {tokens}, host {host_tokens})")
    torch_logits = np.array(ref["logits"][:args.generate])
    for step in range(args.generate):
        corr = np.corrcoef(logits[step].astype(np.float64), torch_logits[step])[0, 1]
        err = np.abs(logits[step] - torch_logits[step]).max() / np.abs(torch_logits[step]).max()
        print(f"step {step}: token {tokens[step]}, correlation with torch {corr:.5f}, "
              f"largest error {err:.4f} of max |logit|")
        if corr < args.min_correlation or err > args.max_error:
            fail(f"step {step}: logits outside the int8 tolerance of torch's")
    print(json.dumps(compare(tokens, logits, ref)))

    with open(os.path.join(args.out_dir, "probes.json")) as f:
        probes = json.load(f)
    marks = {r["name"]: r for r in probes.get("regions", []) if r.get("category") == "mark"}
    counts = sorted(r["count"] for r in marks.values())
    if counts != sorted([1, args.generate - 1]) and args.generate > 1:
        fail(f"probe marks: counts {counts}, expected prefill 1 and decode {args.generate - 1}")
    print(f"llm_check: {args.generate} tokens equal torch's and the reference executor's")


if __name__ == "__main__":
    main()
