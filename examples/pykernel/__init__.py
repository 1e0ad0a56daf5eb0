"""pykernel: a small Python-subset compiler to Vulkan compute shaders, built on spvbuild.

::

    from examples.pykernel import Array, compile_kernel, run

    def saxpy(i: int, a: float, x: Array[float], y: Array[float]) -> None:
        y[i] = a * x[i] + y[i]

    kernel = compile_kernel(saxpy)              # parse → type-check → SPIR-V words
    out = run(kernel, 3, a=2.0, x=[1.0, 2.0, 3.0], y=[1.0, 1.0, 1.0])
    out["y"]                                    # [3.0, 5.0, 7.0]

See ``README.md`` next to this file for the language.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from spvbuild.passes import Program, main_recipe
from spvbuild.passes import run as run_passes

from . import checker, codegen, frontend
from .codegen import Binding, CompiledKernel, PushConstant
from .errors import CompileError
from .lang import Array, kernel, uint
from .runtime import run, run_on, run_webgpu, shared_device
from .typesys import ArrayType, Scalar

__all__ = [
    "Array",
    "ArrayType",
    "Binding",
    "CompileError",
    "CompiledKernel",
    "PushConstant",
    "Scalar",
    "compile_kernel",
    "kernel",
    "run",
    "run_on",
    "run_webgpu",
    "shared_device",
    "uint",
]


def compile_kernel(
    source_or_function: str | Callable[..., Any],
    name: str | None = None,
    *,
    filename: str = "<kernel>",
    local_size: int = 64,
    target_env: str | None = None,
    entry_point: str | None = None,
    optimize: bool = True,
) -> CompiledKernel:
    """Compile a kernel to SPIR-V (1.3, Vulkan 1.1).

    ``source_or_function`` is a function (compiled from the file it is defined in, so
    helpers next to it are found) or source text (reported as ``filename``); ``name``
    picks the kernel (default: the function's name, or the only function of the text).
    ``target_env`` builds for an environment of spvbuild's target profiles
    (``"webgpu"``: what wgpu's naga reads, run by :func:`run_webgpu`; ``"vulkan1.0"``,
    ...): its SPIR-V version, and a ``BuildError`` where the kernel needs what it does
    not allow.  ``entry_point`` names the entry point (default: the kernel's name;
    Kompute asks for ``"main"``).  ``optimize``: the words are those of the module the
    code generator built after spvbuild's main recipe
    (:func:`spvbuild.passes.main_recipe`); False keeps them as generated (every local a
    Function variable, helpers called, OpLine and OpName).
    Raises :class:`CompileError` (``file:line:col: message``) outside the language.
    """
    program = frontend.load(source_or_function, name, filename)
    functions = checker.check_program(program)
    compiled = codegen.generate(
        program, functions, local_size, target_env=target_env, entry_point=entry_point
    )
    if not optimize:
        return compiled
    words = run_passes(Program.from_words(compiled.words), main_recipe()).to_words()
    return dataclasses.replace(compiled, words=words)
