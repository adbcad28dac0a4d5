#!/usr/bin/python3
"""Every comparison of a string against a literal in src/ is listed in name_comparisons.txt with its reason.

A closed set's names belong in its table (core::ChoiceNames, Param::choice, Param::file_kind), read once
into an enum; a comparison against one of its names elsewhere keeps the same fact in two places. This
check finds each `== "..."` and `!= "..."` in src/ (comments left out) and fails, naming file, line and
literal, for one the list does not hold, and for a listed one that is gone (so the list only shrinks).
It prints how many remain for each reason.

    check_name_comparisons.py SOURCE_DIR
"""
import collections
import os
import re
import sys

COMPARISON = re.compile(r'(?:==|!=)\s*"((?:[^"\\]|\\.)*)"|"((?:[^"\\]|\\.)*)"\s*(?:==|!=)')
LIST = "name_comparisons.txt"


def code_of(line):
    """The line without a // comment (a // inside a string literal is kept)."""
    out, in_string, i = [], False, 0
    while i < len(line):
        c = line[i]
        if c == '"' and (i == 0 or line[i - 1] != "\\"):
            in_string = not in_string
        if not in_string and line.startswith("//", i):
            break
        out.append(c)
        i += 1
    return "".join(out)


def found(source):
    """(file relative to the source tree, literal) -> [line numbers]."""
    hits = collections.defaultdict(list)
    for folder, _, names in os.walk(os.path.join(source, "src")):
        for name in sorted(names):
            if not name.endswith((".cpp", ".hpp")):
                continue
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, source)
            with open(path, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    for m in COMPARISON.finditer(code_of(line)):
                        hits[(rel, m.group(1) if m.group(1) is not None else m.group(2))].append(number)
    return hits


def listed(path):
    """(file, literal) -> reason, from lines "FILE | LITERAL | REASON" (# starts a comment)."""
    entries = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = [p.strip() for p in line.split(" | ")]
            if len(parts) != 3 or not parts[2]:
                sys.exit(f"{path}:{number}: expected FILE | LITERAL | REASON")
            entries[(parts[0], parts[1])] = parts[2]
    return entries


def main():
    source = sys.argv[1]
    hits = found(source)
    allowed = listed(os.path.join(os.path.dirname(os.path.abspath(__file__)), LIST))
    problems = []
    for (rel, literal), lines in sorted(hits.items()):
        if (rel, literal) not in allowed:
            problems.append(f'{rel}:{lines[0]}: compares a string with "{literal}": read the closed set once '
                            f"into an enum (or list it in tests/source/{LIST} with its reason)")
    for (rel, literal) in sorted(set(allowed) - set(hits)):
        problems.append(f'tests/source/{LIST}: "{rel} | {literal}" is no longer in the code: remove it')
    by_reason = collections.Counter(allowed[k] for k in hits if k in allowed)
    for reason, count in sorted(by_reason.items()):
        print(f"{count:4d}  {reason}")
    print(f"{sum(by_reason.values()):4d}  in all")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
