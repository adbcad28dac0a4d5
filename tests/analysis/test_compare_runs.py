"""compare_runs.py on two runs: each row is its summary's figures, its terms add up to its iteration time,
"vs first" is the iteration time relative to the first row's, and a run it cannot read exits 2.
Usage: test_compare_runs.py ZETTASIM SOURCE_DIR"""
import csv
import json
import pathlib
import subprocess
import sys
import tempfile

ZETTASIM, SOURCE = sys.argv[1], pathlib.Path(sys.argv[2])
SCRIPT = SOURCE / "analysis" / "compare_runs.py"
TERMS = ["compute", "exposed_communication", "pipeline_bubble", "memory_stall", "collective_wait", "idle"]


def simulate(scenario, out):
    subprocess.run([ZETTASIM, "run", SOURCE / "scenarios" / scenario, "--out", out, "--quiet"], check=True,
                   stdout=subprocess.DEVNULL)
    return json.loads((out / "summary.json").read_text())


def ms(cell):
    assert cell.endswith("ms"), cell
    return float(cell[:-2])


def main():
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        summaries = [simulate("default.json", tmp / "a"), simulate("hgx-3d-parallel.json", tmp / "b")]
        shown = subprocess.run(["/usr/bin/python3", SCRIPT, tmp / "a", tmp / "b" / "summary.json", "--csv",
                                tmp / "t.csv"], check=True, capture_output=True, text=True).stdout
        lines = shown.strip().split("\n")
        assert len(lines) == 3, shown
        assert lines[0].split()[-2:] == ["vs", "first"], lines[0]
        first = summaries[0]["iteration_time_s"]
        for line, s in zip(lines[1:], summaries):
            words = line.split()
            assert words[0] == s["scenario"], (words, s["scenario"])
            iteration, terms = ms(words[1]), [ms(w) for w in words[2:8]]
            assert abs(iteration - 1e3 * s["iteration_time_s"]) <= 5e-4, (iteration, s["iteration_time_s"])
            for term, value in zip(TERMS, terms):
                assert abs(value - 1e3 * s["critical_rank_breakdown_s"][term]) <= 5e-4, (term, value)
            assert abs(sum(terms) - iteration) <= 6 * 5e-4 + 1e-9, (terms, iteration)
            assert words[8] == f"{100 * s['mfu']:.1f}%", (words[8], s["mfu"])
        assert len(lines[1].split()) == 9, lines[1]  # the first row has no "vs first"
        versus = lines[2].split()[9]
        assert versus == f"{100 * (summaries[1]['iteration_time_s'] / first - 1):+.2f}%", versus
        with open(tmp / "t.csv", newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        for row, s in zip(rows, summaries):
            assert float(row["iteration_time_s"]) == s["iteration_time_s"]
            for term in TERMS:
                assert float(row[term + "_s"]) == s["critical_rank_breakdown_s"][term], term
        bad = subprocess.run(["/usr/bin/python3", SCRIPT, tmp / "missing"], capture_output=True, text=True)
        assert bad.returncode == 2 and "cannot read a run" in bad.stderr, (bad.returncode, bad.stderr)
    print("compare_runs: rows, terms, vs first and CSV are the summaries'")


if __name__ == "__main__":
    main()
