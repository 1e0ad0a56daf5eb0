"""The instruction builder: every typed core method plus the extended sets.

:class:`Builder` records instructions in call order and numbers ids from 1.  It is the
spine's minimal builder; the module builder (logical layout, deduplication, capability
inference, serialization) is built on top of it.
"""

from __future__ import annotations

from spvbuild.generated.core.builder import CoreInstructions
from spvbuild.generated.extinst import ExtInstSets


class Builder(CoreInstructions, ExtInstSets):
    """Chain typed instruction calls; ``builder.instructions`` holds the result.

    >>> b = Builder()
    >>> void = b.type_void()
    >>> b.name(void, "void").instructions[-1].opcode
    5
    """
