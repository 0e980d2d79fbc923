#!/bin/sh
# Stand-in of the project's own: see tests/mibench/README.md
qsort_small input_small.dat > output_small.txt
