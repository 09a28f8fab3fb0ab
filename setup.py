"""Installing the package compiles its kernels, so that the first answer after an install compiles nothing.

setuptools reads the project from pyproject.toml; this file only adds the step
that builds the kernels' shared libraries (c4engine.kernels.build.build_shipped)
with the build environment's numba, numpy and llvmlite, and the system's C
compiler: into the package (c4engine/kernels/compiled) for a wheel or
``pip install .``, into the kernels' cache folder for ``pip install -e .``.
Two processes build side by side (2 cores, a third of a gigabyte each): the
solver's library for every size up to 64 bits and the engine's in one, the
solver's past 64 bits in the other.  For a wheel (``pip install .``) the build
backend (build_backend.py) has started them already, while pip fetched the
package's dependencies; this step takes what they made.  The libraries of the
boards with their sizes compiled in (c4engine.kernels.SPECIALISED) are not
built here: the one for every size answers there at once, and a board's first
use builds its own in the background (c4engine.kernels.library.solver_kernel);
``pip install -e .`` builds them too.  Should a build fail -- no C compiler,
say -- the install goes on and says so in one line; the package then compiles
on first use, as it did before this step.
``C4ENGINE_BUILD_KERNELS=0`` skips the step.  ``pip install -v .`` shows its
lines (pip hides a build's output otherwise).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

sys.path.insert(0, str(Path(__file__).resolve().parent))  # build_backend, beside this file
from build_backend import BATCHES, EDITABLE_ALSO, build_command, take_early


def _say(line: str) -> None:
    print(f"c4engine: {line}", file=sys.stderr, flush=True)


class BuildPyWithKernels(build_py):
    """``build_py``, then the kernels' shared libraries."""

    def run(self) -> None:
        super().run()
        if os.environ.get("C4ENGINE_BUILD_KERNELS", "1") == "0":
            _say("C4ENGINE_BUILD_KERNELS=0: kernels not built (they compile on first use)")
            return
        editable = bool(getattr(self, "editable_mode", False))
        began = time.perf_counter()
        if editable:  # it runs from the source tree: its libraries go to the kernels' cache folder
            batches, into = [batch + also for batch, also in zip(BATCHES, EDITABLE_ALSO, strict=True)], []
        else:
            compiled = Path(self.build_lib) / "c4engine" / "kernels" / "compiled"
            batches, into = take_early(compiled, _say), ["--into", str(compiled)]
            if batches != BATCHES:
                _say("took the kernels compiled while pip fetched the dependencies")
        if batches:
            self._build_kernels(batches, into, editable)
        _say(f"kernels compiled, {time.perf_counter() - began:.0f} s in this step")

    @staticmethod
    def _build_kernels(batches: list[list[str]], into: list[str], editable: bool) -> None:
        """Build ``batches``, a process each, side by side."""
        with tempfile.TemporaryDirectory() as scratch:
            environment = dict(os.environ)  # pip's isolated build environment: its numba
            if not editable:  # numba's own cache is of no use to the installed package
                environment["NUMBA_CACHE_DIR"] = scratch
            names = ", ".join(name for batch in batches for name in batch)
            _say(f"compiling the kernels ({names}), about half a minute on 2 cores")
            builds = [
                subprocess.Popen(
                    build_command(names, into),
                    env=environment,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    text=True,
                )
                for names in batches
            ]
            failed = []
            for batch, build in zip(batches, builds, strict=True):
                output, _ = build.communicate()
                for line in output.splitlines()[-3:]:  # what was built; a failure's last words
                    _say(f"  {line}")
                if build.returncode != 0:
                    failed.append(batch)
        if failed:
            _say(f"could not build {failed}: the package compiles these kernels on first use instead")


class KernelDistribution(Distribution):
    """A distribution with machine code in it: its wheel is tagged for this platform."""

    def has_ext_modules(self) -> bool:
        return True


setup(cmdclass={"build_py": BuildPyWithKernels}, distclass=KernelDistribution)
