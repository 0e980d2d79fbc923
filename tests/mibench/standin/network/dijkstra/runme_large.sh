#!/bin/sh
dijkstra_large > output_large.dat
