#!/usr/bin/python3
"""Prints one figure of a sweep as a table: a row per value of one axis, a column per value of another.

    analysis/sweep_table.py FILE.h5 --rows AXIS --columns AXIS --value COLUMN [--scale X] [--digits N]
                            [--where AXIS=VALUE ...]

The value is any column of the sweep's points table (summary.json's figures by their flattened names, such as
iteration_time_s or collective_benchmark.bus_bandwidth_B_per_s), multiplied by --scale (1e-9 for GB/s from
B/s, 1e6 for µs from s) and printed with --digits decimals; points that failed print their status. Rows and
columns keep the order of the sweep's values. A file it cannot read or a column the sweep lacks exits 2 with one
line. Needs h5py and pandas (Debian's python3-h5py and python3-pandas).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep_file import read_points, select, value_text  # noqa: E402


def heading(column, value):
    """A column's heading: a size in bytes as "64KiB" or "1GiB", any other value as sweep_file shows it."""
    if column.endswith("_B") and float(value).is_integer():
        size = int(value)
        for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
            if size % 1024 or unit == "TiB":
                return f"{size}{unit}"
            size //= 1024
    return value_text(value)


def fail(message):
    print(f"sweep_table.py: {message}", file=sys.stderr)
    sys.exit(2)


def table_rows(points, rows, columns, value, scale, digits):
    """The header and one line of cells per distinct value of `rows`, as lists of text."""
    column_values = list(dict.fromkeys(points[columns]))
    lines = [[rows] + [heading(columns, c) for c in column_values]]
    for row_value in dict.fromkeys(points[rows]):
        line = [heading(rows, row_value)]
        for column_value in column_values:
            hit = points[(points[rows] == row_value) & (points[columns] == column_value)]
            if hit.empty:
                line.append("-")
            elif hit.status.iloc[0] != "ok":
                line.append(hit.status.iloc[0])
            else:
                line.append(f"{hit[value].iloc[0] * scale:.{digits}f}")
        lines.append(line)
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sweep", help="the sweep's HDF5 file")
    parser.add_argument("--rows", required=True, help="the axis (or column) whose values are the rows")
    parser.add_argument("--columns", required=True, help="the axis (or column) whose values are the columns")
    parser.add_argument("--value", required=True, help="the column printed in the cells")
    parser.add_argument("--scale", type=float, default=1.0, help="multiplies every value (default 1)")
    parser.add_argument("--digits", type=int, default=3, help="decimals printed (default 3)")
    parser.add_argument("--where", action="append", default=[], metavar="AXIS=VALUE",
                        help="keep only the points with this value (repeatable)")
    args = parser.parse_args()
    try:
        points, _ = read_points(args.sweep)
    except (OSError, KeyError) as e:
        fail(f"{args.sweep}: cannot read a sweep's HDF5 file ({e})")
    named = [args.rows, args.columns, args.value] + [w.partition("=")[0] for w in args.where]
    for name in named:
        if name not in points.columns:
            fail(f"{args.sweep}: no column {name!r} in the sweep's points (columns: {', '.join(points.columns)})")
    points = select(points, args.where)
    lines = table_rows(points, args.rows, args.columns, args.value, args.scale, args.digits)
    widths = [max(len(line[k]) for line in lines) for k in range(len(lines[0]))]
    for line in lines:
        print("  ".join(cell.ljust(w) for cell, w in zip(line, widths)).rstrip())


if __name__ == "__main__":
    main()
