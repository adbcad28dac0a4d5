#!/usr/bin/python3
"""Runs one `zettasim validate` into the shared folder of validation runs (a ctest fixture), once per test run.

    run_validation.py ZETTASIM RUNS_DIR NAME [VALIDATE ARGUMENTS...]

Writes RUNS_DIR/NAME (the command's --out folder) and RUNS_DIR/NAME.exit (its exit code). The command's exit
code says whether the validation's acceptance holds (0) or not (1): both are results the checks read; any other
code, or a run without its validation.json, fails here with the command's error output.
"""
import pathlib
import subprocess
import sys


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    zettasim, runs, name, arguments = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3], sys.argv[4:]
    runs.mkdir(parents=True, exist_ok=True)
    out = runs / name
    run = subprocess.run([zettasim, "validate", *arguments, "--out", str(out), "--quiet"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if run.returncode not in (0, 1) or not (out / "validation.json").is_file():
        sys.exit(f"zettasim validate {' '.join(arguments)} exited {run.returncode}:\n{run.stderr}")
    exit_file = runs / (name + ".exit")
    exit_file.write_text(f"{run.returncode}\n")
    print(f"{name}: exit {run.returncode} ({'acceptance met' if run.returncode == 0 else 'acceptance not met'})")


if __name__ == "__main__":
    main()
