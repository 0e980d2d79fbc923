#!/bin/sh
# Stand-in of the project's own: see tests/mibench/README.md
crc ../adpcm/data/large.pcm > output_small.txt
