# SPDX-License-Identifier: GPL-2.0
"""The statistics of the tools' tables: mean, coefficient of variation,
Student's t 95 % confidence intervals, and outliers by the median."""

import math
import statistics


def mean(values):
    return sum(values) / len(values)


def stdev(values):
    """The sample standard deviation (n - 1) of two values or more."""
    m = mean(values)
    return (sum((v - m) ** 2 for v in values) / (len(values) - 1)) ** 0.5


def mean_cv(values):
    """Mean and coefficient of variation (%, of the sample standard
    deviation); the CV is 0 for one value or a mean of 0."""
    m = mean(values)
    if len(values) < 2 or m == 0:
        return m, 0.0
    return m, 100.0 * stdev(values) / m


def _t_central(t, df):
    """P(|T| < t) for Student's t with DF degrees of freedom: the finite
    series of Abramowitz and Stegun 26.7.3 (odd DF) and 26.7.4 (even)."""
    theta = math.atan(t / math.sqrt(df))
    s, c2 = math.sin(theta), math.cos(theta) ** 2
    if df % 2:
        term = total = math.cos(theta) if df > 1 else 0.0
        for k in range(3, df - 1, 2):
            term *= c2 * (k - 1) / k
            total += term
        return 2 / math.pi * (theta + s * total)
    term = total = 1.0
    for k in range(2, df - 1, 2):
        term *= c2 * (k - 1) / k
        total += term
    return s * total


def t95(df):
    """The two-sided 95 % quantile of Student's t with DF degrees of
    freedom, to 3 decimals as the printed tables give it (12.706 for 1,
    2.086 for 20, 1.984 for 100)."""
    if df < 1:
        raise ValueError(f"{df} degrees of freedom")
    lo, hi = 0.0, 13.0          # t95(1) = 12.706 is the largest
    for _ in range(60):         # bisection: 13 / 2^60, far below 0.0005
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _t_central(mid, df) < 0.95 else (lo, mid)
    return round(hi, 3)


def ci95(values):
    """Mean and the half-width of its 95 % confidence interval (Student's
    t, sample standard deviation); NaN for the half-width of one value."""
    n = len(values)
    m = mean(values)
    if n < 2:
        return m, float("nan")
    return m, t95(n - 1) * stdev(values) / math.sqrt(n)


def outliers(values, mads=5, share=0.02):
    """Indexes of VALUES well above the rest, the median, and the limit:
    more than the median plus MADS median absolute deviations, and
    SHARE of the median (so that identical runs flag no noise)."""
    med = statistics.median(values)
    mad = statistics.median(abs(v - med) for v in values)
    limit = med + max(mads * mad, share * med)
    return {i for i, v in enumerate(values) if v > limit}, med, limit
