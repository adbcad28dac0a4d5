#!/usr/bin/python3
"""The published-runs validations' acceptance, read from the shared validation runs (run_validation.py).

    check_acceptance.py RUNS_DIR sc21|at-scale|megatron-2022

sc21: Megatron-LM SC'21 Tables 1 and 2, 22 rows all predicted, mean error at most 7%, Table 2's PTD-P vs ZeRO-3
trend right for both models, every row within 15% but the 530B ZeRO-3 row on 1,120 GPUs (within 16%), so the
acceptance is not met and the command exits 1. at-scale: the 23 published runs at 1,024 GPUs or more, of two
kinds of hardware and an MoE among them, all predicted, the mean error the mean of the rows', every scaling
series with both efficiencies, the exit code saying whether the acceptance holds. megatron-2022: 8 runs all
within their tolerance, mean error at most 7%, exit 0, and Table 5's speed-up of sequence parallelism with
selective recomputation over full recomputation (29.0-32.1% published) within 7 points.
"""
import json
import pathlib
import sys


def load(runs, name):
    """The run's validation.json and its command's exit code."""
    doc = json.loads((runs / name / "validation.json").read_text())
    return doc, int((runs / (name + ".exit")).read_text())


def check(condition, what):
    if not condition:
        sys.exit(f"check_acceptance.py: {what}")


def sc21(runs):
    doc, code = load(runs, "v-sc21")
    summary = doc["summary"]
    check(summary["rows"] == 22 and summary["predicted"] == 22, f"22 rows predicted: {summary}")
    check(summary["mean_absolute_error"] <= 0.07, f"mean error {summary['mean_absolute_error']} over 7%")
    for trend in summary["table2_trends"]:
        check(trend["gpu_counts_compared"] >= 2 and trend["holds"], f"Table 2 trend: {trend}")
    # With NCCL's per-step and per-collective latencies charged (the default), the 530B ZeRO-3 row on 1,120
    # GPUs, whose rings cross each server on one NIC, comes out 15.5% slow: the acceptance fails by that row.
    for row in doc["rows"]:
        bound = 0.16 if row["name"] == "table2-529.6B-zero-3-1120gpu" else 0.15
        check("error" in row and abs(row["error"]) < bound, f"row {row['name']} outside {bound}: {row}")
    check(summary["within_row_tolerance"] == 21 and not summary["passed"], f"21 of 22 within 15%: {summary}")
    check(code == 1, f"exit code {code}, expected 1 (acceptance not met)")


def at_scale(runs):
    doc, code = load(runs, "v-at-scale")
    summary, table = doc["summary"], doc["runs"]
    check(summary["rows"] >= 10 and summary["predicted"] == summary["rows"], f"every run predicted: {summary}")
    check(all("error" in r and r["gpus"] >= 1024 for r in table), "every run has an error, at 1,024+ GPUs")
    check(len({r["hardware"] for r in table}) >= 2 and any(r["moe"] for r in table), "two kinds and an MoE")
    mean = sum(abs(r["error"]) for r in table) / len(table)
    check(abs(summary["mean_absolute_error"] - mean) <= 1e-12 * max(1.0, mean), f"mean error {mean}")
    check(len(summary["scaling"]) >= 2, "at least two scaling series")
    for series in summary["scaling"]:
        check("published_efficiency" in series and "predicted_efficiency" in series, f"series {series}")
    check(code == (0 if summary["passed"] else 1), f"exit code {code} against passed={summary['passed']}")


def megatron_2022(runs):
    doc, code = load(runs, "v-2022")
    summary = doc["summary"]
    check(code == 0, f"exit code {code}")
    check(summary["rows"] == 8 and summary["predicted"] == 8 and summary["within_row_tolerance"] == 8,
          f"8 runs within tolerance: {summary}")
    check(summary["mean_absolute_error"] <= 0.07, f"mean error {summary['mean_absolute_error']}")
    predicted = {r["name"]: r["predicted_iteration_time_s"] for r in doc["runs"]}
    published = {r["name"]: r["published_iteration_time_s"] for r in doc["runs"]}
    # Table 5's gain comes from the recomputed forward passes, the element-wise work sequence parallelism
    # splits and its collectives; without either mechanism it would be 0.
    for model in ("gpt-22b-a100-8", "gpt-175b-a100-64", "mt-nlg-530b-a100-280", "gpt-1t-a100-512"):
        published_gain = published[model + "-full"] / published[model + "-selective"] - 1
        predicted_gain = predicted[model + "-full"] / predicted[model + "-selective"] - 1
        check(published_gain > 0.28, f"{model}: published gain {published_gain}")
        check(abs(predicted_gain - published_gain) < 0.07, f"{model}: gain {predicted_gain} vs {published_gain}")


def main():
    checks = {"sc21": sc21, "at-scale": at_scale, "megatron-2022": megatron_2022}
    if len(sys.argv) != 3 or sys.argv[2] not in checks:
        sys.exit(__doc__)
    checks[sys.argv[2]](pathlib.Path(sys.argv[1]))
    print(f"{sys.argv[2]}: acceptance as stated")


if __name__ == "__main__":
    main()
