"""The int8 fixed-point helpers: exact values of the documented rules."""

import unittest

import numpy as np

from socsim_aot import fixed_point as fx


class FixedPointTest(unittest.TestCase):
    def test_quantize_multiplier_normalises(self):
        for real in (1e-6, 0.0123, 0.5, 0.75, 0.999999999, 1.0, 3.7, 1000.0):
            m, n = fx.quantize_multiplier(real)
            self.assertTrue(2 ** 30 <= m < 2 ** 31, real)
            self.assertTrue(1 <= n <= 62, real)
            self.assertAlmostEqual(m / 2 ** n / real, 1.0, delta=2 ** -30)
        self.assertEqual(fx.quantize_multiplier(0.5), (2 ** 30, 31))
        self.assertEqual(fx.quantize_multiplier(1.0), (2 ** 30, 30))

    def test_quantize_multiplier_limits(self):
        m, n = fx.quantize_multiplier(1e-20)
        self.assertEqual(n, 62)
        self.assertEqual(m, int(np.floor(1e-20 * 2.0 ** 62 + 0.5)))
        m, n = fx.quantize_multiplier(0.9, bits=23, max_shift=30)
        self.assertTrue(2 ** 22 <= m < 2 ** 23)
        for bad in (0.0, -1.0, float("nan"), 2.0 ** 40):
            with self.assertRaises(ValueError):
                fx.quantize_multiplier(bad)

    def test_round_shift_rounds_halves_up(self):
        x = np.array([-3, -2, -1, 0, 1, 2, 3, 5, -5])
        np.testing.assert_array_equal(fx.round_shift(x, 1), [-1, -1, 0, 0, 1, 1, 2, 3, -2])
        np.testing.assert_array_equal(fx.requantize([7, -7, 6], 2 ** 30, 31), [4, -3, 3])

    def test_div_round(self):
        np.testing.assert_array_equal(fx.div_round([5, -5, 7, -7, 6], [2, 2, 2, 2, 4]),
                                      [3, -2, 4, -3, 2])

    def test_quantize_rounds_half_to_even_and_saturates(self):
        q = fx.quantize_f32(np.array([0.25, 0.75, -0.25, 1e9, -1e9, np.nan], np.float32),
                            0.5, 0)
        np.testing.assert_array_equal(q, [0, 2, 0, 127, -128, -128])

    def test_softmax_table(self):
        t = fx.softmax_table(0.1)
        self.assertEqual(t[0], 65536)
        self.assertEqual(t[10], int(np.floor(65536 * np.exp(-1.0) + 0.5)))
        self.assertTrue(np.all(np.diff(t) <= 0))


if __name__ == "__main__":
    unittest.main()
