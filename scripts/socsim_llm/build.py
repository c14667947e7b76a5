"""Builds a language-model bundle: the decoder of model.py at a named size with random
weights, exported to ONNX twice (prefill of N tokens; one decode step over the KV cache),
compiled (float32, or int8 with per-channel weights, optionally on the NPU), written as one
bundle file for the firmware runner, with the torch reference of greedy generation beside it.

    scripts/socsim_llm/build.py --size small --prompt-tokens 16 --generate 8 \\
        --quantize int8 --delegate npu -o build/llm/small

writes small.slm (the bundle) and small.reference.json (torch's tokens and logits of the
default prompt, the activation check, the cache scales); --keep-onnx keeps the two ONNX files
(small.prefill.onnx, small.decode.onnx).
docs/llm.md explains the choices (the cache as program inputs and outputs, int8 at fixed
scales, the prompt).
"""

import argparse
import json
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from socsim_aot import compiler  # noqa: E402
from socsim_llm import bundle  # noqa: E402
from socsim_llm.generate import default_prompt  # noqa: E402
from socsim_llm import model as lm  # noqa: E402

OPSET = 17  # LayerNormalization as one node
CALIBRATION_SEQUENCES = 8
CACHE_HEADROOM = 1.25  # the cache and logit scales cover 1.25 x the largest |value| seen
GREEDY_TOKENS = 24     # each calibration sequence continues its prompt greedily this far


def states(decoder, ids):
    """Per layer (kt [H, Dh, n], v [H, n, Dh]) of the whole sequence ids [n]."""
    torch = lm._torch()
    n = ids.shape[0]
    with torch.no_grad():
        x = decoder.embed(ids) + decoder.position(torch.arange(n))
        causal = torch.triu(torch.ones(n, n, dtype=torch.bool), 1)
        out = []
        for block in decoder.blocks:
            x, kt, v = block.full(x, causal)
            out.append((kt.numpy(), v.numpy()))
    return out


def activation_check(decoder, config, rng):
    """The spread of the logits and the top-1 margin over random sequences (healthy, not flat:
    docs/llm.md)."""
    torch = lm._torch()
    ids = torch.from_numpy(rng.integers(0, config.vocab, config.context))
    with torch.no_grad():
        logits = decoder.forward_full(ids).numpy()
    top2 = np.sort(logits, -1)[:, -2:]
    return dict(logit_std=float(logits.std()), logit_max=float(np.abs(logits).max()),
                top1_margin_median=float(np.median(top2[:, 1] - top2[:, 0])),
                distinct_argmax=int(len(set(logits.argmax(-1).tolist()))))


def calibration(decoder, config, prompt: int, rng):
    """Calibration inputs of both programs and the fixed scales (caches, logits): random
    sequences of the context's length whose prompt is continued greedily for GREEDY_TOKENS
    (generation repeats tokens, which random sequences never do: its logits and keys reach
    further); the decode samples take a position p in the greedy part and one anywhere, with
    the cache of positions < p (the rest zero), as a generation would have it."""
    torch = lm._torch()
    c = config
    pre_ids, dec = [], {n: [] for n in lm.input_names(c)}
    peaks = {n: 0.0 for n in lm.cache_names(c) + ["logits"]}
    greedy = min(GREEDY_TOKENS, c.context - prompt)
    for _ in range(CALIBRATION_SEQUENCES):
        ids = rng.integers(0, c.vocab, c.context)
        ids[prompt:prompt + greedy] = lm.greedy(decoder, ids[:prompt].tolist(), greedy)[0]
        pre_ids.append(ids[None, :prompt])
        layer_states = states(decoder, torch.from_numpy(ids))
        with torch.no_grad():
            logits = decoder.forward_full(torch.from_numpy(ids)).numpy()
        peaks["logits"] = max(peaks["logits"], float(np.abs(logits).max()))
        for i, (kt, v) in enumerate(layer_states):
            peaks[f"k{i}"] = max(peaks[f"k{i}"], float(np.abs(kt).max()))
            peaks[f"v{i}"] = max(peaks[f"v{i}"], float(np.abs(v).max()))
        positions = [int(rng.integers(prompt, prompt + greedy)) if greedy else 1,
                     int(rng.integers(1, c.context))]
        for p in positions:
            dec["ids"].append(ids[None, p:p + 1])
            dec["pos"].append(np.array([[p]]))
            dec["mask"].append(step_mask(c, p).astype(np.uint8))
            for i, (kt, v) in enumerate(layer_states):
                k_cache, v_cache = np.zeros_like(kt), np.zeros_like(v)
                k_cache[..., :p], v_cache[:, :p] = kt[..., :p], v[:, :p]
                dec[f"k{i}"].append(k_cache)
                dec[f"v{i}"].append(v_cache)
    scales = {n: CACHE_HEADROOM * peak / 127.0 for n, peak in peaks.items()}
    return np.stack(pre_ids), {n: np.stack(a) for n, a in dec.items()}, scales


def step_mask(config, p: int):
    """The decode step's mask at position p: cache rows p.. excluded, the token itself kept."""
    m = np.zeros((config.heads, 1, config.context + 1), bool)
    m[..., p:config.context] = True
    return m


