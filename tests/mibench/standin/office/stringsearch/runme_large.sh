#!/bin/sh
# Stand-in of the project's own: see tests/mibench/README.md
search_large > output_large.txt
