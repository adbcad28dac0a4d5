#!/usr/bin/python3
"""Runs the commands a page shows output of and compares, in the style of SimGrid's tesh files.

    check_page_outputs.py ZETTASIM BUILD_DIR SOURCE_DIR PAGE.md... [--only TEXT] [--except TEXT]

A fenced block preceded by the comment `<!-- output of: COMMAND -->` is COMMAND's expected output: COMMAND
runs with bash in a scratch folder that holds the source tree's shipped folders (scenarios, models,
topologies, workloads, analysis, examples), `zettasim` meaning the build's executable, the build's Python
module on PYTHONPATH, the build folder in ZS_BUILD (where the example plugins are) and the golden result
folders in ZS_GOLDEN (tests/golden: the golden tests hold each of them to its command's output byte for byte,
so a page may quote a headline run's figures from there without rerunning it), and the block's lines
must appear in its output in that order (a block may leave lines out: "abridged"). A block line "..." stands
for nothing, and so does "$ COMMAND" (the command shown as typed); a line ending in " ..." matches any line
it starts. The commands of the pages of one run share the scratch folder, in page order, so a later block
(or page) may read what an earlier one wrote. Numbers are compared as printed: a figure the tool prints
differently fails, so a change that moves a published number fails until the page is regenerated.

A markdown table preceded by `<!-- figures of: COMMAND -->` keeps its own layout: each of its rows' figure
cells (a cell that is one number, with an optional sign, dollar sign, thousands commas, % or unit: "131.8",
"+9.6%", "8.453 s", "1,024", "$0.0043") must be printed by COMMAND, the row's figures on at most two lines of its output that
each hold at least two of them (one, for a row of one figure): a row of a validation table is a line (or,
for a row comparing two runs, two lines) of the report. Figures are compared as numbers ("21.0 s" is the
report's "21 s"), so a prediction that moves by its last printed digit fails. A line
`<!-- not compared: HEADING, HEADING -->` right after the marker names columns the command does not print
(dated measurements such as wall times, plan facts from the files); their cells are left out.

The same marker before a paragraph of prose, with a line `<!-- printed: FIGURE, FIGURE -->` after it
(figures separated by a comma and a space), checks each listed figure: it is a figure of the paragraph (up
to its blank line) and of COMMAND's output, signs left out (prose says "15.5% slow" where a report prints
-15.5%), so that neither the paragraph nor the output can move a quoted figure alone.

With ZS_VALIDATION_RUNS naming the folder of validations tests/validation runs once for the whole test run,
its folders (v-sc21, v-at-scale, ...) lie in the scratch folder too, so that a command written `test -d v-sc21
|| zettasim validate --out v-sc21 ...` reads them instead of running the validation again.

--only TEXT runs only the markers whose command holds TEXT, --except TEXT the others (so that a slow table
can be a test of its own).

Exit 1 naming the page, the block's line and the first line or row not found.
"""
import os
import re
import subprocess
import sys
import tempfile

MARKER = re.compile(r"^<!-- (output|figures) of: (.*) -->$")
NOT_COMPARED = re.compile(r"^<!-- not compared: (.*) -->$")
PRINTED = re.compile(r"^<!-- printed: (.*) -->$")
FIGURE = re.compile(r"^([+-]?)\$?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(%?)(?: ?(?:s|ms|us|µs|GB|GiB|MiB|TFLOP/s))?$")
SHIPPED = ("scenarios", "models", "topologies", "workloads", "analysis", "examples")


