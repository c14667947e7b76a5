"""Greedy generation from a bundle with the numpy reference executor: the firmware runner's
loop (docs/llm.md) on the host, bit for bit the same integer arithmetic, so the simulator's
tokens and logits can be compared with it and both with torch.

    scripts/socsim_llm/generate.py build/llm/small.slm --generate 8 [--prompt FILE]

The loop: prefill of the prompt (N tokens) -> logits of position N-1 and every layer's keys
and values, written into the caches (keys transposed [H, Dh, T], values [H, T, Dh]); the
argmax is the first generated token; then each decode step p = N, N+1, ... reads the
token and its position, the mask (cache rows p.. excluded) and the caches, and returns the
logits and the token's key column and value row, written into the caches at p.
"""

import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from socsim_aot import program_format as pf  # noqa: E402
from socsim_aot import pte_format  # noqa: E402
from socsim_aot import reference  # noqa: E402
from socsim_llm import bundle  # noqa: E402


def default_prompt(count: int, vocab: int):
    """The runner's prompt without --input: token i = (7 i + 1) mod vocab."""
    return [(7 * i + 1) % vocab for i in range(count)]


class Generator:
    def __init__(self, data: bytes):
        self.fields, prefill, decode = bundle.read(data)
        self.prefill = pte_format.read_any(prefill)
        self.decode = pte_format.read_any(decode)
        f = self.fields
        self.cache_dtype = pf.DTYPES[self.decode.tensors[self.decode.inputs[3]].dtype]
        self.k = [np.zeros((f["heads"], f["head_dim"], f["context"]), self.cache_dtype)
                  for _ in range(f["layers"])]
        self.v = [np.zeros((f["heads"], f["context"], f["head_dim"]), self.cache_dtype)
                  for _ in range(f["layers"])]

    @staticmethod
    def dequantize(program, logits):
        """float32 logits: int8 ones times their scale (the runner's --print-logits)."""
        t = program.tensors[program.outputs[0]]
        if logits.dtype == np.float32:
            return logits.reshape(-1)
        scale = np.float32(t.scale)
        return ((logits.astype(np.int32) - int(t.zero_point)).astype(np.float32) *
                scale).reshape(-1)

    def run(self, prompt, steps: int, forced=None):
        """(tokens, logits [steps, vocab]) of greedy generation; with `forced` (a token list)
        each step is fed forced[step - 1] instead of the previous argmax (teacher forcing:
        every step's choice compared on the same history)."""
        f = self.fields
        n = f["prompt"]
        if len(prompt) != n:
            raise ValueError(f"the prompt has {len(prompt)} tokens; the bundle's prefill "
                             f"program takes {n}")
        outs = reference.run(self.prefill, [np.array([prompt], np.int32)])
        for i in range(f["layers"]):
            self.k[i][:, :, :n] = outs[1 + 2 * i].reshape(f["heads"], f["head_dim"], n)
            self.v[i][:, :n] = outs[2 + 2 * i].reshape(f["heads"], n, f["head_dim"])
        logits = [self.dequantize(self.prefill, outs[0])]
        tokens = [int(np.argmax(logits[-1]))]
        for p in range(n, n + steps - 1):
            mask = np.zeros((f["heads"], 1, f["context"] + 1), np.uint8)
            mask[..., p:f["context"]] = 1
            fed = tokens[-1] if forced is None else forced[p - n]
            ins = [np.array([[fed]], np.int32), np.array([[p]], np.int32), mask]
            for i in range(f["layers"]):
                ins += [self.k[i], self.v[i]]
            outs = reference.run(self.decode, ins)
            for i in range(f["layers"]):
                self.k[i][:, :, p] = outs[1 + 2 * i].reshape(f["heads"], f["head_dim"])
                self.v[i][:, p] = outs[2 + 2 * i].reshape(f["heads"], f["head_dim"])
            logits.append(self.dequantize(self.decode, outs[0]))
            tokens.append(int(np.argmax(logits[-1])))
        return tokens, np.stack(logits)


def compare(tokens, logits, ref):
    """Agreement with a torch reference (build.py's .reference.json): tokens equal up to the
    first difference, the largest logit error over those steps relative to the largest
    |logit|, and the top-1 margins torch had."""
    want = ref["tokens"]
    same = 0
    while same < min(len(tokens), len(want)) and tokens[same] == want[same]:
        same += 1
    steps = max(same, 1)
    torch_logits = np.array(ref["logits"][:steps])
    err = np.abs(logits[:steps] - torch_logits).max()
    return dict(tokens_equal=same, tokens=min(len(tokens), len(want)),
                max_logit_error=float(err),
                relative_logit_error=float(err / np.abs(torch_logits).max()),
                min_torch_margin=float(min(ref["margins"][:steps])))


def teacher_forced(tokens, logits, ref):
    """Agreement when every step is fed torch's previous token: steps whose argmax equals
    torch's, and of the others the largest torch top-1 margin (a disagreement within the
    int8 error of the logits is a near tie, not a defect)."""
    want = ref["tokens"][:len(tokens)]
    torch_logits = np.array(ref["logits"][:len(tokens)])
    diff = [i for i in range(len(want)) if tokens[i] != want[i]]
    err = np.abs(logits - torch_logits).max(axis=1)
    return dict(steps=len(want), argmax_equal=len(want) - len(diff),
                differing_steps=diff,
                largest_margin_where_different=max((ref["margins"][i] for i in diff),
                                                   default=None),
                largest_logit_error=float(err.max()),
                median_relative_logit_error=float(np.median(
                    err / np.abs(torch_logits).max(axis=1))))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bundle")
    parser.add_argument("--generate", type=int, default=8)
    parser.add_argument("--prompt", help="int32 token ids (raw little-endian); default: the "
                        "runner's deterministic prompt")
    parser.add_argument("--reference", help="build.py's .reference.json to compare with")
    parser.add_argument("--teacher-forced", action="store_true",
                        help="feed torch's tokens (from --reference) and compare every step's "
                        "argmax with torch's")
    args = parser.parse_args(argv)
    with open(args.bundle, "rb") as fh:
        gen = Generator(fh.read())
    f = gen.fields
    prompt = (np.fromfile(args.prompt, "<i4").tolist() if args.prompt
              else default_prompt(f["prompt"], f["vocab"]))
    ref = None
    if args.reference:
        with open(args.reference) as fh:
            ref = json.load(fh)
    if args.teacher_forced:
        if ref is None:
            parser.error("--teacher-forced needs --reference")
        tokens, logits = gen.run(prompt, args.generate, forced=ref["tokens"])
        print(json.dumps(teacher_forced(tokens, logits, ref)))
        return 0
    tokens, logits = gen.run(prompt, args.generate)
    print("tokens:", " ".join(map(str, tokens)))
    if ref is not None:
        print(json.dumps(compare(tokens, logits, ref)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
