#!/bin/sh
# Stand-in of the project's own: see tests/mibench/README.md
patricia > output_small.txt
