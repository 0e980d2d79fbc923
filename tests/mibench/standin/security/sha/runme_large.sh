#!/bin/sh
# Stand-in of the project's own: see tests/mibench/README.md
sha input_large.asc > output_large.txt
