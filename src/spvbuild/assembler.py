"""``spvbuild.assembler``: the assembler's public names, where they have always been.

The assembler lives in the ``text`` room (:mod:`spvbuild.text.assembler`, the work in
``text/asm_*``); this module gives its public face: :func:`assemble` (text → words, like
spirv-as), its variants, the target environments and :data:`ENGINE` (``"mypyc"`` when the
compiled engine runs, ``"python"`` otherwise).
"""

from spvbuild.text import assembler as _room
from spvbuild.text.assembler import *  # noqa: F403  (the room's public names: its __all__)

__all__ = _room.__all__
