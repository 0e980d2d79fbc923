#!/bin/sh
bitcnts 7500 > output_small.txt
