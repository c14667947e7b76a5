"""Program file writer and verifying reader."""

import random
import unittest

import numpy as np

from socsim_aot import program_format as pf
from socsim_aot.kernel_cases import Const, single_op_program
from socsim_aot.schema.conv import QUANTIZED_LINEAR


def sample_program():
    w = np.arange(-6, 6, dtype=np.int8).reshape(3, 4)
    p = single_op_program(QUANTIZED_LINEAR, [np.zeros((2, 4), np.int8), Const(w),
                                             Const(np.array([1, 2, 3], np.int32)),
                                             Const(np.ones((3, 2), np.int32))], (2, 3), np.int8,
                          dict(zp_in=0, zp_out=0, act_min=-128, act_max=127))
    p.tensors[1].quant = pf.QUANT_PER_CHANNEL
    p.tensors[1].scales = np.array([0.5, 0.25, 0.125], np.float32)
    p.delegates.append(pf.Delegate("cpu-packed", b"CPK1" + bytes(12)))
    return p


class ProgramFormatTest(unittest.TestCase):
    def test_round_trip_keeps_every_field(self):
        data = pf.write(sample_program())
        self.assertEqual(data[:4], b"SPRG")
        self.assertEqual(len(data) % 16, 0)
        p = pf.read(data)
        self.assertEqual(p.inputs, [0])
        self.assertEqual(p.outputs, [4])
        self.assertEqual(p.instructions[0].name, QUANTIZED_LINEAR.name)
        self.assertEqual(p.instructions[0].args, [0, 0, -128, 127])
        np.testing.assert_array_equal(p.tensors[1].constant,
                                      np.arange(-6, 6, dtype=np.int8).reshape(3, 4))
        np.testing.assert_array_equal(p.tensors[1].scales, [0.5, 0.25, 0.125])
        self.assertEqual(p.delegates[0].backend, "cpu-packed")
        self.assertEqual(p.buffers, [32])  # input 8 bytes, output 6 bytes, each 16-aligned
        for t in p.tensors:
            self.assertEqual(t.offset % 16, 0)

    def test_every_truncation_is_rejected(self):
        data = pf.write(sample_program())
        for cut in range(len(data)):
            with self.assertRaises(pf.ProgramFormatError, msg=f"cut {cut}"):
                pf.read(data[:cut])

    def test_random_corruption_raises_only_format_errors(self):
        data = pf.write(sample_program())
        rng = random.Random(5)
        rejected = 0
        for _ in range(3000):
            b = bytearray(data)
            for _ in range(rng.randint(1, 4)):
                b[rng.randrange(len(b))] ^= rng.randint(1, 255)
            try:
                pf.read(bytes(b))
            except pf.ProgramFormatError:
                rejected += 1
        self.assertGreater(rejected, 1500)

    def test_huge_counts_are_rejected(self):
        data = bytearray(pf.write(sample_program()))
        for field in (0x14, 0x1C, 0x24, 0x2C, 0x3C):
            b = bytearray(data)
            b[field:field + 4] = (0xFFFFFFFF).to_bytes(4, "little")
            with self.assertRaises(pf.ProgramFormatError):
                pf.read(bytes(b))

    def test_writer_refuses_bad_names(self):
        p = sample_program()
        p.instructions[0].name = "x" * 64
        with self.assertRaises(ValueError):
            pf.write(p)


if __name__ == "__main__":
    unittest.main()
