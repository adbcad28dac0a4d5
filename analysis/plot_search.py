#!/usr/bin/python3
"""Time against cost (or energy) of the plans a `zettasim search` weighed, with its Pareto front.

Usage: analysis/plot_search.py results/NAME-search --out fig.png [--data FILE.csv]
Reads the search's folder: tier1.csv (tier 1's kept plans, grey), search.json (the Pareto front of time
against cost per million tokens, or energy per token without a cost section, drawn as a line; the finalists
the engine ran, their estimate joined to their simulated figures by an arrow; the scenario's own plan as a
star). Run the search with --objective pareto to keep the whole front. Needs python3-pandas and
python3-matplotlib.
"""
import argparse
import json
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas  # noqa: E402


def axis_of(table):
    """The second axis: cost per million tokens when the search priced its plans, else energy per token."""
    priced = "cost_per_million_tokens_usd" in table and table["cost_per_million_tokens_usd"].notna().all()
    return ("cost_per_million_tokens_usd", "cost per million tokens (USD)") if priced else \
        ("energy_per_token_j", "energy per token (J)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("search", help="the search's results folder")
    parser.add_argument("--out", required=True, help="the PNG to write")
    parser.add_argument("--data", help="also write the plotted points as CSV")
    args = parser.parse_args()
    folder = pathlib.Path(args.search)
    try:
        found = json.loads((folder / "search.json").read_text())
        table = pandas.read_csv(folder / "tier1.csv", float_precision="round_trip")
    except (OSError, ValueError) as e:
        sys.exit(f"plot_search.py: {folder}: not a zettasim search folder ({e})")
    if table.empty:
        sys.exit(f"plot_search.py: {folder}: tier 1 estimated no plan")
    column, label = axis_of(table)
    table["on_front"] = table["index"].isin(found["pareto"])
    front = table[table["on_front"]].sort_values("iteration_time_s")

    fig, ax = plt.subplots(figsize=(8, 5), dpi=100)
    ax.scatter(table["iteration_time_s"], table[column], s=12, color="0.7", label="tier 1's estimates")
    ax.plot(front["iteration_time_s"], front[column], "o-", color="tab:blue", label="Pareto front (tier 1)")
    rows = []
    for f in found["finalists"]:
        if "simulated" not in f or "estimate" not in f:
            continue
        est = (f["estimate"]["iteration_time_s"], f["estimate"].get(column))
        sim = (f["simulated"]["iteration_time_s"], f["simulated"].get(column))
        if est[1] is None or sim[1] is None:
            continue
        marker = "*" if f["reference"] else "s"
        ax.annotate("", xy=sim, xytext=est, arrowprops={"arrowstyle": "->", "color": "tab:red", "lw": 0.8})
        ax.scatter([sim[0]], [sim[1]], marker=marker, s=90 if f["reference"] else 30, color="tab:red", zorder=3)
        rows.append({"plan": f["plan"], "reference": f["reference"], "estimated_time_s": est[0],
                     "estimated_" + column: est[1], "simulated_time_s": sim[0], "simulated_" + column: sim[1]})
    ax.scatter([], [], marker="s", color="tab:red", label="engine (finalists; star: the scenario's plan)")
    ax.set_xlabel("iteration time (s)")
    ax.set_ylabel(label)
    ax.set_title(f"zettasim search: {found['scenario']}", fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.out)
    if args.data:
        points = table[["index", "plan", "iteration_time_s", column, "on_front"]]
        points.to_csv(args.data, index=False)
        pandas.DataFrame(rows).to_csv(pathlib.Path(args.data).with_suffix(".finalists.csv"), index=False)


if __name__ == "__main__":
    main()
