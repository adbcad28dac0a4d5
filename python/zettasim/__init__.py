"""zettasim from Python: load and vary scenarios, simulate them, read the results as pandas objects.

A thin layer over the C++ libraries the ``zettasim`` command uses: the same loading and validation, the same
simulation, the same result files. Quantities in results are SI base units (seconds, bytes, FLOP/s), as
``summary.json`` holds them.

    import zettasim
    s = zettasim.Scenario.load("scenarios/hgx-3d-parallel.json")
    r = zettasim.run(s.with_(tensor_parallel=4, data_parallel=1))
    print(r.iteration_time_s, r.mfu)
    r.breakdown            # pandas Series, seconds
"""

from __future__ import annotations

import io
import json
import os
import shutil
from typing import Any, Dict, Mapping, Optional, Union

from . import _zettasim, trace
from ._errors import InputError

__all__ = ["InputError", "Scenario", "Machine", "Model", "Workload", "Result", "GoodputResult", "Plan", "run", "goodput", "place", "plan", "sweep", "search", "trace",
           "__version__"]
__version__: str = _zettasim.__version__

PathLike = Union[str, "os.PathLike[str]"]


class _InputFile:
    """An input file read and checked alone, as a scenario reads it; ``load`` takes a path or a shipped name."""

    _folder = ""
    _suffix = ""

    def __init__(self, path: str):
        self.path = path
        self._resolved = json.loads(self._read(path))

    @staticmethod
    def _read(path: str) -> str:
        raise NotImplementedError

    @classmethod
    def load(cls, name_or_path: PathLike):
        """Reads the file at a path, or the shipped one of that name; raises InputError as the CLI exits 2."""
        return cls(_shipped(os.fspath(name_or_path), cls._folder, cls._suffix))

    def to_dict(self) -> Dict[str, Any]:
        """The file as config.json holds it in a scenario (resolved: units canonical, defaults filled in)."""
        return json.loads(json.dumps(self._resolved))

    def __repr__(self) -> str:
        return f"zettasim.{type(self).__name__}({self.path!r})"


class Machine(_InputFile):
    """A machine file (kind "machine": a topology and the models it binds); ``Machine.load("hgx-h100-8")``
    finds a shipped one. ``to_dict()`` inlines the models and the topology."""

    _folder, _suffix = "topologies", ".machine.json"
    _read = staticmethod(_zettasim.machine_json)

    def to_dict(self) -> Dict[str, Any]:
        """The machine as config.json's "/machine" holds it (its models and topology inlined)."""
        return {k: v for k, v in super().to_dict().items() if k != "derived"}

    @property
    def units(self) -> int:
        """Compute units."""
        return self._resolved["derived"]["units"]


class Model(_InputFile):
    """A transformer model file (kind "transformer"); ``Model.load("gpt3-1.3b")`` finds a shipped one."""

    _folder, _suffix = "workloads", ".json"
    _read = staticmethod(_zettasim.model_json)

    def to_dict(self) -> Dict[str, Any]:
        """The model as config.json's "/workload/model" holds it (defaults filled in)."""
        return {k: v for k, v in super().to_dict().items() if k != "derived"}

    @property
    def parameters(self) -> float:
        """Parameters in all (weights, embeddings and norms), as the memory and checkpoint accounting counts them."""
        return self._resolved["derived"]["parameters"]

    @property
    def active_parameters(self) -> float:
        """Parameters one token passes through: the weight matrices of each layer's attention and of its dense FFN
        or top-k routed and shared experts, and the output layer (embeddings looked up, biases and norms not
        counted)."""
        return self._resolved["derived"]["active_parameters"]


