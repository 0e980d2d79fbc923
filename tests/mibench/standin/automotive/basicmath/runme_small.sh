#!/bin/sh
# Stand-in of the project's own: see tests/mibench/README.md
basicmath_small 400 > output_small.txt
