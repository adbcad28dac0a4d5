#!/usr/bin/python3
"""The README is a user's guide of at most 400 lines; reference, worked examples and validation live in docs/.

    check_readme_length.py README.md

Exit 1 naming the page and its length when it is longer.
"""
import sys

LIMIT = 400

lines = open(sys.argv[1], encoding="utf-8").read().count("\n")
if lines > LIMIT:
    sys.exit(f"{sys.argv[1]}: {lines} lines, more than {LIMIT}: move reference, worked examples or validation "
             "detail to docs/ and link it")
print(f"{sys.argv[1]}: {lines} lines")