class Workload:
    """A scenario's workload section: a generator, its model (a file, a shipped name or a Model) and its plan
    as keywords (``Workload("gpt3-1.3b", "megatron", data_parallel=8, micro_batch=2, global_batch=128)``). It
    holds what it is given and nothing else: a key the file format requires and the call leaves out is the
    loader's InputError, as in a file. It is checked with its machine, when a Scenario is built from it (a
    plan that does not fit raises InputError there)."""

    def __init__(self, model: Union[str, "Model"], generator: Optional[str] = None, **plan: Any):
        model_file = model.path if isinstance(model, Model) else _shipped(model, "workloads", ".json")
        self._section = {"model": model_file, **plan}
        if generator is not None:
            self._section = {"generator": generator, **self._section}

    @classmethod
    def from_dict(cls, section: Mapping[str, Any]) -> "Workload":
        """A workload section as a scenario file writes it ("generator", "model", the plan's keys)."""
        section = dict(section)
        return cls(section.pop("model"), section.pop("generator", None), **section)

    def to_dict(self) -> Dict[str, Any]:
        """The section as a scenario file holds it (the model's path made absolute)."""
        return dict(self._section)

    def __repr__(self) -> str:
        return f"zettasim.Workload({self._section!r})"


class Scenario:
    """A loaded, validated scenario: the machine, the job and the policies, as a scenario file states them.

    Build one with ``Scenario.load(path)`` or ``Scenario.from_dict(d)``; ``with_`` returns a changed copy.
    """

    def __init__(self, machine: Union[str, "Machine", None] = None, model: Union[str, "Model", "Workload", None] = None, *,
                 generator: Optional[str] = None, placement: Optional[str] = None, collective: Optional[str] = None,
                 seed: Optional[int] = None, name: Optional[str] = None, _loaded: Any = None, **plan: Any):
        """A scenario from keyword arguments: ``machine`` a machine file or a shipped one's name
        ("hgx-h100-8" is topologies/hgx-h100-8.machine.json), ``model`` a model file or a shipped one's name
        ("gpt3-1.3b" is workloads/gpt3-1.3b.json), or Machine and Model objects (or a Workload in place of model
        and plan); the workload ``generator`` and its plan as keywords
        (``data_parallel=8, tensor_parallel=1, micro_batch=2, global_batch=128``), the placement and
        collective policies by name, and the ``seed``. Nothing is filled in here: the generator and both
        policies are required as a scenario file requires them (InputError naming the missing key); the seed,
        left out, is the file format's declared default. Shipped
        files are looked for in $ZETTASIM_DATA, the build's source tree and the install prefix's
        share/zettasim."""
        if _loaded is not None:
            self._loaded = _loaded
            return
        if machine is None or model is None:
            raise TypeError("Scenario() needs machine= and model= (or use Scenario.load / Scenario.from_dict)")
        machine_file = machine.path if isinstance(machine, Machine) else _shipped(machine, "topologies", ".machine.json")
        workload = model if isinstance(model, Workload) else Workload(model, generator, **plan)
        section = workload.to_dict()
        model_name = os.path.basename(section["model"])[: -len(".json")]
        policies = {k: v for k, v in (("placement", placement), ("collective", collective)) if v is not None}
        scenario = {"kind": "scenario", "name": name or f"{model_name}-on-{os.path.basename(machine_file)[:-13]}",
                    "machine": machine_file, "workload": section, "policies": policies}
        if seed is not None:
            scenario["seed"] = seed
        self._loaded = Scenario.from_dict(scenario)._loaded

    @classmethod
    def load(cls, path: PathLike) -> "Scenario":
        """Reads a scenario file (kind "scenario") and the files it names; raises InputError as the CLI exits 2."""
        return cls(_loaded=_zettasim.load(os.fspath(path)))

    @classmethod
    def from_dict(cls, scenario: Mapping[str, Any], base_dir: PathLike = ".") -> "Scenario":
        """A scenario given as a dict (the JSON of a scenario file); the files it names resolve from base_dir."""
        name = str(scenario.get("name", "scenario")) if isinstance(scenario, Mapping) else "scenario"
        path = os.path.join(os.path.abspath(os.fspath(base_dir)), f"{name}.json")
        return cls(_loaded=_zettasim.load_text(json.dumps(scenario), path))

    @property
    def name(self) -> str:
        """The scenario's name (its results folder's default name)."""
        return self._loaded.name

    @property
    def path(self) -> str:
        """The scenario file, as given (or as base_dir/NAME.json for from_dict)."""
        return self._loaded.path

    def to_dict(self) -> Dict[str, Any]:
        """The resolved configuration: every parameter with its unit and default, as config.json holds it."""
        return json.loads(self._loaded.config_json())

    def with_(self, changes: Optional[Mapping[str, Any]] = None, **plan: Any) -> "Scenario":
        """A copy with values changed, as one point of a sweep: ``changes`` maps JSON pointers of the resolved
        configuration ("/machine/models/gpu", "/seed") to values; keyword arguments set keys of the
        workload section (``tensor_parallel=4`` is "/workload/tensor_parallel"). Quantities are strings
        with units ("80GiB") or numbers in SI base units; a model entry may be another model file's path,
        relative to the current directory. The change is validated as the file would be (InputError)."""
        pointers = {p: json.dumps(v) for p, v in (changes or {}).items()}
        pointers.update({f"/workload/{k}": json.dumps(v) for k, v in plan.items()})
        return Scenario(_loaded=_zettasim.with_values(self._loaded, pointers, os.getcwd()))

    def __repr__(self) -> str:
        return f"zettasim.Scenario({self.name!r}, path={self.path!r})"


