"""The analysis scripts on a small sweep's file: each PNG exists, has the figure's size and is not blank, and
the values the script plotted are the file's (read here with h5py and pandas alone).
Usage: test_plots.py ZETTASIM SOURCE_DIR"""
import json
import pathlib
import subprocess
import sys
import tempfile

import h5py
import matplotlib.image
import numpy
import pandas

ZETTASIM, SOURCE = sys.argv[1], pathlib.Path(sys.argv[2])
PYTHON = "/usr/bin/python3"


def check_png(path):
    image = matplotlib.image.imread(path)
    assert image.shape == (500, 800, 4), image.shape  # 8 x 5 inches at 100 dpi
    colours = numpy.unique(image.reshape(-1, 4), axis=0)
    assert len(colours) > 20, f"{path}: {len(colours)} colours: blank"
    assert image[..., :3].std() > 0.05, f"{path}: nearly uniform"


def file_points(path):
    with h5py.File(path, "r") as f:
        table = pandas.DataFrame(f["points"][:])
    table["collective"] = table["collective"].str.decode("utf-8")
    table["status"] = table["status"].str.decode("utf-8")
    return table[table["status"] == "ok"]


def run(*args):
    subprocess.run([PYTHON, *map(str, args)], check=True, cwd=SOURCE / "analysis", stdout=subprocess.DEVNULL)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        sweep = {"kind": "sweep", "name": "plots", "base": str(SOURCE / "scenarios" / "default.json"),
                 "axes": [{"name": "collective", "pointer": "/policies/collective",
                           "values": ["ring", "double-binary-tree", "in-network"]},
                          {"name": "micro_batch", "pointer": "/workload/micro_batch", "values": [1, 2, 3]}]}
        (tmp / "sweep.json").write_text(json.dumps(sweep))
        h5 = tmp / "plots.h5"
        subprocess.run([ZETTASIM, "sweep", tmp / "sweep.json", "--out", h5, "--quiet"], check=True,
                       stdout=subprocess.DEVNULL)
        ok = file_points(h5)
        assert len(ok) == 6, len(ok)  # micro-batch 3 does not divide the global batch: 3 invalid points

        run("plot_sweep.py", h5, "--x", "micro_batch", "--group", "collective", "--out", tmp / "lines.png",
            "--data", tmp / "lines.csv")
        check_png(tmp / "lines.png")
        plotted = pandas.read_csv(tmp / "lines.csv", float_precision="round_trip")
        merged = plotted.merge(ok, on=["micro_batch", "collective"], suffixes=("_plotted", ""))
        assert len(merged) == 6
        assert (merged["iteration_time_s_plotted"] == merged["iteration_time_s"]).all()

        run("plot_sweep.py", h5, "--x", "micro_batch", "--y", "collective", "--heatmap", "--metric", "mfu",
            "--out", tmp / "heat.png", "--data", tmp / "heat.csv")
        check_png(tmp / "heat.png")
        heat = pandas.read_csv(tmp / "heat.csv", float_precision="round_trip").merge(ok, on=["micro_batch", "collective"], suffixes=("_p", ""))
        assert len(heat) == 6 and (heat["mfu_p"] == heat["mfu"]).all()

        run("plot_breakdown.py", h5, "--out", tmp / "bars.png", "--data", tmp / "bars.csv")
        check_png(tmp / "bars.png")
        bars = pandas.read_csv(tmp / "bars.csv", float_precision="round_trip")
        assert list(bars["point"]) == list(ok["point"])
        for part in ["compute", "exposed_communication", "pipeline_bubble", "memory_stall", "idle"]:
            column = f"critical_rank_breakdown_s.{part}"
            assert (bars[column].values == ok[column].values).all(), part
    check_labels()
    print("analysis plots: ok")


def check_labels():
    """Axis labels carry the column's unit; a file-valued axis shows the file's name."""
    sys.path.insert(0, str(SOURCE / "analysis"))
    import sweep_file
    assert sweep_file.label("iteration_time_s") == "iteration time (s)"
    assert sweep_file.label("collective_benchmark.bus_bandwidth_B_per_s") == "bus bandwidth (B/s)"
    assert sweep_file.label("critical_rank_breakdown_s.compute") == "compute (s)"
    assert sweep_file.value_text("../../topologies/hgx-h100-8.machine.json") == "hgx-h100-8"
    assert sweep_file.value_text("../models/b200.json") == "b200"
    assert sweep_file.value_text(80e9) == "8e+10"


if __name__ == "__main__":
    main()
