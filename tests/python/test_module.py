"""import zettasim: the same results, configuration and errors as the zettasim command, from the same libraries.

Run by ctest with PYTHONPATH=<build>/python; ZETTASIM names the zettasim executable, ZS_SOURCE_DIR the
source tree.
"""

import json
import os
import signal
import subprocess
import tempfile
import threading
import time
import unittest

import zettasim

SOURCE = os.environ["ZS_SOURCE_DIR"]
ZETTASIM = os.environ["ZETTASIM"]


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def cli(*args, cwd=SOURCE):
    return subprocess.run([ZETTASIM, *args], cwd=cwd, capture_output=True, text=True)


def cli_files(scenario, folder):
    """The files `zettasim run` writes for scenario (relative to the source tree)."""
    r = cli("run", scenario, "--out", folder, "--quiet")
    assert r.returncode == 0, r.stderr
    return {n: read(os.path.join(folder, n)) for n in ("summary.json", "config.json", "report.txt")}


def absolute(scenario_file):
    """A scenario's JSON with the files it names made absolute, to be written anywhere."""
    d = json.loads(read(os.path.join(SOURCE, scenario_file)))
    base = os.path.dirname(os.path.join(SOURCE, scenario_file))
    d["machine"] = os.path.normpath(os.path.join(base, d["machine"]))
    d["workload"]["model"] = os.path.normpath(os.path.join(base, d["workload"]["model"]))
    return d


class InSourceTree(unittest.TestCase):
    """Runs from the source tree (so that paths read as a user's in the repository), with a scratch folder."""

    def setUp(self):
        self.cwd = os.getcwd()
        os.chdir(SOURCE)
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        os.chdir(self.cwd)
        self.tmp.cleanup()


