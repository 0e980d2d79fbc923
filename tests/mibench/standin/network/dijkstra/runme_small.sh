#!/bin/sh
# Stand-in of the project's own: see tests/mibench/README.md
dijkstra_small > output_small.dat
