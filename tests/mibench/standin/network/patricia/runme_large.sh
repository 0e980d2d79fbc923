#!/bin/sh
patricia > output_large.txt
