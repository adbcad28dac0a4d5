#!/usr/bin/python3
"""A researcher's script: load a sweep's HDF5 file into pandas (analysis/sweep_file.py, h5py underneath) and
redraw the README's figure: all-reduce bus bandwidth against message size, policy auto, on 8, 16 and 32 H100.

    zettasim sweep scenarios/sweeps/all-reduce-bus-bandwidth.json
    analysis/examples/bus_bandwidth_from_sweep.py results/all-reduce-bus-bandwidth.h5 --out bw.png [--csv bw.csv]
"""
import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from sweep_file import read_points  # noqa: E402

LABELS = {"hgx-h100-8": "1 server (8 H100, NVSwitch)", "hgx-h100-rails-16": "2 servers (16 H100, 8 rails)",
          "hgx-h100-rails-32": "4 servers (32 H100, 8 rails)"}


def auto_curves(points):
    """The auto policy's bus bandwidth (GB/s) by size (B), one column per machine."""
    ok = points[(points.status == "ok") & (points.collective == "auto")].copy()
    ok["machine"] = ok.machine.str.extract(r"([^/]+)\.machine\.json$", expand=False)
    ok["bus_bandwidth_GB_per_s"] = ok["collective_benchmark.bus_bandwidth_B_per_s"] / 1e9
    return ok.pivot(index="size_B", columns="machine", values="bus_bandwidth_GB_per_s")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sweep", help="the sweep's HDF5 file")
    parser.add_argument("--out", required=True, help="the PNG to write")
    parser.add_argument("--csv", help="also write the plotted numbers here")
    args = parser.parse_args()
    points, _ = read_points(args.sweep)
    curves = auto_curves(points)
    fig, ax = plt.subplots(figsize=(8, 5), dpi=100)
    for machine in curves.columns:
        ax.plot(curves.index, curves[machine], marker="o", label=LABELS.get(machine, machine))
    ax.set_xscale("log", base=2)
    ax.set_xlabel("all-reduce size per rank (B)")
    ax.set_ylabel("bus bandwidth (GB/s)")
    ax.set_title("all-reduce bus bandwidth: policy auto")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.out)
    if args.csv:
        curves.to_csv(args.csv)
    print(curves.iloc[[0, -1]].to_string(float_format=lambda v: f"{v:.1f}"))


if __name__ == "__main__":
    main()
