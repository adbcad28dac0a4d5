#!/usr/bin/python3
"""Compare zettasim runs: one row per run folder (or summary.json) with time breakdown and MFU.

Usage: analysis/compare_runs.py results/default results/other ... [--csv out.csv]
Standard library only. Plots from HDF5 sweeps will join this folder when sweeps land.
"""
import argparse
import csv
import json
import pathlib
import sys

COLUMNS = ["scenario", "iteration_time_s", "compute_s", "exposed_communication_s", "idle_s", "mfu",
           "tokens_per_second"]


def load(path: pathlib.Path) -> dict:
    summary = path / "summary.json" if path.is_dir() else path
    with open(summary, encoding="utf-8") as f:
        s = json.load(f)
    part = s["critical_rank_breakdown_s"]
    return {"scenario": s["scenario"], "iteration_time_s": s["iteration_time_s"], "compute_s": part["compute"],
            "exposed_communication_s": part["exposed_communication"], "idle_s": part["idle"], "mfu": s["mfu"],
            "tokens_per_second": s["tokens_per_second"]}


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
    print(f"{'scenario':24} {'iteration':>12} {'compute':>12} {'exposed comm':>12} {'idle':>12} {'MFU':>7}")
    for r in rows:
        print(f"{r['scenario']:24} {r['iteration_time_s'] * 1e3:10.3f}ms {r['compute_s'] * 1e3:10.3f}ms "
              f"{r['exposed_communication_s'] * 1e3:10.3f}ms {r['idle_s'] * 1e3:10.3f}ms {r['mfu'] * 100:6.1f}%")
    if args.csv:
        with open(args.csv, "w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, fieldnames=COLUMNS)
            writer.writeheader()
            writer.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
