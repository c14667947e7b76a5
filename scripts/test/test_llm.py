"""The language model of scripts/socsim_llm on the host: the KV-cache loop against torch, and
the compiler features it uses (bool mask inputs, the run-time mask in the masked-softmax
fusion, --int8-io).

- float32 bundle: the reference executor's loop (prefill, decode steps over the cache)
  generates torch's greedy tokens with logits within 1e-4 of the largest (the cache layout,
  the mask and the position handling are exact);
- int8 + NPU: the cache inputs and outputs are int8 at the scales given, the mask is a
  uint8 program input feeding the masked softmax, the logits correlate with torch's at 0.98;
- --int8-io refuses a name the model does not have, with a message naming it.
"""

import dataclasses
import os
import tempfile
import unittest

import numpy as np

from socsim_aot import compiler
from socsim_aot import program_format as pf
from socsim_aot import pte_format
from socsim_llm import build
from socsim_llm import bundle
from socsim_llm import generate
from socsim_llm import model as lm
from socsim_llm import report

CONFIG = dataclasses.replace(lm.SIZES["tiny"], context=16)
PROMPT, STEPS = 5, 4


class LanguageModelTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.decoder = lm.build(CONFIG)
        rng = np.random.default_rng(1)
        cls.calib = build.calibration(cls.decoder, CONFIG, PROMPT, rng)
        cls.paths = build.export(cls.decoder, CONFIG, PROMPT, cls.tmp.name, "t")
        cls.prompt = generate.default_prompt(PROMPT, CONFIG.vocab)
        cls.tokens, cls.logits = lm.greedy(cls.decoder, cls.prompt, STEPS)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def bundle(self, **options):
        pre_ids, dec, scales = self.calib
        prefill, decode = build.compile_programs(self.paths, (pre_ids, dec), scales, options)
        return bundle.write(CONFIG, PROMPT, prefill, decode)

    def test_float32_cache_loop_equals_torch(self):
        tokens, logits = generate.Generator(self.bundle()).run(self.prompt, STEPS)
        self.assertEqual(tokens, self.tokens)
        self.assertLessEqual(np.abs(logits - self.logits).max(),
                             1e-4 * np.abs(self.logits).max())

    def test_int8_npu_state_and_mask(self):
        data = self.bundle(quantize="int8", delegate="npu")
        fields, _, decode = bundle.read(data)
        self.assertEqual(decode[4:8], b"ET12")  # an ExecuTorch program
        program = pte_format.read_any(decode)
        scales = self.calib[2]
        names = lm.input_names(CONFIG)
        for i, tid in enumerate(program.inputs):
            t = program.tensors[tid]
            if names[i] == "mask":  # bool: uint8 at run time, 0 or 1
                self.assertEqual(pf.DTYPE_NAMES[t.dtype], "uint8")
            elif names[i] in scales:
                self.assertEqual(pf.DTYPE_NAMES[t.dtype], "int8")
                self.assertAlmostEqual(t.scale, scales[names[i]], places=6)
        for tid, name in zip(program.outputs[1:], lm.cache_names(CONFIG)):
            self.assertAlmostEqual(program.tensors[tid].scale, scales[name], places=6)
        mask_id = program.inputs[2]
        softmaxes = [i for i in program.instructions if i.name.endswith("masked_softmax.out")]
        self.assertEqual(len(softmaxes), CONFIG.layers)
        self.assertTrue(all(i.inputs[1] == mask_id for i in softmaxes))
        tokens, logits = generate.Generator(data).run(self.prompt, STEPS)
        for step in range(STEPS):
            corr = np.corrcoef(logits[step], self.logits[step])[0, 1]
            self.assertGreaterEqual(corr, 0.98, f"step {step}")

    def test_report_counts_the_weights_in_npu_blobs(self):
        # The checked-in tiny bundle (ExecuTorch programs: the NPU's weights in its delegate
        # blobs) and the same model's bundle in the legacy format (weights as the calls'
        # constant operands): report.py reads the same weight bytes per token from both.
        here = os.path.dirname(os.path.abspath(__file__))
        runtime = os.path.join(here, "..", "..", "tests", "runtime")
        pte = report.analyse_bundle(os.path.join(runtime, "llm", "tiny_int8_npu.slm"))
        legacy = report.analyse_bundle(os.path.join(runtime, "legacy",
                                                    "tiny_int8_npu_legacy.slm"))
        self.assertGreater(pte["decode_layers"], 0)
        for key in ("decode_weight_bytes", "prefill_weight_bytes", "decode_layers",
                    "prefill_layers", "kv_read_bytes"):
            self.assertEqual(pte[key], legacy[key], key)
        # the NPU's weights dominate: the CPU operators' constants alone are a few KB
        self.assertGreater(pte["decode_weight_bytes"], 10 * 4096)

    def test_int8_io_unknown_name(self):
        with self.assertRaisesRegex(compiler.CompileError, "no input or output 'bogus'"):
            compiler.compile_file(self.paths[1], os.path.join(self.tmp.name, "x.pte"),
                                  quantize="int8", int8_io=(("bogus", 0.1),))


if __name__ == "__main__":
    unittest.main()
