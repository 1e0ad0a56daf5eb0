"""The ``Op`` enum answers a lookup by an opcode's SPIR-V spelling with its Python name."""

from __future__ import annotations

import pytest

from spvbuild import MemberNameError, SpvbuildError
from spvbuild.enums import Op


def test_op_prefix_names_the_member() -> None:
    with pytest.raises(MemberNameError) as caught:
        Op.OpDecorate  # noqa: B018
    message = str(caught.value)
    assert "'OpDecorate'" in message
    assert "OpDecorate is Op.Decorate" in message
    assert message.endswith(f"(at test_opcode_enum.py:{caught.tb.tb_lineno})")
    assert isinstance(caught.value, AttributeError)
    assert isinstance(caught.value, SpvbuildError)


def test_op_prefix_is_still_missing() -> None:
    assert not hasattr(Op, "OpDecorate")
    assert getattr(Op, "OpIAdd", None) is None
    assert Op.Decorate == 71 and Op.IAdd == 128


def test_other_missing_names_are_plain_attribute_errors() -> None:
    for name in ("Decorat", "OpDecorat", "OpNoSuchThing", "__wrapped__"):
        with pytest.raises(AttributeError) as caught:
            getattr(Op, name)
        assert type(caught.value) is AttributeError
        assert str(caught.value) == name
