"""sweep_table.py on a small sweep: each cell is its point's figure scaled and rounded, rows and columns in the
sweep's order, a failed point shows its status, and a missing file or column exits 2 with one line.
Usage: test_sweep_table.py ZETTASIM SOURCE_DIR"""
import json
import pathlib
import subprocess
import sys
import tempfile

import pandas

ZETTASIM, SOURCE = sys.argv[1], pathlib.Path(sys.argv[2]).resolve()
SCRIPT = SOURCE / "analysis" / "sweep_table.py"
SWEEP = {
    "kind": "sweep", "name": "t",
    "base": {"kind": "scenario", "name": "t", "seed": 1,
             "machine": str(SOURCE / "topologies" / "hgx-h100-8.machine.json"),
             "workload": {"generator": "collective", "collective": "all-reduce", "size": "1MiB"},
             "policies": {"placement": "linear", "collective": "ring"}},
    "axes": [{"name": "collective", "pointer": "/policies/collective", "values": ["ring", "tree"]},
             {"name": "size", "pointer": "/workload/size", "values": ["1KiB", "1GiB", "3MiB"]}]}


def table(h5, *args):
    run = subprocess.run(["/usr/bin/python3", SCRIPT, h5, *args], capture_output=True, text=True)
    return run.returncode, run.stdout, run.stderr


def main():
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        (tmp / "t.json").write_text(json.dumps(SWEEP))
        subprocess.run([ZETTASIM, "sweep", tmp / "t.json", "--out", tmp / "t.h5", "--csv", tmp / "t.csv",
                        "--quiet"], check=True, stdout=subprocess.DEVNULL)
        points = pandas.read_csv(tmp / "t.csv")
        code, out, err = table(tmp / "t.h5", "--rows", "collective", "--columns", "size_B", "--value",
                               "iteration_time_s", "--scale", "1e6", "--digits", "2")
        assert code == 0, err
        lines = [l.split() for l in out.strip().split("\n")]
        assert lines[0] == ["collective", "1KiB", "1GiB", "3MiB"], lines[0]
        assert [l[0] for l in lines[1:]] == ["ring", "tree"], lines
        for line in lines[1:]:
            for cell, size in zip(line[1:], (1024, 2**30, 3 * 2**20)):
                p = points[(points.collective == line[0]) & (points.size_B == size)].iloc[0]
                assert cell == f"{p.iteration_time_s * 1e6:.2f}", (line[0], size, cell)
        code, out, _ = table(tmp / "t.h5", "--rows", "size_B", "--columns", "collective", "--value",
                             "iteration_time_s", "--where", "size_B=1024", "--where", "collective=tree")
        assert code == 0 and out.split("\n")[1].split()[0] == "1KiB" and len(out.strip().split("\n")) == 2, out
        code, _, err = table(tmp / "t.h5", "--rows", "collective", "--columns", "size", "--value", "x")
        assert code == 2 and "no column 'size'" in err and len(err.strip().split("\n")) == 1, (code, err)
        code, _, err = table(tmp / "missing.h5", "--rows", "a", "--columns", "b", "--value", "c")
        assert code == 2 and "cannot read" in err, (code, err)
    print("sweep_table: cells are the points' figures, in the sweep's order; bad input exits 2")


if __name__ == "__main__":
    main()