class RunsAsTheCommandDoes(InSourceTree):
    def test_run_writes_the_files_zettasim_run_writes(self):
        for name in ("default", "hgx-3d-parallel"):
            with self.subTest(name):
                scenario = f"scenarios/{name}.json"
                expected = cli_files(scenario, os.path.join(self.tmp.name, name))
                result = zettasim.run(zettasim.Scenario.load(scenario))
                result.write(os.path.join(self.tmp.name, name + "-python"))
                for file, text in expected.items():
                    got = read(os.path.join(self.tmp.name, name + "-python", file))
                    self.assertEqual(got, text, file)
                self.assertEqual(result.iteration_time_s, json.loads(expected["summary.json"])["iteration_time_s"])
                self.assertEqual(result["mfu"], json.loads(expected["summary.json"])["mfu"])

    def test_timeline_and_time_series_are_the_commands(self):
        scenario = "tests/output/data/offload-pp4-ocs.json"
        tmp = self.tmp.name
        r = cli("run", scenario, "--out", os.path.join(tmp, "cli"), "--quiet", "--timeline",
                os.path.join(tmp, "cli.json"), "--timeline-ranks", "pp=0..1,tp=0", "--timeseries",
                os.path.join(tmp, "cli.h5"), "--timeseries-step", "1ms")
        self.assertEqual(r.returncode, 0, r.stderr)
        zettasim.run(zettasim.Scenario.load(scenario), timeline=os.path.join(tmp, "py.json"),
                     timeline_ranks="pp=0..1,tp=0", timeseries=os.path.join(tmp, "py.h5"), timeseries_step=0.001)
        self.assertEqual(read(os.path.join(tmp, "py.json")), read(os.path.join(tmp, "cli.json")))
        import h5py
        with h5py.File(os.path.join(tmp, "py.h5")) as a, h5py.File(os.path.join(tmp, "cli.h5")) as b:
            self.assertEqual(a["step_s"][0], 0.001)
            self.assertTrue((a["links/utilization"][:] == b["links/utilization"][:]).all())
            self.assertTrue((a["ranks/state"][:] == b["ranks/state"][:]).all())
        with self.assertRaises(zettasim.InputError) as caught:
            zettasim.run(zettasim.Scenario.load(scenario), timeline=os.path.join(tmp, "x.json"), timeline_ranks="ep=0")
        self.assertIn("no mesh axis \"ep\"", str(caught.exception))

    def test_run_writes_its_views_under_the_output_file_rule(self):
        scenario = os.path.join(self.tmp.name, "scenario.json")
        with open(os.path.join(SOURCE, "scenarios/default.json")) as f:
            text = f.read().replace('"../', '"' + SOURCE + '/')
        with open(scenario, "w") as f:
            f.write(text)
        notes = os.path.join(self.tmp.name, "notes.json")
        with open(notes, "w") as f:
            f.write("the user's notes\n")
        os.symlink(notes, os.path.join(self.tmp.name, "link.json"))
        for path, expected in [(scenario, "is an input of this command"), (notes, "exists and is not a timeline"),
                               (os.path.join(self.tmp.name, "link.json"), "is a symbolic link")]:
            with self.assertRaises(zettasim.InputError) as caught:
                zettasim.run(zettasim.Scenario.load(scenario), timeline=path)
            self.assertEqual(caught.exception.file, "timeline")
            self.assertIn(expected, str(caught.exception))
        self.assertEqual(read(scenario), text)
        self.assertEqual(read(notes), "the user's notes\n")
        with self.assertRaises(zettasim.InputError) as caught:
            zettasim.run(zettasim.Scenario.load(scenario), timeline=os.path.join(self.tmp.name, "v"),
                         timeseries=os.path.join(self.tmp.name, "v"))
        self.assertIn("name one file", str(caught.exception))

    def test_to_dict_is_the_resolved_configuration(self):
        expected = cli_files("scenarios/hgx-3d-parallel.json", os.path.join(self.tmp.name, "cli"))
        self.assertEqual(zettasim.Scenario.load("scenarios/hgx-3d-parallel.json").to_dict(),
                         json.loads(expected["config.json"]))

    def test_from_dict_is_the_file(self):
        d = json.loads(read("scenarios/hgx-3d-parallel.json"))
        from_dict = zettasim.run(zettasim.Scenario.from_dict(d, base_dir="scenarios"))
        from_file = zettasim.run("scenarios/hgx-3d-parallel.json")
        self.assertEqual(from_dict.summary, from_file.summary)

    def test_a_scenario_from_keywords_and_shipped_names(self):
        s = zettasim.Scenario(machine="hgx-h100-8", model="gpt3-1.3b", generator="megatron", placement="linear",
                              collective="ring", seed=1, data_parallel=8, micro_batch=2, global_batch=128,
                              overlap_gradient_reduction=True)
        default = zettasim.run("scenarios/default.json").summary
        got = zettasim.run(s).summary
        for key in ("iteration_time_s", "mfu", "critical_rank_breakdown_s", "energy_per_iteration_j"):
            self.assertEqual(got[key], default[key], key)
        with self.assertRaises(zettasim.InputError) as caught:
            zettasim.Scenario(machine="hgx-h100-9", model="gpt3-1.3b")
        self.assertIn("hgx-h100-8", caught.exception.expected)

    def test_machine_and_model_objects_are_their_files_as_a_scenario_reads_them(self):
        machine, model = zettasim.Machine.load("hgx-h100-8"), zettasim.Model.load("gpt3-1.3b")
        self.assertEqual(machine.units, 8)
        s = zettasim.Scenario(machine, model, generator="ideal-data-parallel", placement="linear", collective="ring",
                              seed=1, data_parallel=8, micro_batch=2, global_batch=128)
        config = s.to_dict()
        self.assertEqual(config["machine"], machine.to_dict())
        self.assertEqual(config["workload"]["model"], model.to_dict())
        with self.assertRaises(zettasim.InputError):
            zettasim.Model.load("topologies/hgx-h100-8.json")  # a topology is not a model
        # Megatron-LM's count for GPT-3 1.3B: 12lh^2 + 13lh + (V + s)h + 2h (the final norm) with l = 24,
        # h = 2048, V = 51200, s = 2048; a token passes through the layers' weight matrices (12lh^2) and the
        # output layer (Vh).
        l, h, v, seq = 24, 2048, 51200, 2048
        self.assertEqual(model.parameters, 12 * l * h * h + 13 * l * h + (v + seq) * h + 2 * h)
        self.assertEqual(model.active_parameters, 12 * l * h * h + v * h)
        self.assertNotIn("derived", model.to_dict())
        workload = zettasim.Workload(model, "ideal-data-parallel", data_parallel=8, micro_batch=2, global_batch=128)
        self.assertEqual(zettasim.Workload.from_dict(workload.to_dict()).to_dict(), workload.to_dict())
        by_workload = zettasim.Scenario(machine, workload, placement="linear", collective="ring", seed=1)
        self.assertEqual(by_workload.to_dict()["workload"], config["workload"])
        too_big = zettasim.Workload(model, "ideal-data-parallel", data_parallel=16, micro_batch=2, global_batch=128)
        with self.assertRaises(zettasim.InputError) as caught:
            zettasim.Scenario(machine, too_big, placement="linear", collective="ring", seed=1)
        self.assertEqual(caught.exception.path, "/workload")
        # nothing is filled in: what a scenario file must say, the call must say
        # (the seed has a declared default, which config.json shows)
        for left_out in ("placement", "collective"):
            given = {"placement": "linear", "collective": "ring"}
            del given[left_out]
            with self.assertRaises(zettasim.InputError) as caught:
                zettasim.Scenario(machine, workload, **given)
            self.assertEqual(caught.exception.path, "/policies", left_out)
            self.assertIn(f'missing required key "{left_out}"', str(caught.exception))
        self.assertEqual(zettasim.Scenario(machine, workload, placement="linear", collective="ring").to_dict()
                         ["seed"], 1)
        with self.assertRaises(zettasim.InputError) as caught:
            zettasim.Scenario(machine, zettasim.Workload(model, data_parallel=8, micro_batch=2, global_batch=128),
                              placement="linear", collective="ring")
        self.assertEqual(caught.exception.path, "/workload")
        self.assertIn('missing required key "generator"', str(caught.exception))

    def test_with_is_the_changed_file(self):
        d = absolute("scenarios/hgx-3d-parallel.json")
        d["workload"].update(tensor_parallel=4, data_parallel=1)
        changed = os.path.join(self.tmp.name, "changed.json")
        with open(changed, "w", encoding="utf-8") as f:
            json.dump(d, f)
        expected = cli_files(changed, os.path.join(self.tmp.name, "changed"))
        got = zettasim.run(zettasim.Scenario.load("scenarios/hgx-3d-parallel.json").with_(tensor_parallel=4, data_parallel=1))
        self.assertEqual(got.summary["iteration_time_s"], json.loads(expected["summary.json"])["iteration_time_s"])
        self.assertEqual(got.config["workload"]["tensor_parallel"], 4)
        # A model swapped by pointer, as a sweep swaps it, with a cited source saying so.
        base = zettasim.Scenario.load("scenarios/hgx-3d-parallel.json")
        b200 = base.with_({"/machine/models/gpu": "models/b200.json"})
        self.assertEqual(b200.to_dict()["machine"]["models"]["gpu"]["name"], "b200")
        # Quantities as strings with units, or as numbers in SI base units.
        by_text = base.with_({"/machine/models/gpu/hbm_capacity": "40GB"}).to_dict()
        by_number = base.with_({"/machine/models/gpu/hbm_capacity": 40e9}).to_dict()
        self.assertEqual(by_text["machine"]["models"]["gpu"]["hbm_capacity"], "40GB")
        self.assertEqual(by_number, by_text)

    def test_result_as_pandas(self):
        r = zettasim.run("scenarios/hgx-3d-parallel.json")
        self.assertAlmostEqual(r.breakdown.sum(), r.iteration_time_s, delta=1e-9 * r.iteration_time_s)
        self.assertIn("compute_mean", r.utilization.index)
        self.assertIn("iteration time", r.report())
        with self.assertRaises(AttributeError):
            r.no_such_figure

    def test_the_run_releases_the_interpreter(self):
        ticks = []
        stop = threading.Event()

        def tick():
            while not stop.is_set():
                ticks.append(1)
                stop.wait(0.001)

        t = threading.Thread(target=tick)
        t.start()
        zettasim.run("scenarios/moe-ep-64.json")
        stop.set()
        t.join()
        self.assertGreater(len(ticks), 10)

    def test_ctrl_c_interrupts_a_run_within_a_second_and_leaves_no_process(self):
        # fat-tree-oversubscribed takes about 5 s (exact fidelity, 512 ranks).
        signalled = []

        def interrupt():
            signalled.append(time.monotonic())
            os.kill(os.getpid(), signal.SIGINT)

        threading.Timer(0.5, interrupt).start()
        with self.assertRaises(KeyboardInterrupt):
            zettasim.run("scenarios/fat-tree-oversubscribed.json")
        self.assertLess(time.monotonic() - signalled[0], 1.0)
        with self.assertRaises(ChildProcessError):  # the simulation's process is gone, and reaped
            os.waitpid(-1, os.WNOHANG)
        self.assertEqual(zettasim.run("scenarios/default.json").scenario, "default")  # and the next run works

    def test_plan_writes_the_files_zettasim_plan_writes(self):
        folder = os.path.join(self.tmp.name, "plan")
        scenario = "scenarios/planner/gpt3-1.3b-hgx-h100-4node.json"
        self.assertEqual(cli("plan", scenario, "--out", folder, "--quiet").returncode, 0)
        p = zettasim.plan(scenario)
        for name, text in p.files.items():
            self.assertEqual(text, read(os.path.join(folder, name)), name)
        self.assertEqual(len(p.ranks), 24)
        self.assertEqual(list(p.ranks.host.unique()), ["gpu001", "gpu002", "gpu004"])


