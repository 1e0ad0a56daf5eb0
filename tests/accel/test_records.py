"""The reader's C allocation helpers (``spvbuild/accel/_records.c``) against Python.

``new_record(cls, items)`` must give what ``tuple.__new__(cls, items)`` gives and
``new_ids(cls, count)`` what ``list(map(cls, range(count)))`` gives: same types, same
values, same items, objects the garbage collector follows; wrong arguments raise
TypeError or ValueError, never crash.  A build made from another version of the source is
not used.  Under CI the C form must be there (``make test`` builds it), except in the pure
wheel.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from spvbuild import read
from spvbuild.accel import engines, records
from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.instruction import Instruction


@pytest.fixture(scope="module")
def made() -> Iterator[records.Records]:
    """The C form (the tests that take it are marked ``c_records``: a pure build's run
    deselects them).  Under CI it must be built; elsewhere its tests skip with a note."""
    found = records.compiled()
    if found is None:
        message = "the C helpers are not built: run python -m spvbuild.accel.accelerate"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    yield found


class Pair(NamedTuple):
    left: Any
    right: Any


class Plain(tuple[Any, ...]):
    __slots__ = ()


def test_ci_has_the_c_form_unless_the_wheel_is_pure() -> None:
    if os.environ.get("CI") != "true":
        pytest.skip("checked under CI=true, where make test builds the C helpers")
    if os.environ.get("SPVBUILD_PURE_BUILD"):
        assert records.compiled() is None
    else:
        assert records.compiled() is not None
        assert records.compiled().kind == "c"  # type: ignore[union-attr]


@pytest.mark.c_records
@pytest.mark.parametrize(
    ("cls", "items"),
    [
        (Instruction, (61, TypeId(3), Id(9), (Id(4), None), None)),
        (Instruction, (253, None, None, (), None)),
        (Pair, ("a", (1, 2))),
        (Plain, ()),
        (Plain, tuple(range(40))),
        (tuple, (1, 2)),
    ],
)
def test_new_record_is_tuple_new(made: records.Records, cls: Any, items: tuple[Any, ...]) -> None:
    expected = tuple.__new__(cls, items)
    got = made.new_record(cls, items)
    assert type(got) is cls
    assert got == expected and hash(got) == hash(expected)
    assert all(a is b for a, b in zip(got, items, strict=True))
    assert repr(got) == repr(expected)
    if items:
        assert gc.is_tracked(got)  # the collector follows what it holds


@pytest.mark.c_records
def test_new_record_keeps_its_items_alive(made: records.Records) -> None:
    item = [1, 2, 3]
    before = sys.getrefcount(item)
    record = made.new_record(Pair, (item, None))
    assert sys.getrefcount(item) == before + 1
    del record
    gc.collect()
    assert sys.getrefcount(item) == before


@pytest.mark.c_records
def test_new_record_refuses_what_tuple_new_would_not_take_alike(made: records.Records) -> None:
    with pytest.raises(TypeError, match="cls must be a tuple subclass"):
        made.new_record(list, (1,))
    with pytest.raises(TypeError, match="cls must be a tuple subclass"):
        made.new_record("Instruction", (1,))
    with pytest.raises(TypeError, match="items must be a tuple"):
        made.new_record(Pair, [1, 2])
    with pytest.raises(TypeError, match="takes 2 arguments"):
        made.new_record(Pair)  # type: ignore[call-arg]


@pytest.mark.c_records
@pytest.mark.parametrize("count", [0, 1, 2, 256, 257, 5000, (1 << 16) + 3])
def test_new_ids_is_map_over_range(made: records.Records, count: int) -> None:
    got = made.new_ids(Id, count)
    assert type(got) is list and len(got) == count
    assert [i for i, v in enumerate(got) if type(v) is not Id] == []
    assert [i for i, v in enumerate(got) if v != i or hash(v) != i] == []  # short when it fails
    if count > 300:
        assert repr(got[300]) == "%300" and got[300] + 1 == 301 and -got[300] == -300


@pytest.mark.c_records
def test_new_ids_refuses_bad_arguments(made: records.Records) -> None:
    class Custom(int):
        def __new__(cls, value: int) -> Custom:
            return super().__new__(cls, value + 1)

    with pytest.raises(TypeError, match="int subclass without its own __new__"):
        made.new_ids(Custom, 3)
    with pytest.raises(TypeError, match="int subclass"):
        made.new_ids(str, 3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="count must be an int"):
        made.new_ids(Id, 3.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="must not be negative"):
        made.new_ids(Id, -1)
    with pytest.raises(OverflowError):
        made.new_ids(Id, 1 << 70)


@pytest.mark.c_records
def test_a_build_of_another_source_is_not_used(
    made: records.Records, monkeypatch: pytest.MonkeyPatch
) -> None:
    records._module.cache_clear()
    monkeypatch.setattr(records, "source_digest", lambda: "0" * 64)
    try:
        assert records.compiled() is None
    finally:
        monkeypatch.undo()
        records._module.cache_clear()
    assert records.compiled() is not None


@pytest.mark.c_records
def test_each_form_of_the_read_engine_takes_its_own(
    made: records.Records, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = engines.plain("read_engine")  # the source, also where a wheel compiled it
    assert engines.kind(plain) == "python"
    assert records.for_engine(plain) is records.PLAIN
    compiled = engines.compiled_form("read_engine")
    if compiled is not None:
        monkeypatch.delenv(engines.PURE_ENV, raising=False)
        assert records.for_engine(compiled).kind == "c"
        monkeypatch.setenv(engines.PURE_ENV, "1")
        assert records.for_engine(compiled) is records.PLAIN


@pytest.mark.c_records
def test_a_read_gives_the_same_records_with_either_form(
    made: records.Records, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.binary.test_reader import compute_shader, switch_and_phi
    from tests.binary.test_reader_fast_paths import same
    from tests.random_modules import is_clean, random_module  # every opcode over the seeds

    seeds = [seed for seed in range(400) if is_clean(seed)][:40]
    modules = [
        compute_shader().to_words((1, 3)),
        switch_and_phi().to_words((1, 3)),
        *(random_module(seed, count=60) for seed in seeds),
    ]
    for words in modules:
        monkeypatch.setattr(records, "for_engine", lambda engine: records.PLAIN)
        plain = read(words).instructions
        monkeypatch.setattr(records, "for_engine", lambda engine: made)
        fast = read(words).instructions
        assert len(fast) == len(plain) > 20
        for a, b in zip(fast, plain, strict=True):
            assert type(a) is type(b) is Instruction
            difference = same(tuple(a), tuple(b))  # values and their types, floats by bits
            assert difference is None, difference


def test_accelerate_reports_what_stops_the_c_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from spvbuild.accel import accelerate

    built = sorted(p.name for p in Path(records.__file__).parent.glob("_records.*"))
    monkeypatch.setattr(records, "source_digest", lambda: None)
    assert accelerate.build_records() is False
    assert "no C source" in capsys.readouterr().out
    broken = tmp_path / "_records.c"
    broken.write_text("#include <Python.h>\nthis is not C;\n", encoding="utf-8")
    monkeypatch.setattr(records, "source_path", lambda: broken)
    monkeypatch.setattr(records, "source_digest", lambda: "0" * 64)
    assert accelerate.build_records() is False
    assert "the C build failed" in capsys.readouterr().out
    # Nothing beside the package changed: the build in place is the one there was.
    assert sorted(p.name for p in Path(records.__file__).parent.glob("_records.*")) == built
