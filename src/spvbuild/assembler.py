"""``spvbuild.assembler``: the assembler's public names, where they have always been.

The assembler lives in the ``text`` room (:mod:`spvbuild.text.assembler`, the work in
``text/asm_*``); this module gives its public face: :func:`assemble` (text → words, like
spirv-as), its variants, the target environments and :data:`ENGINE` (``"mypyc"`` when the
compiled engine runs, ``"python"`` otherwise).
"""

from spvbuild.text.assembler import (
    DEFAULT_TARGET_ENV,
    ENGINE,
    TARGET_ENVS,
    assemble,
    assemble_binary,
    assemble_file,
    assemble_words,
    target_env_of_header,
)

__all__ = [
    "DEFAULT_TARGET_ENV",
    "ENGINE",
    "TARGET_ENVS",
    "assemble",
    "assemble_binary",
    "assemble_file",
    "assemble_words",
    "target_env_of_header",
]
