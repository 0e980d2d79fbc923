# SPDX-License-Identifier: GPL-2.0
"""leon3lib.stats against values computed by hand."""

import math
import unittest

import libpath  # noqa: F401
from leon3lib import stats

# Two-sided 95 % quantiles of Student's t from a printed table (e.g.
# NIST/SEMATECH e-Handbook, 1.3.6.7.2), by degrees of freedom
TABLE = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
         9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131,
         16: 2.120, 17: 2.110, 18: 2.101, 19: 2.093, 20: 2.086, 21: 2.080, 22: 2.074,
         23: 2.069, 24: 2.064, 25: 2.060, 26: 2.056, 27: 2.052, 28: 2.048, 29: 2.045,
         30: 2.042, 40: 2.021, 50: 2.009, 60: 2.000, 80: 1.990, 100: 1.984}


class Stats(unittest.TestCase):
    def test_mean_cv(self):
        """10, 12, 14: mean 12, sample deviation 2, CV 16.667 %"""
        m, cv = stats.mean_cv([10, 12, 14])
        self.assertEqual(m, 12)
        self.assertAlmostEqual(cv, 100 * 2 / 12, places=12)

    def test_mean_cv_degenerate(self):
        """one value, or a mean of 0: CV 0; equal values: CV exactly 0"""
        self.assertEqual(stats.mean_cv([5.0]), (5.0, 0.0))
        self.assertEqual(stats.mean_cv([0, 0]), (0.0, 0.0))
        self.assertEqual(stats.mean_cv([11229835.0] * 4), (11229835.0, 0.0))

    def test_stdev(self):
        """2, 4, 4, 4, 5, 5, 7, 9: sample deviation sqrt(32/7)"""
        self.assertAlmostEqual(stats.stdev([2, 4, 4, 4, 5, 5, 7, 9]), math.sqrt(32 / 7),
                               places=12)

    def test_t95(self):
        """Student's t, 95 % two-sided, as the printed table gives it"""
        for df, t in TABLE.items():
            self.assertEqual(stats.t95(df), t, f"{df} degrees of freedom")
        self.assertRaises(ValueError, stats.t95, 0)

    def test_ci95(self):
        """10, 12, 14: 12 +- 4.303 x 2 / sqrt(3) = 4.968676"""
        m, h = stats.ci95([10, 12, 14])
        self.assertEqual(m, 12)
        self.assertAlmostEqual(h, 4.968676, places=6)

    def test_ci95_many(self):
        """25 runs: t with 24 degrees of freedom (2.064), not the normal 1.960"""
        values = [100 + (i % 5) for i in range(25)]      # 100..104, five of each
        s = math.sqrt(sum((v - 102) ** 2 for v in values) / 24)    # sqrt(50/24)
        m, h = stats.ci95(values)
        self.assertEqual(m, 102)
        self.assertAlmostEqual(h, 2.064 * s / 5, places=12)

    def test_ci95_one(self):
        """one value: its mean, and no interval (NaN)"""
        m, h = stats.ci95([7.0])
        self.assertEqual(m, 7.0)
        self.assertTrue(math.isnan(h))

    def test_outliers_flat(self):
        """nine runs of 100 and one of 150: MAD 0, so the limit is 2 % above"""
        idx, med, limit = stats.outliers([100] * 9 + [150])
        self.assertEqual((idx, med, limit), ({9}, 100, 102))

    def test_outliers_spread(self):
        """median 100, MAD 1: the limit is 100 + 5 x 1 = 105"""
        idx, med, limit = stats.outliers([100, 101, 99, 100, 102, 98, 100, 130])
        self.assertEqual((idx, med, limit), ({7}, 100, 105))


if __name__ == "__main__":
    unittest.main()
