#!/bin/sh
dijkstra_small > output_small.dat
