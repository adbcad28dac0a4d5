#!/usr/bin/python3
"""Plot a metric of a zettasim sweep: over one axis as lines grouped by a second, or over two as a heatmap.

Usage:
  analysis/plot_sweep.py results/NAME.h5 --metric iteration_time_s --x optical_switches --group placement --out fig.png
  analysis/plot_sweep.py results/NAME.h5 --metric mfu --x dp --y micro_batch --heatmap --out fig.png
Only points with status "ok" are plotted. --where AXIS=VALUE keeps the points with that value (repeatable);
--data FILE.csv writes the values plotted. Needs Debian's python3-h5py, python3-pandas and python3-matplotlib.
"""
import argparse
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sweep_file import add_output_arguments, label, read_points, select, value_text  # noqa: E402


def lines(ok, args, ax):
    groups = [(None, ok)] if args.group is None else list(ok.groupby(args.group, sort=True))
    plotted = []
    for value, rows in groups:
        rows = rows.sort_values(args.x)
        name = args.metric if value is None else f"{args.group} = {value_text(value)}"
        ax.plot(rows[args.x], rows[args.metric], marker="o", label=name)
        plotted.append(rows[[args.x] + ([args.group] if args.group else []) + [args.metric]])
    ax.set_xlabel(label(args.x))
    ax.set_ylabel(label(args.metric))
    if args.log_x:
        ax.set_xscale("log")
    ax.legend()
    ax.grid(True, alpha=0.3)
    return plotted


def heatmap(ok, args, fig, ax):
    grid = ok.pivot_table(index=args.y, columns=args.x, values=args.metric, aggfunc="first")
    image = ax.imshow(grid.values, origin="lower", aspect="auto", cmap="viridis")
    ax.set_xticks(range(len(grid.columns)), [value_text(c) for c in grid.columns])
    ax.set_yticks(range(len(grid.index)), [value_text(i) for i in grid.index])
    ax.set_xlabel(label(args.x))
    ax.set_ylabel(label(args.y))
    fig.colorbar(image, ax=ax, label=label(args.metric))
    return [ok[[args.x, args.y, args.metric]].sort_values([args.y, args.x])]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sweep", help="the sweep's HDF5 file")
    parser.add_argument("--metric", default="iteration_time_s", help="a column (default iteration_time_s)")
    parser.add_argument("--x", help="the axis along x (default: the sweep's first axis)")
    parser.add_argument("--group", help="one line per value of this axis")
    parser.add_argument("--y", help="with --heatmap: the axis along y")
    parser.add_argument("--heatmap", action="store_true", help="a heatmap over --x and --y")
    parser.add_argument("--log-x", action="store_true", help="a logarithmic x axis")
    add_output_arguments(parser)
    args = parser.parse_args()

    table, axes = read_points(args.sweep)
    args.x = args.x or axes[0]
    for column in [args.metric, args.x, args.group, args.y]:
        if column is not None and column not in table.columns:
            sys.exit(f"plot_sweep.py: no column {column!r} in {args.sweep} (columns: {', '.join(table.columns)})")
    if args.heatmap and args.y is None:
        sys.exit("plot_sweep.py: --heatmap needs --y")
    ok = select(table[table["status"] == "ok"], args.where)
    if ok.empty:
        sys.exit(f"plot_sweep.py: no point with status ok in {args.sweep} matches")

    fig, ax = plt.subplots(figsize=(8, 5), dpi=100)
    plotted = heatmap(ok, args, fig, ax) if args.heatmap else lines(ok, args, ax)
    ax.set_title(args.title or args.sweep)
    fig.tight_layout()
    fig.savefig(args.out)
    if args.data:
        import pandas
        pandas.concat(plotted).to_csv(args.data, index=False)
    print(f"plot_sweep.py: {args.out}")


if __name__ == "__main__":
    main()