def export(decoder, config, prompt: int, out_dir: str, name: str):
    torch = lm._torch()
    c = config
    prefill_path = os.path.join(out_dir, f"{name}.prefill.onnx")
    decode_path = os.path.join(out_dir, f"{name}.decode.onnx")
    caches = lm.cache_names(c)
    with torch.no_grad():
        torch.onnx.export(lm.Prefill.module(decoder, prompt),
                          (torch.zeros(1, prompt, dtype=torch.int64),), prefill_path,
                          opset_version=OPSET, input_names=["ids"],
                          output_names=["logits"] + caches)
        args = (torch.zeros(1, 1, dtype=torch.int64), torch.zeros(1, 1, dtype=torch.int64),
                torch.from_numpy(step_mask(c, 0)))
        for _ in range(c.layers):
            args += (torch.zeros(c.heads, c.head_dim, c.context),
                     torch.zeros(c.heads, c.context, c.head_dim))
        torch.onnx.export(lm.DecodeStep.module(decoder), args, decode_path,
                          opset_version=OPSET, input_names=lm.input_names(c),
                          output_names=lm.decode_output_names(c))
    return prefill_path, decode_path


def compile_programs(paths, calib, scales, options, log=None):
    """(prefill bytes, decode bytes); int8: the cache values and the logits at their fixed
    scales (`scales`: cache names and "logits")."""
    from socsim_aot import pte_format
    pre_ids, dec = calib
    caches = {n: s for n, s in scales.items() if n != "logits"}
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for path, arrays, io in ((paths[0], {"a00": pre_ids}, list(scales.items())),
                                 (paths[1], {f"a{i:02d}": dec[n] for i, n in
                                             enumerate(dec)},
                                  list(scales.items()) +
                                  [(n + "_new", s) for n, s in caches.items()])):
            npz = os.path.join(tmp, "calibration.npz")
            np.savez(npz, **arrays)
            prog = os.path.join(tmp, "program.pte")
            kw = dict(options)
            if kw.get("quantize") == "int8":  # int8 logits: argmax needs no dequantisation
                kw.update(calibration=npz, int8_io=tuple(io))
            compiler.compile_file(path, prog, log, **kw)
            with open(prog, "rb") as f:
                data = f.read()
            pte_format.read_any(data)  # the verifying reader
            out.append(data)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", choices=sorted(lm.SIZES), default="small")
    parser.add_argument("--context", type=int, help="context length T (default: the size's)")
    parser.add_argument("--prompt-tokens", type=int, default=16,
                        help="N, the prefill program's prompt length (default 16)")
    parser.add_argument("--generate", type=int, default=8,
                        help="tokens of the torch reference to record (default 8)")
    parser.add_argument("--quantize", choices=["int8"])
    parser.add_argument("--delegate", choices=["npu"])
    parser.add_argument("--npu-config", help="NPU preset whose operator list the compiler "
                        "delegates (configs/npu/*.yaml)")
    parser.add_argument("-o", "--output", required=True,
                        help="output path without extension: writes OUT.slm and "
                        "OUT.reference.json")
    parser.add_argument("--keep-onnx", action="store_true",
                        help="keep OUT.prefill.onnx and OUT.decode.onnx")
    parser.add_argument("-q", "--quiet", action="store_true")
    args = parser.parse_args(argv)
    config = lm.SIZES[args.size]
    if args.context:
        import dataclasses
        config = dataclasses.replace(config, context=args.context)
    if not 1 <= args.prompt_tokens < config.context:
        parser.error(f"--prompt-tokens must be 1 .. {config.context - 1} (the context)")
    if args.prompt_tokens + args.generate > config.context:
        parser.error("--prompt-tokens + --generate exceeds the context")
    if args.delegate and not args.quantize:
        parser.error("--delegate npu needs --quantize int8")
    out_dir, name = os.path.split(os.path.abspath(args.output))
    os.makedirs(out_dir, exist_ok=True)

    def log(line):
        if not args.quiet:
            print(f"socsim_llm: {line}", file=sys.stderr)

    decoder = lm.build(config)
    rng = np.random.default_rng(config.seed + 1)
    check = activation_check(decoder, config, rng)
    log(f"logits: std {check['logit_std']:.2f}, max |logit| {check['logit_max']:.2f}, median "
        f"top-1 margin {check['top1_margin_median']:.3f}, {check['distinct_argmax']} distinct "
        f"argmax over {config.context} positions")
    pre_ids, dec, scales = calibration(decoder, config, args.prompt_tokens, rng)
    options = dict(quantize=args.quantize, delegate=args.delegate, npu_config=args.npu_config)
    with tempfile.TemporaryDirectory() as tmp:
        paths = export(decoder, config, args.prompt_tokens,
                       out_dir if args.keep_onnx else tmp, name)
        prefill, decode = compile_programs(paths, (pre_ids, dec), scales, options,
                                           None if args.quiet else log)
    data = bundle.write(config, args.prompt_tokens, prefill, decode)
    with open(os.path.join(out_dir, name + ".slm"), "wb") as f:
        f.write(data)
    prompt = default_prompt(args.prompt_tokens, config.vocab)
    tokens, logits = lm.greedy(decoder, prompt, args.generate)
    top2 = np.sort(logits, -1)[:, -2:]
    reference = dict(size=args.size, config={k: getattr(config, k) for k in
                                             ("layers", "d_model", "heads", "vocab",
                                              "context", "ff_width", "seed")},
                     prompt=prompt, tokens=tokens,
                     margins=[float(m) for m in top2[:, 1] - top2[:, 0]],
                     logits=[[round(float(v), 5) for v in row] for row in logits],
                     activations=check, cache_scales=scales,
                     quantize=args.quantize, delegate=args.delegate,
                     bundle_bytes=len(data))
    with open(os.path.join(out_dir, name + ".reference.json"), "w") as f:
        json.dump(reference, f)
    log(f"{name}.slm: {len(data)} bytes; torch greedy tokens {tokens}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
