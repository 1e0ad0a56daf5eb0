"""``spvbuild.reader``: the reader's public names, where they have always been.

The reader lives in the ``binary`` room (:mod:`spvbuild.binary.reader`); this module gives
its public face: :func:`read` (a binary → typed instructions), :class:`ReadModule`,
:func:`words_of` and :func:`engine_kind` (which form of the read engine runs).
"""

from spvbuild.binary import reader as _room
from spvbuild.binary.reader import *  # noqa: F403  (the room's public names: its __all__)

__all__ = _room.__all__
