"""Installing the package compiles its kernels, so that the first answer after an install compiles nothing.

setuptools reads the project from pyproject.toml; this file only adds the step
that builds the kernels' shared libraries (c4engine.kernels.build.build_shipped)
with the build environment's numba, numpy and llvmlite, and the system's C
compiler: into the package (c4engine/kernels/compiled) for a wheel or
``pip install .``, into the kernels' cache folder for ``pip install -e .``.
Two processes build side by side (2 cores, a third of a gigabyte each): the solver's
library for every size up to 64 bits and the engine's in one, the solver's past
64 bits in the other.  The standard board's own library is not built here: the
one for every size answers there at once, and its first use builds it in the
background (c4engine.kernels.library.solver_kernel); ``pip install -e .`` builds
it too.  Should a build
fail -- no C compiler, say -- the install goes on and says so in one line; the
package then compiles on first use, as it did before this step.
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

SOURCE = Path(__file__).resolve().parent / "src"
BATCHES = [["any", "engine"], ["wide"]]
"""The libraries each build process makes (kernels.build.SHIPPED_NAMES, by kernels.build.build_named's
names: the solver's for every size up to 64 bits and the engine's; the solver's past 64 bits), about
as long as each other."""

EDITABLE_ALSO = [["7x6x4", "8x8x4", "7x9x4"], ["10x6x4", "9x7x4", "9x7x5"]]
"""What ``pip install -e .`` builds besides, batch by batch (kernels.build.ALL_NAMES): a working
copy's tests and benchmarks (scripts/test.sh, benchmarks/compare_reference.py) measure each
specialised geometry's own library from the first run, not the one for every size while it builds
in the background."""


_RUN_BUILD = (
    "import runpy, sys; sys.path.insert(0, sys.argv.pop(1)); "
    "runpy.run_module('c4engine.kernels.build', run_name='__main__', alter_sys=True)"
)
"""``python -m c4engine.kernels.build`` with the package's sources put first on the path by hand:
pip's isolated build environment drops PYTHONPATH's entries from a child's ``sys.path``."""


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
        # an editable install runs from the source tree: its libraries go to the kernels' cache folder
        into = [] if editable else ["--into", str(Path(self.build_lib) / "c4engine" / "kernels" / "compiled")]
        batches = BATCHES
        if editable:
            batches = [batch + also for batch, also in zip(BATCHES, EDITABLE_ALSO, strict=True)]
        began = time.perf_counter()
        with tempfile.TemporaryDirectory() as scratch:
            environment = dict(os.environ)  # pip's isolated build environment: its numba
            if not editable:  # numba's own cache is of no use to the installed package
                environment["NUMBA_CACHE_DIR"] = scratch
            names = ", ".join(name for batch in batches for name in batch)
            _say(f"compiling the kernels ({names}), about half a minute on 2 cores")
            builds = [
                subprocess.Popen(
                    [sys.executable, "-c", _RUN_BUILD, str(SOURCE), *names, *into],
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
        _say(f"kernels compiled in {time.perf_counter() - began:.0f} s")


class KernelDistribution(Distribution):
    """A distribution with machine code in it: its wheel is tagged for this platform."""

    def has_ext_modules(self) -> bool:
        return True


setup(cmdclass={"build_py": BuildPyWithKernels}, distclass=KernelDistribution)
