"""The solver's C kernel, compiled into platform wheels (everything else is in pyproject.toml).

``kernels.c`` becomes plain shared libraries beside ``kernels.py``, loaded with ctypes (no Python API:
the wheel is tagged ``py3-none-<platform>``): ``_kernels_base`` with the baseline instructions, and on
x86-64 also ``_kernels_avx``; ``kernels.py`` picks one when it loads, by what the CPU has. A source or
editable install on a machine without a compiler skips them (the kernel is then compiled at first use, or
the command says what to install); set ``GONUTS_SOLVE_REQUIRE_KERNEL=1`` to make a failed compile fail the
build, as the wheel builds do.
"""
import importlib.util
import os
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.bdist_wheel import bdist_wheel
from setuptools.command.build_ext import build_ext
from setuptools.errors import CompileError

# The check of what a compiler wrote, shared with the first-use compile; loaded by its path (no numpy here).
_spec = importlib.util.spec_from_file_location("libformat", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                                         "solver", "engine", "libformat.py"))
libformat = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(libformat)

GCC_FLAGS = ["-O2", "-ffp-contract=off", "-fno-fast-math", "-std=c99"]
MSVC_FLAGS = ["/O2", "/fp:precise", "/std:c11"]


def x86_64_target() -> bool:
    """Whether the wheel is for x86-64 (cibuildwheel names the target in the platform, also when crossing)."""
    plat = sysconfig.get_platform().lower()
    return plat.endswith(("x86_64", "amd64")) or plat == "win-amd64"


class BuildKernels(build_ext):
    """Builds each kernel as a plain shared library: the same C flags as the first-use compile (no
    contraction, no fast-math), no Python init symbol, and a plain name (``_kernels_avx.so``, ``.dll``)."""

    def get_export_symbols(self, ext):
        return []                       # the C functions export themselves (EXPORT in kernels.c)

    def get_ext_filename(self, fullname):
        return os.path.join(*fullname.split(".")) + (".dll" if sys.platform == "win32" else ".so")

    def build_extension(self, ext):
        avx = ext.name.endswith("_avx")
        if self.compiler.compiler_type == "msvc":
            ext.extra_compile_args = MSVC_FLAGS + (["/arch:AVX"] if avx else [])
        else:
            ext.extra_compile_args = GCC_FLAGS + (["-mavx"] if avx else [])
            ext.libraries = ["m"] if sys.platform != "win32" else []
        super().build_extension(ext)
        path = self.get_ext_fullpath(ext.name)
        wrong = libformat.not_a_library(Path(path))
        if wrong is not None:          # never a wheel with a kernel that is no library (optional: left out)
            if os.path.exists(path):
                os.remove(path)
            raise CompileError(f"the compiler exited 0 but {wrong} for {ext.name}")


class PlatformWheel(bdist_wheel):
    """The wheel holds a compiled library but uses no Python ABI: ``py3-none-<platform>`` (``py3-none-any``
    where no kernel could be compiled)."""

    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self):
        built = [path for path in self.get_finalized_command("build_ext").get_outputs() if os.path.exists(path)]
        if not built:                   # no compiler where it was built: pure, the kernel compiled at first use
            return "py3", "none", "any"
        _, _, plat = super().get_tag()
        return "py3", "none", plat


required = os.environ.get("GONUTS_SOLVE_REQUIRE_KERNEL", "") == "1"
variants = ["base"] + (["avx"] if x86_64_target() else [])
kernels = [Extension(f"solver.engine._kernels_{v}", ["solver/engine/kernels.c"], optional=not required)
           for v in variants]

setup(ext_modules=kernels, cmdclass={"build_ext": BuildKernels, "bdist_wheel": PlatformWheel})
