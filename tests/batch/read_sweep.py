"""Reads a sweep's HDF5 file with stock tools only (h5py, pandas) and checks it against its CSV: one row per
point, the same columns and values, the documented attributes. Usage: read_sweep.py FILE.h5 FILE.csv POINTS"""
import json
import math
import sys

import h5py
import pandas


def main(h5_path, csv_path, points):
    with h5py.File(h5_path, "r") as f:
        table = pandas.DataFrame(f["points"][:])
        for attr in ("name", "sweep_file", "base_scenario", "spec", "schema", "zettasim_version"):
            assert attr in f.attrs, attr
        schema = json.loads(f.attrs["schema"])
        assert [c["name"] for c in schema["points"]] == list(table.columns)
        assert len(f["configs"]) == points and len(f["summaries"]) == points
        for i, status in enumerate(table["status"]):
            config = f["configs"][i]
            assert (len(config) > 0) == (status == b"ok"), (i, status)
            if status == b"ok":
                summary = json.loads(f["summaries"][i])
                assert summary["iteration_time_s"] == table["iteration_time_s"][i]
    csv = pandas.read_csv(csv_path, keep_default_na=False, float_precision="round_trip")
    assert len(table) == points and len(csv) == points
    assert list(csv.columns) == list(table.columns)
    for column in table.columns:
        for a, b in zip(table[column], csv[column]):
            if isinstance(a, bytes):
                assert a.decode() == str(b), (column, a, b)
            elif isinstance(a, float) and math.isnan(a):
                assert b == "", (column, b)
            else:
                assert float(a) == float(b), (column, a, b)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
