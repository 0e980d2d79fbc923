#!/bin/sh
# Stand-in of the project's own: see tests/mibench/README.md
basicmath_large 40000 > output_large.txt