def _data_dirs():
    """Where shipped files are looked for by name."""
    here = os.path.dirname(os.path.abspath(__file__))
    dirs = [os.environ.get("ZETTASIM_DATA", ""), _zettasim.source_dir,
            os.path.normpath(os.path.join(here, "../../../../share/zettasim"))]
    return [d for d in dirs if d and os.path.isdir(d)]


def _shipped(name_or_path: str, folder: str, suffix: str) -> str:
    """A file given by path, or a shipped one by name (folder/NAME+suffix in a data directory)."""
    if os.path.isfile(name_or_path):
        return os.path.abspath(name_or_path)
    for d in _data_dirs():
        candidate = os.path.join(d, folder, name_or_path + suffix)
        if os.path.isfile(candidate):
            return candidate
    known = sorted({f[: -len(suffix)] for d in _data_dirs() if os.path.isdir(os.path.join(d, folder))
                    for f in os.listdir(os.path.join(d, folder)) if f.endswith(suffix)})
    raise InputError(f"{name_or_path}: no such file, and no shipped {folder}/{name_or_path}{suffix} (known: {', '.join(known)})",
                     name_or_path, "", f"a file or a shipped name (known: {', '.join(known)})")


class _Figures:
    """Figures of a result file, by attribute (``r.mfu``) or key (``r["mfu"]``), with the files themselves."""

    _main = "summary.json"

    def __init__(self, files: Mapping[str, str]):
        self._files = dict(files)
        self.summary: Dict[str, Any] = json.loads(files[self._main])
        self.config: Dict[str, Any] = json.loads(files["config.json"])

    def __getattr__(self, key: str) -> Any:
        summary = self.__dict__.get("summary", {})
        if key in summary:
            return summary[key]
        raise AttributeError(f"{type(self).__name__} has no {key!r} ({self._main} keys: {', '.join(sorted(summary))})")

    def __getitem__(self, key: str) -> Any:
        return self.summary[key]

    def keys(self):
        return self.summary.keys()

    def report(self) -> str:
        """The text report, as report.txt holds it."""
        return self._files["report.txt"]

    def write(self, folder: PathLike) -> None:
        """Writes the result's files (as the command names them) into folder (created if needed)."""
        os.makedirs(folder, exist_ok=True)
        for name, text in self._files.items():
            with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
                f.write(text)


class Result(_Figures):
    """One simulated iteration: everything summary.json holds, by attribute (``r.mfu``) or key (``r["mfu"]``).

    ``summary`` and ``config`` are the dicts of summary.json and config.json; ``breakdown`` (s) and
    ``utilization`` are pandas Series; ``report()`` is the text report.txt holds.
    """

    @property
    def breakdown(self):
        """The critical rank's iteration split into compute, exposed communication, bubble, stalls, idle (s)."""
        import pandas as pd

        return pd.Series(self.summary["critical_rank_breakdown_s"], name="seconds")

    @property
    def utilization(self):
        """Compute, link and memory-pool utilization over the iteration (fractions, and where the busiest is)."""
        import pandas as pd

        return pd.Series(self.summary["utilization"], name="utilization")

    def __repr__(self) -> str:
        return f"zettasim.Result({self.summary.get('scenario')!r}, iteration_time_s={self.summary.get('iteration_time_s')!r})"


