"""Traces: generate, inspect, import and export them, as ``zettasim trace`` does."""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Mapping, Optional

from . import _zettasim

__all__ = ["gen", "inspect", "import_chakra", "export_chakra"]


def gen(input: "os.PathLike[str] | str", parallel: Optional[Mapping[str, Any]] = None, generator: str = "megatron",
        comm_groups: Optional[str] = None) -> Dict[str, Any]:
    """The trace an input stands for, as a dict in zettasim's trace format (workloads/trace.schema.json): a
    scenario, a trace file, a Chakra prefix, or a model file with ``parallel`` its plan
    (``{"data_parallel": 8, "tensor_parallel": 2, ...}``) for ``generator``."""
    plan = json.dumps(dict(parallel)) if parallel is not None else ""
    files = _zettasim.trace(os.fspath(input), generator, plan, comm_groups or "")
    return json.loads(files["trace.json"])


def inspect(input: "os.PathLike[str] | str", parallel: Optional[Mapping[str, Any]] = None, generator: str = "megatron",
            comm_groups: Optional[str] = None) -> str:
    """What ``zettasim trace inspect`` prints: FLOPs, bytes per communicator, memory per role."""
    plan = json.dumps(dict(parallel)) if parallel is not None else ""
    files = _zettasim.trace(os.fspath(input), generator, plan, comm_groups or "")
    return (f"imported: {files['imported']}\n" if files["imported"] else "") + files["report.txt"]


def import_chakra(prefix: "os.PathLike[str] | str", comm_groups: Optional[str] = None) -> Dict[str, Any]:
    """Chakra execution traces (PREFIX.0.et, PREFIX.1.et, ...) as a zettasim trace dict; ``comm_groups``
    names the file of their process groups when they are not a mesh's axes."""
    return gen(prefix, comm_groups=comm_groups)


def export_chakra(input: "os.PathLike[str] | str", out_dir: "os.PathLike[str] | str", comm_groups: Optional[str] = None,
                  force: bool = False) -> int:
    """Writes an input's trace as Chakra execution traces into ``out_dir`` (one .et file per rank), as
    ``zettasim trace export-chakra`` does; returns how many files."""
    return _zettasim.export_chakra(os.fspath(input), os.fspath(out_dir), comm_groups or "", force)