class TheOtherCommands(InSourceTree):
    """goodput, place and sweep from Python give what the commands give."""

    def test_goodput(self):
        scenario = "scenarios/planner/gpt3-1.3b-hgx-h100-4node.json"
        folder = os.path.join(self.tmp.name, "goodput")
        self.assertEqual(cli("goodput", scenario, "--seeds", "2", "--out", folder, "--quiet").returncode, 0)
        g = zettasim.goodput(zettasim.Scenario.load(scenario), seeds=2)
        self.assertEqual(g._files["goodput.json"], read(os.path.join(folder, "goodput.json")))
        self.assertEqual(g.report(), read(os.path.join(folder, "report.txt")))
        self.assertEqual(g.ettr, g["ettr"])

    def test_place(self):
        r = cli("place", "scenarios/hgx-3d-parallel.json", "--policy", "linear", "--policy", "random")
        table = zettasim.place("scenarios/hgx-3d-parallel.json", ["linear", "random"])
        self.assertEqual(table.attrs["report"], r.stdout)
        self.assertEqual(sorted(table.policy.unique()), ["linear", "random"])
        linear = table[table.policy == "linear"].set_index("communicator")
        self.assertAlmostEqual(linear.loc["tp", "mean_hops"], linear.loc["tp", "hop_bytes"] / linear.loc["tp", "bytes"])

    def test_sweep(self):
        spec = {"kind": "sweep", "name": "py", "base": os.path.join(SOURCE, "scenarios/default.json"),
                "axes": [{"name": "collective", "pointer": "/policies/collective", "values": ["ring", "in-network"]},
                         {"name": "micro_batch", "pointer": "/workload/micro_batch", "values": [1, 2, 3]}]}
        path = os.path.join(self.tmp.name, "sweep.json")
        with open(path, "w") as f:
            json.dump(spec, f)
        csv = os.path.join(self.tmp.name, "cli.csv")
        r = cli("sweep", path, "--out", os.path.join(self.tmp.name, "cli.h5"), "--csv", csv, "--jobs", "2", "--quiet")
        self.assertEqual(r.returncode, 0, r.stderr)
        table = zettasim.sweep(path, out=os.path.join(self.tmp.name, "py.h5"), jobs=2)
        import pandas
        expected = pandas.read_csv(csv, float_precision="round_trip")
        pandas.testing.assert_frame_equal(table, expected)
        self.assertEqual(list(table.status), ["ok", "ok", "invalid", "ok", "ok", "invalid"])
        self.assertEqual(table.attrs["file"], os.path.join(self.tmp.name, "py.h5"))
        self.assertTrue(os.path.exists(table.attrs["file"]))
        # The same sweep from a base scenario and its axes, and from the sweep's dict.
        by_axes = zettasim.sweep(base=zettasim.Scenario.load(spec["base"]), axes=spec["axes"], name="py",
                                 out=os.path.join(self.tmp.name, "axes.h5"), jobs=2)
        pandas.testing.assert_frame_equal(by_axes, expected)
        by_dict = zettasim.sweep(spec, out=os.path.join(self.tmp.name, "dict.h5"), jobs=2, base_dir=self.tmp.name)
        pandas.testing.assert_frame_equal(by_dict, expected)
        self.assertEqual([f for f in os.listdir(self.tmp.name) if f.startswith(".zettasim-")], [])  # removed

    def test_search(self):
        out = os.path.join(self.tmp.name, "cli-search")
        r = cli("search", os.path.join(SOURCE, "scenarios/default.json"), "--top", "2", "--out", out, "--quiet")
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out, "search.json")) as f:
            expected = json.load(f)
        table = zettasim.search(os.path.join(SOURCE, "scenarios/default.json"), top=2,
                                out=os.path.join(self.tmp.name, "py-search"))
        found = table.attrs["search"]
        self.assertEqual(found["finalists"], expected["finalists"])
        self.assertEqual(len(table), len(expected["tier1"]))
        self.assertEqual(list(table.plan[:2]), [c["plan"] for c in expected["tier1"][:2]])
        # The two finalists carry their simulated time and the estimate's error; the rest only estimates.
        ran = table.dropna(subset=["simulated_iteration_time_s"])
        self.assertEqual(list(ran.tier1_rank), [1, 2])
        for _, row in ran.iterrows():
            self.assertAlmostEqual(row.estimate_error,
                                   (row.estimated_iteration_time_s - row.simulated_iteration_time_s)
                                   / row.simulated_iteration_time_s)
        with self.assertRaises(zettasim.InputError):
            zettasim.search(os.path.join(SOURCE, "scenarios/default.json"), objective="fastest", top=0,
                            out=os.path.join(self.tmp.name, "bad"))


