#!/bin/sh
# Stand-in of the project's own: see tests/mibench/README.md
bitcnts 7500 > output_small.txt