def blocks(path):
    """(line number, mode, command, expected lines) of every marked block or table of the page."""
    lines = open(path, encoding="utf-8").read().split("\n")
    found = []
    for i, line in enumerate(lines):
        m = MARKER.match(line.strip())
        if not m:
            continue
        mode, command = m.group(1), m.group(2)
        start = i + 1
        if mode == "figures" and start < len(lines) and PRINTED.match(lines[start].strip()):
            listed = [w.strip() for w in re.split(r",\s+", PRINTED.match(lines[start].strip()).group(1))]
            end = start + 1
            while end < len(lines) and lines[end].strip():
                end += 1
            if end == start + 1:
                sys.exit(f"{path}:{i + 1}: a printed-figures marker without a paragraph after it")
            found.append((i + 1, "prose", command, (listed, " ".join(lines[start + 1:end]))))
            continue
        if mode == "figures":
            skipped = NOT_COMPARED.match(lines[start].strip()) if start < len(lines) else None
            # A table inside a list item is indented.
            while start < len(lines) and not lines[start].lstrip().startswith("|"):
                start += 1
            end = start
            while end < len(lines) and lines[end].lstrip().startswith("|"):
                end += 1
            if end - start < 3:
                sys.exit(f"{path}:{i + 1}: a figures marker without a table of rows after it")
            rows = lines[start + 2:end]
            if skipped:
                rows = without_columns(path, i + 1, lines[start], rows, skipped.group(1))
            found.append((i + 1, mode, command, rows))
            continue
        while start < len(lines) and not lines[start].startswith("```"):
            start += 1
        if start == len(lines):
            sys.exit(f"{path}:{i + 1}: an output marker without a fenced block after it")
        end = start + 1
        while end < len(lines) and not lines[end].startswith("```"):
            end += 1
        found.append((i + 1, mode, command, [l.rstrip() for l in lines[start + 1:end]]))
    return found


def cells(row):
    """A markdown table row's cells, stripped."""
    return [c.strip() for c in row.strip().strip("|").split("|")]


def without_columns(path, line_no, header, rows, names):
    """The rows without the cells of the columns whose headings are listed (exit when one is not a heading)."""
    headings = cells(header)
    drop = set()
    for name in (n.strip() for n in names.split(",")):
        if name not in headings:
            sys.exit(f"{path}:{line_no}: \"{name}\" is not a column of the table (its headings: "
                     f"{', '.join(headings)})")
        drop.add(headings.index(name))
    return ["| " + " | ".join(c for k, c in enumerate(cells(r)) if k not in drop) + " |" for r in rows]


def figure(text):
    """A cell or word as (value, percent) when it is one number, else None."""
    m = FIGURE.match(text.strip().rstrip(",;"))
    if not m:
        return None
    value = float(m.group(2).replace(",", ""))
    return (-value if m.group(1) == "-" else value, m.group(3) == "%")


def line_figures(line):
    """The figures of an output line; a report's "40.4 %" (a column's sign apart) is the figure 40.4%."""
    line = re.sub(r"(\d) %", r"\1%", line)
    return {f for f in (figure(w) for w in re.split(r"[\s()]+", line)) if f is not None}


def missing_row(rows, output):
    """The first table row whose figures the output does not print as the module docstring says."""
    printed = [line_figures(l) for l in output.split("\n")]
    for row in rows:
        wanted = [f for f in (figure(c) for c in cells(row)) if f is not None]
        if not wanted:
            continue
        need = 1 if len(wanted) == 1 else 2
        left = set(wanted)
        for _ in range(2):
            best = max(printed, key=lambda have: len(left & have), default=set())
            if len(left & best) < min(need, len(left)):
                break
            left -= best
            if not left:
                break
        if left:
            return row
    return None


def magnitude(f):
    """A figure without its sign: prose says "15.5% slow" where a report prints -15.5%."""
    return (abs(f[0]), f[1])


def missing_prose_figure(path, line_no, listed, paragraph, output):
    """The first listed figure that the paragraph or the output does not hold, with where it is missing."""
    in_text = {magnitude(f) for f in (figure(w.rstrip(".:")) for w in re.split(r"[\s()]+", paragraph)) if f}
    printed = {magnitude(f) for f in set().union(*(line_figures(l) for l in output.split("\n")))}
    for text in listed:
        wanted = figure(text)
        if wanted is None:
            sys.exit(f"{path}:{line_no}: \"{text}\" in the printed list is not a figure")
        wanted = magnitude(wanted)
        if wanted not in in_text:
            return f"{text} (not in the paragraph)"
        if wanted not in printed:
            return f"{text} (not in the output)"
    return None


