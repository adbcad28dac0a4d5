"""plot_search.py on a pareto search of the default scenario: the PNG has the figure's size and is not blank,
the front it drew is search.json's, each finalist's two points are its estimate and the engine's, and a
folder that is not a search's is refused with one line.
Usage: test_search_plot.py ZETTASIM SOURCE_DIR"""
import json
import pathlib
import subprocess
import sys
import tempfile

import matplotlib.image
import numpy
import pandas

ZETTASIM, SOURCE = sys.argv[1], pathlib.Path(sys.argv[2])
PYTHON = "/usr/bin/python3"


def main():
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        out = tmp / "found"
        subprocess.run([ZETTASIM, "search", SOURCE / "scenarios" / "default.json", "--objective", "pareto",
                        "--top", "2", "--out", out, "--quiet"], check=True, stdout=subprocess.DEVNULL)
        subprocess.run([PYTHON, SOURCE / "analysis" / "plot_search.py", out, "--out", tmp / "s.png", "--data",
                        tmp / "s.csv"], check=True)
        image = matplotlib.image.imread(tmp / "s.png")
        assert image.shape == (500, 800, 4), image.shape
        assert len(numpy.unique(image.reshape(-1, 4), axis=0)) > 20, "blank"
        found = json.loads((out / "search.json").read_text())
        points = pandas.read_csv(tmp / "s.csv", float_precision="round_trip")
        front = points[points["on_front"]]
        assert sorted(front["index"]) == sorted(found["pareto"]), (list(front["index"]), found["pareto"])
        # The default scenario is priced: the second axis is cost per million tokens.
        assert "cost_per_million_tokens_usd" in points
        finalists = pandas.read_csv(tmp / "s.finalists.csv", float_precision="round_trip")
        ran = [f for f in found["finalists"] if "simulated" in f]
        assert len(finalists) == len(ran) == 3
        for row, f in zip(finalists.itertuples(), ran):
            assert row.estimated_time_s == f["estimate"]["iteration_time_s"]
            assert row.simulated_time_s == f["simulated"]["iteration_time_s"]
            assert row.simulated_cost_per_million_tokens_usd == f["simulated"]["cost_per_million_tokens_usd"]
        bad = subprocess.run([PYTHON, SOURCE / "analysis" / "plot_search.py", tmp, "--out", tmp / "x.png"],
                             capture_output=True, text=True)
        assert bad.returncode != 0 and bad.stderr.count("\n") == 1, bad.stderr
        assert bad.stderr.startswith(f"plot_search.py: {tmp}: not a zettasim search folder"), bad.stderr
    print("search plot: ok")


if __name__ == "__main__":
    main()
