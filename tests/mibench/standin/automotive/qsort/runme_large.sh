#!/bin/sh
# Stand-in of the project's own: see tests/mibench/README.md
qsort_large input_large.dat > output_large.txt
