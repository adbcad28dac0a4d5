#!/usr/bin/python3
"""A Gantt chart of chosen ranks from a zettasim timeline (run --timeline) or time series (run --timeseries).

Usage: analysis/plot_timeline.py FILE.json|FILE.h5 --out fig.png [--ranks 0,8,16] [--window START_S END_S]
                                 [--title T] [--data FILE.csv]
From a timeline: one row per track of each rank (its state, then each stream that ran something), each op a
bar coloured by what it is (compute, each collective kind, send/recv, memory move) and each state by its name.
From a time series: one row per rank, each sample coloured by the state that filled most of it.
--data writes what was drawn: rank, track, what, start_s, duration_s. Needs python3-matplotlib (and
python3-h5py for time series).
"""
import argparse
import csv
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLOURS = {"compute": "#4c72b0", "exposed communication": "#dd8452", "pipeline bubble": "#8c8c8c",
           "memory stall": "#8172b3", "idle": "#ffffff", "all-to-all": "#c44e52", "all-reduce": "#dd8452",
           "all-gather": "#ccb974", "reduce-scatter": "#937860", "broadcast": "#da8bc3", "send": "#55a868",
           "recv": "#64b5cd", "read": "#8172b3", "write": "#b07aa1", "waiting for the group": "#000000"}


def colour(what):
    return COLOURS.get(what, "#999999")


def timeline_bars(path, ranks):
    """(rank, track, what, start_s, duration_s) of each slice of the chosen ranks' tracks."""
    with open(path) as f:
        doc = json.load(f)
    threads, bars = {}, []
    for e in doc["traceEvents"]:
        if e["ph"] == "M" and e["name"] == "thread_name":
            threads[(e["pid"], e["tid"])] = e["args"]["name"]
    for e in doc["traceEvents"]:
        if e["ph"] != "X" or (ranks and e["pid"] not in ranks):
            continue
        args = e.get("args", {})
        what = {"state": e["name"], "compute": "compute", "collective": args.get("collective"),
                "p2p": args.get("direction"), "memory": args.get("direction"), "wait": "waiting for the group"
                }.get(e["cat"], e["cat"])
        bars.append((e["pid"], threads[(e["pid"], e["tid"])], what, e["ts"] / 1e6, e["dur"] / 1e6))
    return bars


def timeseries_bars(path, ranks):
    """(rank, "state", dominant state, start_s, step_s) of each sample of the chosen ranks."""
    import h5py
    import numpy
    with h5py.File(path, "r") as f:
        step = float(f["step_s"][0])
        names = [n.decode() for n in f["ranks/state_name"][:]]
        shares = f["ranks/state"][:]
        file_ranks = list(f["ranks/rank"][:])
    bars = []
    for slot, rank in enumerate(file_ranks):
        if ranks and rank not in ranks:
            continue
        dominant = numpy.argmax(shares[slot], axis=0)
        for i, state in enumerate(dominant):
            bars.append((int(rank), "state", names[state], i * step, step))
    return bars


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", help="a timeline (.json) or time series (.h5) of zettasim run")
    parser.add_argument("--ranks", help="comma-separated ranks to draw (default: every rank in the file)")
    parser.add_argument("--window", nargs=2, type=float, metavar=("START_S", "END_S"),
                        help="only this span of simulated time, s")
    parser.add_argument("--title", help="the figure's title (default: the file's name)")
    parser.add_argument("--out", required=True, help="the PNG to write")
    parser.add_argument("--data", help="also write the bars drawn as CSV")
    args = parser.parse_args()
    ranks = {int(r) for r in args.ranks.split(",")} if args.ranks else set()
    bars = timeseries_bars(args.file, ranks) if args.file.endswith(".h5") else timeline_bars(args.file, ranks)
    if args.window:
        start, end = args.window
        bars = [b for b in bars if b[3] + b[4] >= start and b[3] <= end]
    if not bars:
        sys.exit(f"plot_timeline.py: nothing to draw in {args.file} for those ranks and that window")

    rows = sorted({(b[0], b[1]) for b in bars}, key=lambda r: (r[0], r[1] != "state", r[1]))
    row_of = {r: i for i, r in enumerate(rows)}
    fig, ax = plt.subplots(figsize=(8, 5), dpi=100)
    seen, groups = {}, {}
    for rank, track, what, start, duration in bars:
        if what != "idle":
            groups.setdefault((what, row_of[(rank, track)]), []).append((start, duration))
    # Waits last: they nest inside their collectives' bars and are drawn over them.
    for (what, row), spans in sorted(groups.items(), key=lambda g: (g[0][0] == "waiting for the group", g[0])):
        seen[what] = ax.broken_barh(spans, (row - 0.4, 0.8), facecolors=colour(what), linewidth=0)
    ax.set_yticks(range(len(rows)), [f"rank {r} {t}" for r, t in rows], fontsize=6)
    ax.invert_yaxis()
    ax.set_xlabel("simulated time (s)")
    ax.set_title(args.title or args.file, fontsize=9)
    ax.legend(seen.values(), seen.keys(), fontsize=6, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    fig.savefig(args.out)
    if args.data:
        with open(args.data, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["rank", "track", "what", "start_s", "duration_s"])
            w.writerows(bars)
    print(f"plot_timeline.py: {args.out}")


if __name__ == "__main__":
    main()
