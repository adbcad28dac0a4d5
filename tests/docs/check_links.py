#!/usr/bin/python3
"""Every relative link of the repository's pages names a file or folder that exists.

    check_links.py SOURCE_DIR

Reads README.md, docs/*.md and the READMEs of the shipped folders; exit 1 listing each page and link that
resolves to nothing (anchors are not checked).
"""
import glob
import os
import re
import sys

LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")

root = sys.argv[1]
pages = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md"))) + sorted(
    glob.glob(os.path.join(root, "*", "README.md")))
broken = []
for page in pages:
    text = open(page, encoding="utf-8").read()
    for match in LINK.finditer(text):
        target = match.group(1)
        if re.match(r"^[a-z]+:", target):  # https:, mailto:
            continue
        if not os.path.exists(os.path.normpath(os.path.join(os.path.dirname(page), target))):
            line = text.count("\n", 0, match.start()) + 1
            broken.append(f"{os.path.relpath(page, root)}:{line}: a link to {target}, which does not exist")
if broken:
    sys.exit("\n".join(broken))
print(f"{len(pages)} pages, every relative link resolves")
