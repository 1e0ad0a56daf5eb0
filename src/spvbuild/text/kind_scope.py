"""The operand kinds of one grammar unit as a text tool sees them.

The assembler's and the disassembler's namespaces (:mod:`spvbuild.text.asm_grammar`,
:mod:`spvbuild.text.dis_grammar`) subclass :class:`KindScope`: core's kinds, or an
extended set's own kinds over core's, each enum kind's view made once.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from spvbuild.generated.core.operand_classes import BIT_ENUM, VALUE_ENUM
from spvbuild.spirv.tables import KindInfo

View = TypeVar("View")
_ENUM_CLASSES = (VALUE_ENUM, BIT_ENUM)


class KindScope(Generic[View]):
    """The operand kinds of one grammar unit as a tool sees them: core's, or an extended
    set's own kinds over core's (``base``), with the tool's view of each enum kind made on
    first use and shared with ``base`` for the kinds that are core's.

    The assembler's and the disassembler's namespaces are subclasses: each says how its
    view of an enum kind is made (:meth:`new_view`, then :meth:`fill_view` once the view
    is registered, so that parameters may refer back to their own kind).
    """

    def __init__(self, kinds: dict[str, KindInfo], base: KindScope[View] | None = None) -> None:
        """The kinds of one unit (an extended set's own, or core's) over ``base``."""
        self.own = kinds
        self.base = base
        self._views: dict[str, View] = {}

    def kind_info(self, name: str) -> KindInfo | None:
        """The KindInfo of ``name`` here, else in ``base``; None if neither has it."""
        info = self.own.get(name)
        if info is None and self.base is not None:
            return self.base.kind_info(name)
        return info

    def enum_view(self, name: str) -> View | None:
        """The view of the enum kind ``name`` (made once); None if it is not an enum."""
        found = self._views.get(name)
        if found is not None:
            return found
        info = self.own.get(name)
        if self.base is not None and (info is None or self.base.own.get(name) is info):
            return self.base.enum_view(name)
        if info is None or info.operand_class not in _ENUM_CLASSES:
            return None
        found = self._views[name] = self.new_view(info)
        self.fill_view(found, info)
        return found

    def new_view(self, info: KindInfo) -> View:
        """A new view of the enum kind ``info`` (each subclass makes its own)."""
        raise NotImplementedError

    def fill_view(self, view: View, info: KindInfo) -> None:
        """Complete ``view`` once it is registered (default: nothing to do)."""
