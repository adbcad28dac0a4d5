#!/usr/bin/python3
"""Stacked bars of the time breakdown of each point of a zettasim sweep (the critical rank's iteration).

Usage: analysis/plot_breakdown.py results/NAME.h5 --out fig.png [--where AXIS=VALUE]... [--data FILE.csv]
One bar per point with status "ok": compute, exposed communication, pipeline bubble, memory stalls and idle,
in seconds, labelled by the point's axis values. Needs python3-h5py, python3-pandas and python3-matplotlib.
"""
import argparse
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sweep_file import add_output_arguments, read_points, select, value_text  # noqa: E402

PARTS = ["compute", "exposed_communication", "pipeline_bubble", "memory_stall", "collective_wait", "idle"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sweep", help="the sweep's HDF5 file")
    add_output_arguments(parser)
    args = parser.parse_args()

    table, axes = read_points(args.sweep)
    ok = select(table[table["status"] == "ok"], args.where)
    if ok.empty:
        sys.exit(f"plot_breakdown.py: no point with status ok in {args.sweep} matches")
    columns = [f"critical_rank_breakdown_s.{part}" for part in PARTS]
    names = [", ".join(f"{a}={value_text(row[a])}" for a in axes) for _, row in ok.iterrows()]

    fig, ax = plt.subplots(figsize=(8, 5), dpi=100)
    bottom = [0.0] * len(ok)
    for part, column in zip(PARTS, columns):
        values = list(ok[column])
        ax.bar(range(len(ok)), values, bottom=bottom, label=part.replace("_", " "))
        bottom = [b + v for b, v in zip(bottom, values)]
    ax.set_xticks(range(len(ok)), names, rotation=30, ha="right", fontsize=7)
    ax.set_ylabel("time per iteration (s)")
    ax.set_title(args.title or args.sweep)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.out)
    if args.data:
        ok[["point"] + axes + columns].to_csv(args.data, index=False)
    print(f"plot_breakdown.py: {args.out}")


if __name__ == "__main__":
    main()
