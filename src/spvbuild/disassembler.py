"""``spvbuild.disassembler``: the disassembler's public names, where they have always been.

The disassembler lives in the ``text`` room (:mod:`spvbuild.text.disassembler`); this
module gives its public face: :func:`disassemble` (words → text, like spirv-dis) and
:func:`write_disassembly` (the same, streamed).
"""

from spvbuild.text.disassembler import CHUNK_WORDS, disassemble, header_lines, write_disassembly

__all__ = ["CHUNK_WORDS", "disassemble", "header_lines", "write_disassembly"]
