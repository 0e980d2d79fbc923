#!/bin/sh
# Stand-in of the project's own: see tests/mibench/README.md
search_small > output_small.txt
