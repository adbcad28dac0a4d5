"""Reads a zettasim sweep file (HDF5) into a pandas DataFrame with h5py: one row per point, text as str.

Used by plot_sweep.py and plot_breakdown.py; any script may `from sweep_file import read_points`.
"""
import json
import os

import h5py
import pandas

# Column-name suffixes that carry units (summary.json's and the sweep axes'), longest first.
UNITS = [("_flop_per_s", "FLOP/s"), ("_B_per_s", "B/s"), ("_flop", "FLOP"), ("_B", "B"), ("_s", "s"),
         ("_j", "J"), ("_w", "W")]


def read_points(path):
    """The sweep's points table, and its axes' column names in order."""
    with h5py.File(path, "r") as f:
        table = pandas.DataFrame(f["points"][:])
        spec = json.loads(f.attrs["spec"])
    for column in table.columns:
        if table[column].dtype == object:
            table[column] = table[column].str.decode("utf-8")
    axes = list(table.columns[1:1 + len(spec["axes"])])
    return table, axes


def label(column):
    """An axis label with the unit the column name carries: "iteration_time_s" -> "iteration time (s)"."""
    base = column.split(".")[-1] if "." in column else column
    for suffix, unit in UNITS:
        if column.endswith(suffix) and "." not in column[-len(suffix):]:
            return column[:-len(suffix)].split(".")[-1].replace("_", " ") + f" ({unit})"
        if "." in column and column.split(".")[0].endswith(suffix):
            return base.replace("_", " ") + f" ({unit})"
    return column.replace("_", " ")


def is_number(text):
    try:
        float(text)
        return True
    except ValueError:
        return False


def select(table, where):
    """The rows whose columns equal the values of `where` ["axis=value", ...]: as numbers where the column
    and the value are numbers, else as text."""
    for condition in where:
        column, _, value = condition.partition("=")
        if column not in table.columns:
            raise SystemExit(f"--where {condition}: no column {column!r} (columns: {', '.join(table.columns)})")
        if pandas.api.types.is_numeric_dtype(table[column]) and is_number(value):
            table = table[table[column] == float(value)]  # "1024" selects the size 1024.0
        else:
            table = table[table[column].astype(str) == value]
    return table


def value_text(value):
    """A value as a label shows it: 8e+10 rather than 80000000000.0, 4 rather than 4.0, a file by its name
    ("../models/b200.json" -> "b200", "x/hgx-h100-8.machine.json" -> "hgx-h100-8")."""
    if isinstance(value, float):
        return f"{value:g}"
    text = str(value)
    if text.endswith(".json"):
        return os.path.basename(text).removesuffix(".json").removesuffix(".machine")
    return text


def add_output_arguments(parser):
    """The options every plot script takes: --where, --title, --out and --data."""
    parser.add_argument("--where", action="append", default=[], help="AXIS=VALUE: only those points")
    parser.add_argument("--title", help="the figure's title (default: the sweep file's name)")
    parser.add_argument("--out", required=True, help="the PNG to write")
    parser.add_argument("--data", help="also write the values plotted as CSV")
