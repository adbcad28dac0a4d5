"""plot_timeline.py and plot_links.py on a small run's timeline and time series: each PNG exists, has the
figure's size and is not blank, and the numbers drawn are the run's (the time series read back here with
h5py alone, against summary.json).
Usage: test_timeline_plots.py ZETTASIM SOURCE_DIR"""
import csv
import json
import math
import pathlib
import subprocess
import sys
import tempfile

import h5py

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from test_plots import check_png  # noqa: E402

ZETTASIM, SOURCE = sys.argv[1], pathlib.Path(sys.argv[2])
SCENARIO = SOURCE / "tests/output/data/offload-pp4-ocs.json"


def close(a, b):
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-15)


def plot(script, *args):
    subprocess.run(["/usr/bin/python3", SOURCE / "analysis" / script, *map(str, args)], check=True,
                   stdout=subprocess.DEVNULL)


def check_series(h5, summary):
    """Read back with h5py: the busiest link's and the critical rank's figures are summary.json's."""
    with h5py.File(h5, "r") as f:
        step, iteration = float(f["step_s"][0]), float(f["iteration_time_s"][0])
        assert close(iteration, summary["iteration_time_s"])
        assert f["time_s"].shape[0] == math.ceil(iteration / step)
        names = [n.decode() for n in f["links/name"][:]]
        use = f["links/utilization"][:]
        averages = use.sum(axis=1) * step / iteration
        u = summary["utilization"]
        # The summary's busiest direction is one of the busiest (equally loaded directions tie to rounding).
        assert close(averages.max(), u["link_max"])
        assert close(averages[names.index(u["link_max_direction"])], u["link_max"])
        assert close(u["link_mean_active"], averages.mean())
        slot = list(f["ranks/rank"][:]).index(summary["critical_rank"])
        states = [s.decode() for s in f["ranks/state_name"][:]]
        shares = f["ranks/state"][slot].sum(axis=1) * step
        for state, seconds in zip(states, shares):
            assert close(seconds, summary["critical_rank_breakdown_s"][state.replace(" ", "_")]), state


def main():
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        subprocess.run([ZETTASIM, "run", SCENARIO, "--out", tmp / "run", "--quiet", "--timeline", tmp / "t.json",
                        "--timeline-ranks", "dp=0", "--timeseries", tmp / "t.h5"], check=True,
                       stdout=subprocess.DEVNULL)
        summary = json.loads((tmp / "run" / "summary.json").read_text())
        critical = summary["critical_rank"]
        check_series(tmp / "t.h5", summary)

        plot("plot_timeline.py", tmp / "t.json", "--ranks", critical, "--out", tmp / "gantt.png",
             "--data", tmp / "gantt.csv")
        check_png(tmp / "gantt.png")
        drawn = {}
        with open(tmp / "gantt.csv") as f:
            for row in csv.DictReader(f):
                assert int(row["rank"]) == critical
                if row["track"] == "state":
                    drawn[row["what"]] = drawn.get(row["what"], 0.0) + float(row["duration_s"])
        breakdown = summary["critical_rank_breakdown_s"]
        assert math.isclose(drawn["compute"], breakdown["compute"], rel_tol=1e-9)
        assert math.isclose(drawn["pipeline bubble"], breakdown["pipeline_bubble"], rel_tol=1e-9)
        assert math.isclose(drawn["memory stall"], breakdown["memory_stall"], rel_tol=1e-9)

        plot("plot_timeline.py", tmp / "t.h5", "--ranks", f"0,{critical}", "--out", tmp / "states.png",
             "--data", tmp / "states.csv")
        check_png(tmp / "states.png")
        with open(tmp / "states.csv") as f:
            rows = list(csv.DictReader(f))
        assert {int(r["rank"]) for r in rows} == {0, critical}

        plot("plot_links.py", tmp / "t.h5", "--out", tmp / "links.png", "--data", tmp / "links.csv")
        check_png(tmp / "links.png")
        with open(tmp / "links.csv") as f:
            rows = list(csv.DictReader(f))
        busiest = max(float(r["average_utilization"]) for r in rows)
        assert math.isclose(busiest, summary["utilization"]["link_max"], rel_tol=1e-9)
        named = next(r for r in rows if r["link"] == summary["utilization"]["link_max_direction"])
        assert math.isclose(float(named["average_utilization"]), busiest, rel_tol=1e-9)
        tiers = [r["tier"] for r in rows]
        assert tiers == sorted(tiers, key=tiers.index), "rows grouped by tier"
        assert any(t.startswith("optical circuit") for t in tiers) and any(t.startswith("memory pool") for t in tiers)
    print("timeline plots: ok")


if __name__ == "__main__":
    main()
