#!/usr/bin/python3
"""The README's hand calculation of a rank's compute time, done from traces and a compute unit's model file.

    zettasim trace gen scenarios/default.json --out default-trace.json
    analysis/examples/compute_by_hand.py default-trace.json [OTHER-TRACE.json ...] --unit models/h100-sxm.json
                                         [--role 0]

Each compute op of the role's program takes the roofline's time: the larger of its FLOPs over the unit's peak
for its work kind and dtype times the efficiency, and its bytes over the HBM bandwidth times its efficiency.
The ops are summed by what they are (matrix products, element-wise kernels, the loss, the optimizer), and
every kernel adds the unit's launch overhead; a column per trace, in ms. Standard library only. The sum is the
compute time of a rank that runs alone: the engine adds what overlap costs (the model's `overlap_slowdown`
while communication runs beside compute) and what a unit model's `matrix_half_efficiency_work` takes off small
products (this script refuses such a model). A file it cannot read exits 2 with one line.
"""
import argparse
import json
import re
import sys

# Quantities as the files write them: a number and a unit.
SCALE = {"": 1, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30,
         "Ti": 2**40, "u": 1e-6, "m": 1e-3, "n": 1e-9}
QUANTITY = re.compile(r"^([0-9.]+(?:e[+-]?[0-9]+)?)\s*(Ki|Mi|Gi|Ti|K|M|G|T|P|u|m|n|)(B/s|B|FLOPS|FLOP|s)$")


def fail(message):
    print(f"compute_by_hand.py: {message}", file=sys.stderr)
    sys.exit(2)


def quantity(text, unit):
    """The value of "3.35TB/s", "80MiB" or "4us" in base units, checked against the expected unit."""
    m = QUANTITY.match(str(text))
    if not m or m.group(3) != unit:
        fail(f"{text!r} is not a quantity in {unit}")
    return float(m.group(1)) * SCALE[m.group(2)]


def category(op_name, work):
    """What an op is, from the generator's name for it."""
    if "optimizer" in op_name:
        return "optimizer"
    if "elementwise" in op_name:
        return "element-wise"
    if work == "matrix":
        return "matrix products"
    return "loss"


def op_seconds(compute, unit):
    """The roofline time of one compute op on the unit, without its launch overhead (s)."""
    work, dtype = compute["work"], compute.get("dtype", "bf16")
    if work == "matrix":
        peak = quantity(unit["matrix_peak"][dtype], "FLOPS")
        efficiency = unit.get("matrix_efficiency_by_dtype", {}).get(dtype, unit["matrix_efficiency"])
    else:
        peak, efficiency = quantity(unit["vector_peak"], "FLOPS"), unit["vector_efficiency"]
    flops = quantity(compute.get("flops", "0FLOP"), "FLOP")
    memory = quantity(compute.get("bytes", "0B"), "B")
    bandwidth = quantity(unit["hbm_bandwidth"], "B/s") * unit["hbm_efficiency"]
    return max(flops / (peak * efficiency), memory / bandwidth)


def role_totals(trace, role, unit):
    """{category: seconds} of the role's compute ops, and its kernel count."""
    totals, kernels = {}, 0
    for op in trace["roles"][role]["ops"]:
        if "compute" in op:
            name = category(op["name"], op["compute"]["work"])
            totals[name] = totals.get(name, 0.0) + op_seconds(op["compute"], unit)
            kernels += op["compute"].get("kernels", 1)
    return totals, kernels


def read_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        fail(f"cannot read {path}: {e}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("traces", nargs="+", help="traces written by zettasim trace gen (JSON)")
    parser.add_argument("--unit", required=True, help="the compute unit's model file (models/h100-sxm.json)")
    parser.add_argument("--role", type=int, default=0, help="which role's program (default 0)")
    args = parser.parse_args()
    unit = read_json(args.unit)
    if "matrix_half_efficiency_work" in unit:
        fail(f"{args.unit}: the unit model gives matrix_half_efficiency_work, which this calculation "
             "leaves out")
    launch = quantity(unit["kernel_launch_overhead"], "s")
    columns = [role_totals(read_json(t), args.role, unit) for t in args.traces]
    rows = [(name, [f"{1e3 * totals.get(name, 0.0):.1f}" for totals, _ in columns])
            for name in ("matrix products", "element-wise", "loss", "optimizer")]
    rows.append(("kernels", [f"{kernels:,}" for _, kernels in columns]))
    rows.append((f"launches, {1e6 * launch:g} us", [f"{1e3 * kernels * launch:.1f}" for _, kernels in columns]))
    rows.append(("compute, alone", [f"{1e3 * (sum(t.values()) + k * launch):.1f}" for t, k in columns]))
    print(f"{'ms per rank':20}" + "".join(f"{t:>22}" for t in args.traces))
    for name, cells in rows:
        print(f"{name:20}" + "".join(f"{c:>22}" for c in cells))


if __name__ == "__main__":
    main()