class Plan:
    """What ``zettasim plan`` writes: ``hostfile`` (one host per rank), ``ranks`` (a pandas DataFrame: rank,
    host, GPU and mesh coordinates), ``launch`` (the sbatch script) and ``decisions`` (plan.json as a dict)."""

    def __init__(self, files: Mapping[str, str]):
        self.files = dict(files)
        self.hostfile = files["hostfile"].splitlines()
        self.launch: str = files["launch.sbatch"]
        self.decisions: Dict[str, Any] = json.loads(files["plan.json"])

    @property
    def ranks(self):
        import pandas as pd

        rows = json.loads(self.files["ranks.json"])
        return pd.DataFrame([{"rank": r["rank"], "host": r["host"], "gpu": r["gpu"], **r["mesh"]} for r in rows])


def _loaded(scenario: Union[Scenario, PathLike]) -> Any:
    return scenario._loaded if isinstance(scenario, Scenario) else _zettasim.load(os.fspath(scenario))


def run(scenario: Union[Scenario, PathLike], fidelity: Optional[str] = None, timeline: Optional[PathLike] = None,
        timeline_ranks: str = "", timeseries: Optional[PathLike] = None, timeseries_step: float = 0.0) -> Result:
    """Simulates one iteration, as ``zettasim run`` does; fidelity "auto", "exact" or "collapsed" overrides
    the scenario's. ``timeline`` and ``timeseries`` also write a Trace Event Format timeline (of the ranks
    ``timeline_ranks`` selects, e.g. "pp=0..1,tp=0") and an HDF5 time series (``timeseries_step`` s; 0: about
    1,000 samples), as ``--timeline`` and ``--timeseries`` do. The interpreter's other threads run meanwhile
    (the GIL is released)."""
    return Result(_zettasim.run(_loaded(scenario), fidelity or "", os.fspath(timeline) if timeline else "",
                                timeline_ranks, os.fspath(timeseries) if timeseries else "", float(timeseries_step)))


class GoodputResult(_Figures):
    """Days of training under failures: everything goodput.json holds, by attribute or key (``g.ettr``), with
    ``config`` (config.json) and ``report()`` (report.txt)."""

    _main = "goodput.json"


def goodput(scenario: Union[Scenario, PathLike], seeds: int = 0) -> GoodputResult:
    """Days of training under the scenario's failures, checkpoints and recovery, as ``zettasim goodput`` runs
    them; ``seeds`` > 0 overrides the scenario's number of Monte Carlo seeds."""
    return GoodputResult(_zettasim.goodput(_loaded(scenario), seeds))


def place(scenario: Union[Scenario, PathLike], policies: Optional[list] = None, sample: int = 1024):
    """Places the job with each named placement policy (none: the scenario's) without simulating, as
    ``zettasim place`` does: a pandas DataFrame of bytes and hop-bytes (B per iteration) per policy and
    communicator, with the text report in ``.attrs["report"]``."""
    import pandas as pd

    files = _zettasim.place(_loaded(scenario), list(policies or []), sample)
    table = pd.DataFrame(json.loads(files["rows.json"]))
    table.attrs["report"] = files["report.txt"]
    return table


def _zettasim_command() -> str:
    """The zettasim command that runs a sweep's points: $ZETTASIM, else the one beside this package (the build
    tree's bin/ or the install prefix's), else the one on PATH."""
    if os.environ.get("ZETTASIM"):
        return os.environ["ZETTASIM"]
    here = os.path.dirname(os.path.abspath(__file__))
    for relative in ("../../bin/zettasim", "../../../../bin/zettasim"):
        candidate = os.path.normpath(os.path.join(here, relative))
        if os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which("zettasim")
    if found is None:
        raise FileNotFoundError("no zettasim command for the sweep's points: set ZETTASIM")
    return found


