#!/bin/sh
patricia > output_small.txt
