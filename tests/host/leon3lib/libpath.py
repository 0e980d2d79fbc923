# SPDX-License-Identifier: GPL-2.0
"""Puts tools/ first in sys.path, as the tools do, so that a test imports
the library the tools import: `import libpath  # noqa: F401` first."""

import os
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(TOP, "tools"))