def sweep(spec: Union[PathLike, Mapping[str, Any], None] = None, out: Optional[PathLike] = None, jobs: int = 0,
          resume: bool = False, force: bool = False, *, base: Union[Scenario, PathLike, None] = None,
          axes: Optional[list] = None, name: Optional[str] = None, base_dir: PathLike = "."):
    """Runs a sweep as ``zettasim sweep`` does (each point its own process; ``jobs`` at once, 0: one per core;
    an interrupted sweep resumes with ``resume=True``) and returns its points table as a pandas DataFrame with
    the columns of the HDF5 file's table (written to ``out``, default results/NAME.h5; its path is in
    ``.attrs["file"]``).

    ``spec`` is a sweep file, or a sweep file's JSON as a dict (paths in it resolve from ``base_dir``); or give
    ``base`` (a scenario file, or a Scenario loaded from one) and ``axes`` (the sweep file's "axes" list).
    """
    import pandas as pd

    if spec is None:
        if base is None or axes is None:
            raise TypeError("sweep() needs a sweep file or dict, or base= and axes=")
        if isinstance(base, Scenario):
            if base._loaded.overlay:
                raise ValueError("sweep(base=...) needs a scenario read from its file: one built from a dict or "
                                 "changed by with_ has no file the points can read")
            base = base.path
        base_path = os.path.abspath(os.fspath(base))
        spec = {"kind": "sweep", "name": name or os.path.splitext(os.path.basename(base_path))[0] + "-sweep",
                "base": base_path, "axes": list(axes)}
        base_dir = os.path.dirname(base_path)
    written = None
    if isinstance(spec, Mapping):  # the points' processes read the sweep from a file: one beside base_dir's
        written = os.path.join(os.path.abspath(os.fspath(base_dir)), f".zettasim-{spec.get('name', 'sweep')}.sweep.json")
        with open(written, "w", encoding="utf-8") as f:
            json.dump(spec, f)
        spec = written
    try:
        files = _zettasim.sweep(os.fspath(spec), os.fspath(out) if out else "", jobs, _zettasim_command(), resume,
                                force)
    finally:
        if written:
            os.remove(written)
    table = pd.read_csv(io.StringIO(files["csv"]), float_precision="round_trip")
    table.attrs["file"] = files["out"]
    return table


def search(scenario: Union[Scenario, PathLike], objective: str = "time", top: int = 16, out: Optional[PathLike] = None,
           jobs: int = 0, force: bool = False):
    """Searches the plans of a scenario's job as ``zettasim search`` does (tier 1's estimates, the best ``top``
    and the scenario's own plan through the engine, each a process; ``jobs`` at once, 0: one per core) and
    returns the plans as a pandas DataFrame: tier 1's best, one row each with its estimate, and for those that
    ran through the engine their simulated figures and the estimate's error. The results folder (``out``,
    default results/NAME-search) is in ``.attrs["folder"]``, search.json's content in ``.attrs["search"]``
    and the report in ``.attrs["report"]``."""
    import pandas as pd

    if isinstance(scenario, Scenario):
        if scenario._loaded.overlay:
            raise ValueError("search() needs a scenario read from its file: one built from a dict or changed by "
                             "with_ has no file the finalists can read")
        scenario = scenario.path
    files = _zettasim.search(os.path.abspath(os.fspath(scenario)), os.fspath(out) if out else "", objective, top,
                             jobs, _zettasim_command(), force)
    found = json.loads(files["search.json"])
    rows = []
    simulated = {json.dumps(f["workload"], sort_keys=True): f for f in found["finalists"] if not f["reference"]}
    for rank, c in enumerate(found["tier1"], 1):
        row = {"tier1_rank": rank, "plan": c["plan"], **c["workload"],
               **{"estimated_" + k: v for k, v in c["estimate"].items()}}
        f = simulated.get(json.dumps(c["workload"], sort_keys=True))
        if f is not None and "simulated" in f:
            row.update({"simulated_" + k: v for k, v in f["simulated"].items() if not isinstance(v, dict)})
            row["estimate_error"] = f.get("estimate_error")
        rows.append(row)
    table = pd.DataFrame(rows)
    table.attrs["folder"] = files["out"]
    table.attrs["search"] = found
    table.attrs["report"] = files["report.txt"]
    return table


def plan(scenario: Union[Scenario, PathLike]) -> Plan:
    """Lays out the scenario's Megatron-LM job on its cluster inventory, as ``zettasim plan`` does."""
    return Plan(_zettasim.plan(_loaded(scenario)))
