#!/usr/bin/python3
"""Compares two runs of `zettasim validate` (a table as published and a what-if with --set): run by run.

    analysis/compare_validations.py BASE WHAT-IF [--group LABEL=TEXT ...]

BASE and WHAT-IF are --out folders (or their validation.json). Each run of both prints its error in each
(predicted against published, + when the prediction is faster), the change in points (+ faster in the
what-if), its predicted iteration time in each and the what-if's difference in ms; then the runs within
tolerance and the mean absolute error of both, and for each --group the smallest and largest change over the
runs whose name holds TEXT (or one of TEXT|TEXT...; with !TEXT, those whose name holds none of them). Standard
library only. A folder it cannot read, two runs without a run in common or a group matching no run
exits 2 with one line.
"""
import argparse
import json
import pathlib
import sys


def fail(message):
    print(f"compare_validations.py: {message}", file=sys.stderr)
    sys.exit(2)


def load(path):
    """The validation document and its runs by name (a published-runs table calls them runs, SC'21 rows)."""
    path = pathlib.Path(path)
    file = path / "validation.json" if path.is_dir() else path
    try:
        doc = json.loads(file.read_text(encoding="utf-8"))
        table = doc.get("runs", doc.get("rows"))
        return doc, {r["name"]: r for r in table}
    except (OSError, ValueError, KeyError, TypeError) as e:
        fail(f"cannot read a validation in {path}: {e}")


def iteration_s(run):
    """A run's predicted iteration time (a published-runs table and SC'21's rows name it differently)."""
    return run.get("predicted_iteration_time_s", run.get("iteration_time_s", float("nan")))


def percent(value):
    return f"{100 * value:+.1f}%"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="the validation as the files state it (--out folder or validation.json)")
    parser.add_argument("what_if", help="the same validation with --set (--out folder or validation.json)")
    parser.add_argument("--group", action="append", default=[], metavar="LABEL=TEXT",
                        help="the range of change over the runs whose name holds TEXT, or one of TEXT|TEXT "
                             "(!TEXT: none of them); repeatable")
    args = parser.parse_args()
    base_doc, base = load(args.base)
    what_doc, what = load(args.what_if)
    names = [n for n in base if n in what]
    if not names:
        fail(f"{args.base} and {args.what_if} have no run in common")
    changes, longer = {}, {}
    print(f"{'run':34} {'base':>8} {'what-if':>8} {'change':>7}  {'iteration':>10} {'what-if':>10} "
          f"{'longer':>10}")
    for name in names:
        b, w = base[name], what[name]
        if "error" not in b or "error" not in w:
            print(f"{name:34} {'not predicted':>17}")
            continue
        changes[name] = 100 * (w["error"] - b["error"])
        longer[name] = 1e3 * (iteration_s(w) - iteration_s(b))
        iteration = [f"{iteration_s(r):.4g} s" for r in (b, w)]
        print(f"{name:34} {percent(b['error']):>8} {percent(w['error']):>8} {changes[name]:+7.1f}  "
              f"{iteration[0]:>10} {iteration[1]:>10} {longer[name]:+8.1f}ms")
    for label, doc in (("base", base_doc), ("what-if", what_doc)):
        s = doc["summary"]
        print(f"{label}: {s['within_row_tolerance']} of {s['rows']} within tolerance, mean absolute error "
              f"{100 * s['mean_absolute_error']:.1f}%")
    for group in args.group:
        label, _, text = group.partition("=")
        wanted = not text.startswith("!")
        texts = text.removeprefix("!").split("|")
        picked = [n for n in changes if any(t in n for t in texts) == wanted]
        if not picked:
            fail(f"--group {group}: no run's name holds {text!r}")
        points, ms = [changes[n] for n in picked], [longer[n] for n in picked]
        print(f"{label}: change {min(points):+.1f} to {max(points):+.1f} points, iteration {min(ms):+.1f} ms to "
              f"{max(ms):+.1f} ms, over {len(picked)} runs")


if __name__ == "__main__":
    main()
