#!/bin/sh
# Stand-in of the project's own: see tests/mibench/README.md
bitcnts 75000 > output_large.txt
