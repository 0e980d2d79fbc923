#!/bin/sh
# Stand-in of the project's own: see tests/mibench/README.md
dijkstra_large > output_large.dat
