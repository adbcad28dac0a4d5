#!/usr/bin/python3
"""A heat map of link utilization over time from a zettasim time series (run --timeseries FILE.h5).

Usage: analysis/plot_links.py FILE.h5 --out fig.png [--per-tier N] [--title T] [--data FILE.csv]
One row per link direction, grouped by tier (what the link joins: unit - switch, switch level 1 - 2, ...,
memory pool, optical circuit, with its model), the N most used directions of each tier (default 8), tiers in
order of their busiest direction. Colour: the direction's utilization in each sample (fraction of its
bandwidth). --data writes each row's link, tier and utilization averaged over the iteration. Needs
python3-h5py and python3-matplotlib.
"""
import argparse
import csv
import sys

import h5py
import matplotlib
import numpy

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("timeseries", help="the time series' HDF5 file")
    parser.add_argument("--per-tier", type=int, default=8,
                        help="how many link directions of each tier to draw (default 8)")
    parser.add_argument("--title", help="the figure's title (default: the file's name)")
    parser.add_argument("--out", required=True, help="the PNG to write")
    parser.add_argument("--data", help="also write the rows drawn as CSV")
    args = parser.parse_args()
    with h5py.File(args.timeseries, "r") as f:
        step = float(f["step_s"][0])
        iteration = float(f["iteration_time_s"][0])
        names = [n.decode() for n in f["links/name"][:]]
        tiers = [t.decode() for t in f["links/tier"][:]]
        use = f["links/utilization"][:]
    if not names:
        sys.exit(f"plot_links.py: {args.timeseries} has no link series (collapsed fidelity records none)")
    average = use.sum(axis=1) * step / iteration
    tier_rank, chosen, per_tier = {}, [], {}
    for i in numpy.argsort(-average, kind="stable"):  # busiest first; tiers in order of their busiest link
        tier_rank.setdefault(tiers[i], len(tier_rank))
        if per_tier.get(tiers[i], 0) < args.per_tier:
            per_tier[tiers[i]] = per_tier.get(tiers[i], 0) + 1
            chosen.append(int(i))
    chosen.sort(key=lambda i: (tier_rank[tiers[i]], -average[i], i))

    fig, ax = plt.subplots(figsize=(8, 5), dpi=100)
    image = ax.imshow(use[chosen], aspect="auto", interpolation="nearest", cmap="viridis",
                      extent=(0, step * use.shape[1], len(chosen) - 0.5, -0.5), vmin=0,
                      vmax=max(1.0, float(use[chosen].max())))
    ax.set_yticks(range(len(chosen)), [f"{tiers[i]}: {names[i]}" for i in chosen], fontsize=4)
    for k in range(1, len(chosen)):
        if tiers[chosen[k]] != tiers[chosen[k - 1]]:
            ax.axhline(k - 0.5, color="white", linewidth=1)
    ax.set_xlabel("simulated time (s)")
    ax.set_title(args.title or args.timeseries, fontsize=9)
    fig.colorbar(image, ax=ax, label="utilization (fraction of bandwidth)")
    fig.tight_layout()
    fig.savefig(args.out)
    if args.data:
        with open(args.data, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["link", "tier", "average_utilization"])
            w.writerows((names[i], tiers[i], repr(float(average[i]))) for i in chosen)
    print(f"plot_links.py: {args.out}")


if __name__ == "__main__":
    main()
