"""compare_validations.py on two small validation documents written here: each run's errors, its change in
points and its iteration times are the documents', the summaries and a group's range are printed, and a folder
it cannot read or two tables without a run in common exit 2 with one line.
Usage: test_compare_validations.py SOURCE_DIR"""
import json
import pathlib
import subprocess
import sys
import tempfile

SCRIPT = pathlib.Path(sys.argv[1]).resolve() / "analysis" / "compare_validations.py"


def document(errors, times, within):
    runs = [{"name": n, "error": e, "predicted_iteration_time_s": t} for (n, e), t in zip(errors.items(), times)]
    return {"runs": runs, "summary": {"rows": len(runs), "within_row_tolerance": within,
                                      "mean_absolute_error": sum(abs(e) for e in errors.values()) / len(runs)}}


def compare(*args):
    return subprocess.run(["/usr/bin/python3", SCRIPT, *map(str, args)], capture_output=True, text=True)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        (tmp / "base").mkdir()
        (tmp / "base" / "validation.json").write_text(json.dumps(
            document({"a-bf16": 0.10, "b-bf16": -0.05, "a-fp8": 0.20}, [2.0, 3.0, 1.5], 2)))
        (tmp / "what.json").write_text(json.dumps(
            document({"a-bf16": 0.12, "b-bf16": -0.08, "a-fp8": 0.21}, [1.96, 3.1, 1.49], 3)))
        run = compare(tmp / "base", tmp / "what.json", "--group", "bf16=bf16", "--group", "rest=!bf16")
        assert run.returncode == 0, run.stderr
        lines = run.stdout.strip().split("\n")
        assert lines[1].split() == ["a-bf16", "+10.0%", "+12.0%", "+2.0", "2", "s", "1.96", "s", "-40.0ms"], \
            lines[1]
        assert lines[2].split()[1:4] == ["-5.0%", "-8.0%", "-3.0"], lines[2]
        assert lines[4] == "base: 2 of 3 within tolerance, mean absolute error 11.7%", lines[4]
        assert lines[5] == "what-if: 3 of 3 within tolerance, mean absolute error 13.7%", lines[5]
        assert lines[6] == "bf16: change -3.0 to +2.0 points, iteration -40.0 ms to +100.0 ms, over 2 runs", \
            lines[6]
        assert lines[7].startswith("rest: change +1.0 to +1.0 points"), lines[7]
        (tmp / "other.json").write_text(json.dumps(document({"c": 0.1}, [1.0], 1)))
        for bad in (compare(tmp / "missing", tmp / "what.json"), compare(tmp / "base", tmp / "other.json"),
                    compare(tmp / "base", tmp / "what.json", "--group", "x=nothing")):
            assert bad.returncode == 2 and len(bad.stderr.strip().split("\n")) == 1, (bad.returncode, bad.stderr)
    print("compare_validations: runs, summaries and groups are the documents'; bad input exits 2")


if __name__ == "__main__":
    main()
