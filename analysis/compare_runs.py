#!/usr/bin/python3
"""Compare zettasim runs: one row per run folder (or summary.json) with every term of its time breakdown.

Usage: analysis/compare_runs.py results/default results/other ... [--csv out.csv]
Standard library only. The terms of a row (compute, exposed communication, pipeline bubble, memory stalls,
waiting in collectives, idle) add up to its iteration time; "vs first" is a row's iteration time relative to
the first row's.
"""
import argparse
import csv
import json
import pathlib
import sys

# The breakdown's terms as summary.json names them, and their column headings.
TERMS = [("compute", "compute"), ("exposed_communication", "exposed comm"), ("pipeline_bubble", "bubble"),
         ("memory_stall", "memory"), ("collective_wait", "waiting"), ("idle", "idle")]
COLUMNS = (["scenario", "iteration_time_s"] + [f"{term}_s" for term, _ in TERMS] +
           ["mfu", "tokens_per_second"])


def load(path: pathlib.Path) -> dict:
    summary = path / "summary.json" if path.is_dir() else path
    with open(summary, encoding="utf-8") as f:
        s = json.load(f)
    part = s["critical_rank_breakdown_s"]
    row = {"scenario": s["scenario"], "iteration_time_s": s["iteration_time_s"], "mfu": s["mfu"],
           "tokens_per_second": s["tokens_per_second"]}
    for term, _ in TERMS:
        row[f"{term}_s"] = part[term]
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=pathlib.Path, help="run folders or summary.json files")
    parser.add_argument("--csv", type=pathlib.Path, help="also write the table as CSV")
    args = parser.parse_args()
    try:
        rows = [load(p) for p in args.runs]
    except (OSError, KeyError, json.JSONDecodeError) as e:
        print(f"compare_runs: cannot read a run: {e}", file=sys.stderr)
        return 2
    print(f"{'scenario':24} {'iteration':>12}" + "".join(f" {heading:>12}" for _, heading in TERMS) +
          f" {'MFU':>7} {'vs first':>9}")
    first = rows[0]["iteration_time_s"]
    for k, r in enumerate(rows):
        versus = f" {100 * (r['iteration_time_s'] / first - 1):+8.2f}%" if k > 0 and first > 0 else ""
        print(f"{r['scenario']:24} {r['iteration_time_s'] * 1e3:10.3f}ms" +
              "".join(f" {r[f'{term}_s'] * 1e3:10.3f}ms" for term, _ in TERMS) + f" {r['mfu'] * 100:6.1f}%" +
              versus)
    if args.csv:
        with open(args.csv, "w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, fieldnames=COLUMNS)
            writer.writeheader()
            writer.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
