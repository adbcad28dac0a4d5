"""analysis/examples/ as a researcher runs them: the figure is drawn, and its numbers are the command's.

Run by ctest with PYTHONPATH=<build>/python; ZETTASIM names the zettasim executable, ZS_SOURCE_DIR the
source tree.
"""

import json
import os
import subprocess
import tempfile
import unittest

import matplotlib.image
import numpy
import pandas

SOURCE = os.environ["ZS_SOURCE_DIR"]
ZETTASIM = os.environ["ZETTASIM"]


def check_png(test, path):
    image = matplotlib.image.imread(path)
    test.assertEqual(image.shape, (500, 800, 4))  # 8 x 5 inches at 100 dpi
    test.assertGreater(len(numpy.unique(image.reshape(-1, 4), axis=0)), 20)
    test.assertGreater(image[..., :3].std(), 0.05)


class TensorParallelAndGpu(unittest.TestCase):
    def test_the_figure_and_its_numbers(self):
        with tempfile.TemporaryDirectory() as tmp:
            script = os.path.join(SOURCE, "analysis/examples/tensor_parallel_and_gpu.py")
            png, csv = os.path.join(tmp, "tp.png"), os.path.join(tmp, "tp.csv")
            subprocess.run(["/usr/bin/python3", script, "--out", png, "--csv", csv], check=True,
                           stdout=subprocess.DEVNULL)
            check_png(self, png)
            table = pandas.read_csv(csv, float_precision="round_trip")
            self.assertEqual(len(table), 8)
            # One point through the command: H100, tensor parallel 2, written as a file.
            scenario = {"kind": "scenario", "name": "tp2", "seed": 1,
                        "machine": os.path.join(SOURCE, "topologies/hgx-h100-8.machine.json"),
                        "workload": {"generator": "megatron", "model": os.path.join(SOURCE, "workloads/gpt3-1.3b.json"),
                                     "data_parallel": 4, "tensor_parallel": 2, "pipeline_parallel": 1,
                                     "micro_batch": 2, "global_batch": 128},
                        "policies": {"placement": "linear", "collective": "auto"}}
            with open(os.path.join(tmp, "tp2.json"), "w") as f:
                json.dump(scenario, f)
            subprocess.run([ZETTASIM, "run", os.path.join(tmp, "tp2.json"), "--out", os.path.join(tmp, "out"),
                            "--quiet"], check=True, stdout=subprocess.DEVNULL)
            with open(os.path.join(tmp, "out", "summary.json")) as f:
                summary = json.load(f)
            point = table[(table.gpu == "H100 SXM") & (table.tensor_parallel == 2)].iloc[0]
            self.assertEqual(point.iteration_time_s, summary["iteration_time_s"])
            self.assertEqual(point.mfu, summary["mfu"])
            # Without tensor parallelism the job is compute-bound: B200 over H100 is about their bf16 peaks' ratio
            # (within 5%: the models' matrix efficiencies differ a little).
            peaks = {}
            for gpu, model in (("H100 SXM", "h100-sxm"), ("B200", "b200")):
                with open(os.path.join(SOURCE, "models", model + ".json")) as f:
                    peaks[gpu] = json.load(f)["matrix_peak"]["bf16"]
            tp1 = table[table.tensor_parallel == 1].set_index("gpu").iteration_time_s
            speedup = tp1["H100 SXM"] / tp1["B200"]
            peak_ratio = float(peaks["B200"].rstrip("TFLOPS")) / float(peaks["H100 SXM"].rstrip("TFLOPS"))
            self.assertAlmostEqual(speedup / peak_ratio, 1.0, delta=0.05)
            # More tensor parallelism exposes more communication on both GPUs.
            for gpu, points in table.groupby("gpu"):
                self.assertTrue(points.sort_values("tensor_parallel").exposed_communication_s.is_monotonic_increasing, gpu)


if __name__ == "__main__":
    unittest.main()


class BusBandwidthFromSweep(unittest.TestCase):
    def test_the_readme_figure_from_a_sweep_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            # The shipped sweep, cut to the auto policy and 4 sizes from 1 MiB to 16 GiB (12 points).
            with open(os.path.join(SOURCE, "scenarios/sweeps/all-reduce-bus-bandwidth.json")) as f:
                sweep = json.load(f)
            sweep["base"]["machine"] = os.path.join(SOURCE, "topologies/hgx-h100-8.machine.json")
            axes = {a["name"]: a for a in sweep["axes"]}
            axes["machine"]["values"] = [os.path.join(SOURCE, "topologies", os.path.basename(v))
                                         for v in axes["machine"]["values"]]
            axes["collective"]["values"] = ["auto"]
            axes["size"]["range"]["steps"] = 4
            with open(os.path.join(tmp, "sweep.json"), "w") as f:
                json.dump(sweep, f)
            h5 = os.path.join(tmp, "bw.h5")
            subprocess.run([ZETTASIM, "sweep", os.path.join(tmp, "sweep.json"), "--out", h5, "--quiet"], check=True,
                           stdout=subprocess.DEVNULL)
            png, csv = os.path.join(tmp, "bw.png"), os.path.join(tmp, "bw.csv")
            script = os.path.join(SOURCE, "analysis/examples/bus_bandwidth_from_sweep.py")
            subprocess.run(["/usr/bin/python3", script, h5, "--out", png, "--csv", csv], check=True,
                           stdout=subprocess.DEVNULL)
            check_png(self, png)
            curves = pandas.read_csv(csv, index_col="size_B")
            self.assertEqual(curves.shape, (4, 3))
            # docs/sweeps.md's table at 16 GiB, auto column.
            at_16_gib = curves.loc[16 * 2**30]
            self.assertAlmostEqual(at_16_gib["hgx-h100-8"], 481.5, delta=0.05)
            self.assertAlmostEqual(at_16_gib["hgx-h100-rails-16"], 334.5, delta=0.05)
            self.assertAlmostEqual(at_16_gib["hgx-h100-rails-32"], 232.5, delta=0.05)
