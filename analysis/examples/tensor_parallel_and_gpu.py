#!/usr/bin/python3
"""A researcher's script: build a scenario in Python (GPT 1.3B on one HGX server, Megatron-style), vary tensor
parallelism and the GPU model, and plot iteration time and MFU.

    PYTHONPATH=build/python analysis/examples/tensor_parallel_and_gpu.py --out tp.png [--csv tp.csv]
"""
import argparse
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

import zettasim  # noqa: E402

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
GPUS = {"H100 SXM": "models/h100-sxm.json", "B200": "models/b200.json"}


def scenario():
    """GPT 1.3B with data x tensor parallelism over the 8 GPUs of one HGX server (paths from scenarios/)."""
    return zettasim.Scenario.from_dict({
        "kind": "scenario", "name": "tp-and-gpu", "seed": 1,
        "machine": "../topologies/hgx-h100-8.machine.json",
        "workload": {"generator": "megatron", "model": "../workloads/gpt3-1.3b.json", "data_parallel": 8,
                     "tensor_parallel": 1, "pipeline_parallel": 1, "micro_batch": 2, "global_batch": 128},
        "policies": {"placement": "linear", "collective": "auto"},
    }, base_dir=os.path.join(REPO, "scenarios"))


def measure():
    base = scenario()
    rows = []
    for gpu, model in GPUS.items():
        machine = base.with_({"/machine/models/gpu": os.path.join(REPO, model)})
        for tp in (1, 2, 4, 8):
            r = zettasim.run(machine.with_(tensor_parallel=tp, data_parallel=8 // tp))
            rows.append({"gpu": gpu, "tensor_parallel": tp, "iteration_time_s": r.iteration_time_s, "mfu": r.mfu,
                         "exposed_communication_s": r.breakdown["exposed_communication"]})
    return pd.DataFrame(rows)


def plot(table, out):
    fig, (time_ax, mfu_ax) = plt.subplots(1, 2, figsize=(8, 5), dpi=100)
    for gpu, points in table.groupby("gpu", sort=False):
        time_ax.plot(points.tensor_parallel, points.iteration_time_s * 1e3, marker="o", label=gpu)
        mfu_ax.plot(points.tensor_parallel, points.mfu * 100, marker="o", label=gpu)
    for ax, ylabel in ((time_ax, "iteration time (ms)"), (mfu_ax, "MFU (%)")):
        ax.set_xscale("log", base=2)
        ax.set_xticks([1, 2, 4, 8], ["1", "2", "4", "8"])
        ax.set_xlabel("tensor parallel (data parallel = 8 / tp)")
        ax.set_ylabel(ylabel)
        ax.grid(alpha=0.3)
        ax.legend()
    fig.suptitle("GPT 1.3B on one HGX server")
    fig.tight_layout()
    fig.savefig(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="the PNG to write")
    parser.add_argument("--csv", help="also write the plotted numbers here")
    args = parser.parse_args()
    table = measure()
    plot(table, args.out)
    if args.csv:
        table.to_csv(args.csv, index=False)
    print(table.to_string(index=False, float_format=lambda v: f"{v:.4g}"))


if __name__ == "__main__":
    main()
