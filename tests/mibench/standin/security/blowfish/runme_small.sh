#!/bin/sh
# Stand-in of the project's own: see tests/mibench/README.md
bf > output_small.txt
