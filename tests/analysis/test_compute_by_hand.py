"""compute_by_hand.py against the engine: on one H100 with nothing to communicate, a rank's compute is the
hand calculation's sum (roofline per op plus launches) to the printed tenth of a millisecond, for the megatron
and the ideal generator alike; a unit model it cannot follow, or a missing file, exits 2 with one line.
Usage: test_compute_by_hand.py ZETTASIM SOURCE_DIR"""
import json
import pathlib
import subprocess
import sys
import tempfile

ZETTASIM, SOURCE = sys.argv[1], pathlib.Path(sys.argv[2]).resolve()
SCRIPT = SOURCE / "analysis" / "examples" / "compute_by_hand.py"
UNIT = SOURCE / "models" / "h100-sxm.json"


def scenario(generator):
    """GPT 1.3B on one H100 of an HGX server: a single rank, so no collective runs beside its compute."""
    workload = {"generator": generator, "model": str(SOURCE / "workloads" / "gpt3-1.3b.json"),
                "data_parallel": 1, "micro_batch": 2, "global_batch": 8}
    return {"kind": "scenario", "name": "one-" + generator, "seed": 1,
            "machine": str(SOURCE / "topologies" / "hgx-h100-8.machine.json"), "workload": workload,
            "policies": {"placement": "linear", "collective": "ring"}}


def by_hand(*args):
    return subprocess.run(["/usr/bin/python3", SCRIPT, *map(str, args)], capture_output=True, text=True)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        traces, computes = [], []
        for generator in ("megatron", "ideal-data-parallel"):
            (tmp / f"{generator}.json").write_text(json.dumps(scenario(generator)))
            trace = tmp / f"t-{generator}.json"
            subprocess.run([ZETTASIM, "trace", "gen", tmp / f"{generator}.json", "--out", trace], check=True,
                           stdout=subprocess.DEVNULL)
            subprocess.run([ZETTASIM, "run", tmp / f"{generator}.json", "--out", tmp / generator, "--quiet"],
                           check=True, stdout=subprocess.DEVNULL)
            summary = json.loads((tmp / generator / "summary.json").read_text())
            assert summary["critical_rank_breakdown_s"]["exposed_communication"] == 0, summary
            traces.append(trace)
            computes.append(1e3 * summary["critical_rank_breakdown_s"]["compute"])
        run = by_hand(*traces, "--unit", UNIT)
        assert run.returncode == 0, run.stderr
        total = [l for l in run.stdout.split("\n") if l.startswith("compute, alone")][0].split()[2:]
        for printed, engine in zip(total, computes):
            assert abs(float(printed) - engine) <= 0.05 + 1e-9, (printed, engine, run.stdout)
        half = json.loads(UNIT.read_text())
        half["matrix_half_efficiency_work"] = "1GFLOP"
        (tmp / "half.json").write_text(json.dumps(half))
        refused = [by_hand(traces[0], "--unit", tmp / "half.json"), by_hand(tmp / "none.json", "--unit", UNIT)]
        for bad in refused:
            assert bad.returncode == 2 and len(bad.stderr.strip().split("\n")) == 1, (bad.returncode, bad.stderr)
    print("compute_by_hand: the hand calculation is the engine's compute of a rank alone, for both generators")


if __name__ == "__main__":
    main()