def matches(expected, actual):
    if expected.endswith(" ..."):
        return actual.startswith(expected[:-4])
    return expected == actual


def first_missing(command, expected, output):
    """The first expected line not found, in order, among the output's lines; None when all are."""
    actual = [l.rstrip() for l in output.split("\n")]
    at = 0
    for line in expected:
        if line in ("...", "", "$ " + command):  # a block may show its command as a shell prompt would
            continue
        while at < len(actual) and not matches(line, actual[at]):
            at += 1
        if at == len(actual):
            return line
        at += 1
    return None


def parse_arguments(argv):
    """(zettasim, build, source, pages, only, skip) from the command line, or exit with the usage."""
    args, only, skip = [], None, None
    words = iter(argv)
    for a in words:
        if a in ("--only", "--except"):
            value = next(words, None)
            if value is None:
                sys.exit(a + " needs a TEXT")
            only, skip = (value, skip) if a == "--only" else (only, value)
        else:
            args.append(a)
    if len(args) < 4:
        sys.exit(__doc__)
    zettasim, build, source = (os.path.abspath(a) for a in args[:3])
    return zettasim, build, source, args[3:], only, skip


def scratch_environment(scratch, zettasim, build, source):
    """Lays the shipped folders and `zettasim` into the scratch folder; the environment commands run in."""
    for folder in SHIPPED:
        os.symlink(os.path.join(source, folder), os.path.join(scratch, folder))
    runs = os.environ.get("ZS_VALIDATION_RUNS")  # validations run once for every test (tests/validation)
    if runs and os.path.isdir(runs):
        for name in os.listdir(runs):
            if os.path.isdir(os.path.join(runs, name)):
                os.symlink(os.path.join(runs, name), os.path.join(scratch, name))
    bin_dir = os.path.join(scratch, ".bin")
    os.mkdir(bin_dir)
    os.symlink(zettasim, os.path.join(bin_dir, "zettasim"))
    return dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""),
                PYTHONPATH=os.path.join(build, "python"), ZS_BUILD=build,
                ZS_GOLDEN=os.path.join(source, "tests", "golden"))


def missing_of(page, line_no, mode, command, expected, output):
    """What of a marked block, table or paragraph the output lacks, or None."""
    if mode == "prose":
        return missing_prose_figure(page, line_no, expected[0], expected[1], output)
    if mode == "figures":
        return missing_row(expected, output)
    return first_missing(command, expected, output)


def main():
    zettasim, build, source, pages, only, skip = parse_arguments(sys.argv[1:])
    failures = 0
    checked = 0
    with tempfile.TemporaryDirectory() as scratch:
        env = scratch_environment(scratch, zettasim, build, source)
        for page in pages:
            for line_no, mode, command, expected in blocks(page):
                if (only is not None and only not in command) or (skip is not None and skip in command):
                    continue
                checked += 1
                run = subprocess.run(["bash", "-c", command], cwd=scratch, env=env, capture_output=True,
                                     text=True, timeout=600)
                missing = missing_of(page, line_no, mode, command, expected, run.stdout)
                if missing is not None:
                    failures += 1
                    what = {"figures": "row", "prose": "figure"}.get(mode, "line")
                    print(f"{os.path.relpath(page, source)}:{line_no}: the output of `{command}` "
                          f"(exit {run.returncode}) has no {what}\n  {missing}\nin order; it printed:\n"
                          f"{run.stdout}{run.stderr}", file=sys.stderr)
    if checked == 0:
        sys.exit("no marked output block in " + " ".join(pages))
    print(f"{checked} output blocks and tables checked, {failures} differ")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
