"""``spvbuild.disassembler``: the disassembler's public names, where they have always been.

The disassembler lives in the ``text`` room (:mod:`spvbuild.text.disassembler`); this
module gives its public face: :func:`disassemble` (words → text, like spirv-dis) and
:func:`write_disassembly` (the same, streamed).
"""

from spvbuild.text import disassembler as _room
from spvbuild.text.disassembler import *  # noqa: F403  (the room's public names: its __all__)

__all__ = _room.__all__