class Traces(InSourceTree):
    """zettasim.trace gives what zettasim trace gen, inspect and export-chakra give."""

    def test_gen_and_inspect(self):
        out = os.path.join(self.tmp.name, "t.json")
        r = cli("trace", "gen", "workloads/gpt3-1.3b.json", "--parallel",
                "data_parallel=2,tensor_parallel=2,micro_batch=1,global_batch=8", "--out", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        plan = {"data_parallel": 2, "tensor_parallel": 2, "micro_batch": 1, "global_batch": 8}
        self.assertEqual(zettasim.trace.gen("workloads/gpt3-1.3b.json", parallel=plan), json.loads(read(out)))
        self.assertEqual(zettasim.trace.inspect("scenarios/hgx-3d-parallel.json"),
                         cli("trace", "inspect", "scenarios/hgx-3d-parallel.json").stdout)

    def test_chakra_export_and_import(self):
        cli_dir, py_dir = os.path.join(self.tmp.name, "cli"), os.path.join(self.tmp.name, "py")
        self.assertEqual(cli("trace", "export-chakra", "scenarios/hgx-3d-parallel.json", "--out", cli_dir).returncode, 0)
        self.assertEqual(zettasim.trace.export_chakra("scenarios/hgx-3d-parallel.json", py_dir), 8)
        names = sorted(n for n in os.listdir(cli_dir) if n.endswith(".et"))
        self.assertEqual(names, sorted(n for n in os.listdir(py_dir) if n.endswith(".et")))
        for name in names:
            with open(os.path.join(cli_dir, name), "rb") as a, open(os.path.join(py_dir, name), "rb") as b:
                self.assertEqual(a.read(), b.read(), name)
        prefix = os.path.join(py_dir, names[0][: -len(".0.et")])
        out = os.path.join(self.tmp.name, "imported.json")
        self.assertEqual(cli("trace", "gen", prefix, "--out", out).returncode, 0)
        self.assertEqual(zettasim.trace.import_chakra(prefix), json.loads(read(out)))


class ErrorsAreTheCommandsErrors(unittest.TestCase):
    """Every bad input raises zettasim.InputError with the line the command prints, its file and its path."""

    def bad(self, change, text=None):
        d = absolute("scenarios/hgx-3d-parallel.json")
        change(d)
        if text is not None:
            d = text
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "bad.json")
            with open(path, "w") as f:
                f.write(d if isinstance(d, str) else json.dumps(d))
            r = cli("run", path, "--out", os.path.join(tmp, "out"))
            self.assertEqual(r.returncode, 2)
            with self.assertRaises(zettasim.InputError) as caught:
                zettasim.run(zettasim.Scenario.load(path))
            self.assertEqual(r.stderr, f"zettasim: error: {caught.exception}\n")
            self.assertEqual(caught.exception.file, path)
            return caught.exception

    def test_unknown_key(self):
        e = self.bad(lambda d: d["workload"].update(tensor_paralel=2))
        self.assertEqual(e.path, "/workload/tensor_paralel")

    def test_wrong_type_and_impossible_plan(self):
        self.assertEqual(self.bad(lambda d: d["workload"].update(tensor_parallel="two")).path, "/workload/tensor_parallel")
        self.assertEqual(self.bad(lambda d: d["workload"].update(tensor_parallel=3)).path, "/workload/tensor_parallel")

    def test_missing_file_and_unknown_policy(self):
        self.assertEqual(self.bad(lambda d: d.update(machine="/nonexistent/machine.json")).path, "/machine")
        self.assertEqual(self.bad(lambda d: d["policies"].update(placement="nearest")).path, "/policies/placement")

    def test_malformed_json_a_duplicate_key_and_a_value_out_of_range(self):
        self.assertEqual(self.bad(lambda d: None, text='{"kind": "scenario",').path, "")
        duplicate = '{"kind": "scenario", "name": "a", "name": "b"}'
        self.assertIn("name", str(self.bad(lambda d: None, text=duplicate)))
        self.assertEqual(self.bad(lambda d: d["workload"].update(micro_batch=0)).path, "/workload/micro_batch")

    def test_every_bad_change_or_step_is_an_input_error_with_file_path_and_expected(self):
        import math
        s = zettasim.Scenario.load(os.path.join(SOURCE, "scenarios/hgx-3d-parallel.json"))
        for call, path, expected in [
                (lambda: s.with_({"/machine/models/gpu/~2": 1}), "/machine/models/gpu/~2", "expected a JSON pointer"),
                (lambda: s.with_({"/machine/models/gpu/matrix_efficiency": math.nan}),
                 "/machine/models/gpu/matrix_efficiency", "expected a finite number"),
                (lambda: s.with_(tensor_paralel=2), "/workload/tensor_paralel", "names nothing"),
                (lambda: s.with_({"machine": 1}), "machine", "expected a JSON pointer")]:
            with self.assertRaises(zettasim.InputError) as caught:
                call()
            self.assertEqual(caught.exception.file, "with_")
            self.assertEqual(caught.exception.path, path)
            self.assertIn(expected, caught.exception.expected)
        with tempfile.TemporaryDirectory() as tmp:
            for step in (-1.0, math.nan, math.inf):
                with self.assertRaises(zettasim.InputError) as caught:
                    zettasim.run(s, timeseries=os.path.join(tmp, "t.h5"), timeseries_step=step)
                self.assertEqual(caught.exception.file, "timeseries_step")
            self.assertEqual(os.listdir(tmp), [])
        with self.assertRaises(zettasim.InputError):
            zettasim.run(s, timeseries_step=0.001)  # a step without a time series

    def test_a_bad_change(self):
        s = zettasim.Scenario.load(os.path.join(SOURCE, "scenarios/hgx-3d-parallel.json"))
        with self.assertRaises(zettasim.InputError) as caught:
            s.with_({"/machine/models/gpu/matrix_peak/bf16": "fast"})
        self.assertIn("matrix_peak", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
