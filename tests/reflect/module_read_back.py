"""Compute shaders, built with spvbuild, that read a reflected block of any module back on
lavapipe: no GLSL needed (the HLSL shaders of the corpus, the catalogue, the gallery).

:func:`read_back_module` declares the block again in a compute shader: its struct and every
type under it are rebuilt from the source module's own declarations, with the source's layout
decorations copied (Offset, ArrayStride, MatrixStride, RowMajor, ColMajor; never computed
again; a buffer reference, a PhysicalStorageBuffer pointer, becomes a 64-bit unsigned integer:
the same 8 bytes, read back as the address it holds), bound as a uniform buffer where the source block is one, as push constants where it is
the push-constant block, else as a storage buffer.  ``main`` copies every scalar of the block,
a runtime tail with :data:`~tests.reflect.host_shaders.TAIL_COUNT` elements, into one std430
``uint`` array (at :data:`OUT`): a 32-bit scalar through OpBitcast, a narrower unsigned one
through OpUConvert (a float16 bitcast to 16 bits first), a narrower signed one through
OpSConvert (sign-extended), a 64-bit one as two words, low first (OpBitcast to a ``uvec2``).
The order is that of :func:`host_words`, a walk of the block's numpy dtype
(:func:`spvbuild.reflection.block_dtype`): members in order, arrays and vectors element by
element, a column-major matrix column by column, a row-major one row by row (its dtype's
rows are the outer dimension).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from spvbuild.compute import storage_buffer
from spvbuild.enums import (
    AddressingModel,
    Decoration,
    DecorationArrayStride,
    DecorationBinding,
    DecorationDescriptorSet,
    DecorationMatrixStride,
    DecorationOffset,
    ExecutionModel,
    ExecutionModeLocalSize,
    FunctionControl,
    MemoryModel,
    StorageClass,
)
from spvbuild.generated.core import opcodes as op
from spvbuild.ir.module import Module
from spvbuild.reflection import BlockLayout
from spvbuild.reflection.constants import ConstantValues
from spvbuild.reflection.module_facts import ModuleFacts
from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.instruction import Instruction
from tests.reflect.host_shaders import TAIL_COUNT

OUT = (7, 30)
"""The (set, binding) of the output words."""
BLOCK_AT = (0, 0)
"""The (set, binding) the block is declared at again (a descriptor block)."""

_MEMBER_LAYOUT = (DecorationOffset, DecorationMatrixStride)
_MEMBER_MAJORNESS = (Decoration.RowMajor, Decoration.ColMajor)


@dataclass(frozen=True)
class Leaf:
    """One scalar of the block: the access-chain indexes to it from the block variable, its
    type in the read-back module, its numpy kind letter (``f``, ``i``, ``u``) and bits."""

    indexes: tuple[int, ...]
    type: TypeId
    kind: str
    width: int


class _Copier:
    """Copies the types under a block from ``source`` into ``m``, layout decorations and
    all, and walks them down to their scalars."""

    def __init__(self, source: Module, m: Module) -> None:
        self.source = source
        self.m = m
        self.copied: dict[int, TypeId] = {}
        self.decorations: dict[int, list[Any]] = {}
        self.member_decorations: dict[tuple[int, int], list[Any]] = {}
        instructions = source.ordered_instructions()
        self.facts = ModuleFacts(instructions)
        self.constants = ConstantValues(self.facts)
        for inst in instructions:
            if inst.opcode == op.OP_DECORATE:
                self.decorations.setdefault(int(inst.operands[0]), []).append(inst.operands[1])
            elif inst.opcode == op.OP_MEMBER_DECORATE:
                key = (int(inst.operands[0]), int(inst.operands[1]))
                self.member_decorations.setdefault(key, []).append(inst.operands[2])

    def _definition(self, type_id: int) -> Instruction:
        found = self.source.definition(type_id)
        assert found is not None, f"%{type_id}: no declaration in the source module"
        return found

    def _length(self, constant: int) -> int:
        """An array's length: its constant's value, a specialization constant (or an
        operation on some) at its default, as reflection and ``block_dtype`` take it."""
        found = self.constants.value(constant)
        assert isinstance(found, int), f"%{constant}: an array length not worked out"
        return found

    def type(self, type_id: int) -> TypeId:
        """The read-back module's copy of the source's type ``type_id``."""
        if type_id in self.copied:
            return self.copied[type_id]
        found = self._definition(type_id)
        m = self.m
        code, operands = found.opcode, found.operands
        made: TypeId
        if code == op.OP_TYPE_INT:
            made = m.type_int(int(operands[0]), int(operands[1]))
        elif code == op.OP_TYPE_FLOAT:
            made = m.type_float(int(operands[0]))
        elif code == op.OP_TYPE_VECTOR:
            made = m.type_vector(self.type(int(operands[0])), int(operands[1]))
        elif code == op.OP_TYPE_MATRIX:
            made = m.type_matrix(self.type(int(operands[0])), int(operands[1]))
        elif code == op.OP_TYPE_ARRAY:
            element = self.type(int(operands[0]))
            length = m.constant(m.type_int(32, 0), self._length(int(operands[1])))
            made = m.type_array(element, length, result_id=m.new_type_id())
        elif code == op.OP_TYPE_RUNTIME_ARRAY:
            made = m.type_runtime_array(self.type(int(operands[0])), result_id=m.new_type_id())
        elif _is_buffer_reference(found):
            made = m.type_int(64, 0)  # the same 8 bytes (block_dtype's too: a uint64)
        elif code == op.OP_TYPE_STRUCT:
            members = [self.type(int(t)) for t in operands[0]]
            made = m.type_struct(members, result_id=m.new_type_id())
            if type_id in self.facts.names:
                m.name(made, self.facts.names[type_id])
            for index in range(len(members)):
                if (type_id, index) in self.facts.member_names:
                    m.member_name(made, index, self.facts.member_names[(type_id, index)])
                for decoration in self.member_decorations.get((type_id, index), []):
                    if isinstance(decoration, _MEMBER_LAYOUT) or decoration in _MEMBER_MAJORNESS:
                        m.member_decorate(made, index, decoration)
        else:
            raise AssertionError(f"%{type_id}: opcode {code} in a block is not read back")
        if code in (op.OP_TYPE_ARRAY, op.OP_TYPE_RUNTIME_ARRAY):
            for decoration in self.decorations.get(type_id, []):
                if isinstance(decoration, DecorationArrayStride):
                    m.decorate(made, decoration)
        self.copied[type_id] = made
        return made

    def leaves(
        self, type_id: int, indexes: tuple[int, ...], row_major: bool = False
    ) -> Iterator[Leaf]:
        """Every scalar under the source's type ``type_id`` (reached by ``indexes``), in
        the order of the numpy dtype's walk."""
        found = self._definition(type_id)
        code, operands = found.opcode, found.operands
        if _is_buffer_reference(found):
            yield Leaf(indexes, self.type(type_id), "u", 64)
        elif code in (op.OP_TYPE_INT, op.OP_TYPE_FLOAT):
            width = int(operands[0])
            kind = "f" if code == op.OP_TYPE_FLOAT else ("i" if operands[1] else "u")
            yield Leaf(indexes, self.type(type_id), kind, width)
        elif code == op.OP_TYPE_STRUCT:
            for index, member in enumerate(operands[0]):
                majorness = self.member_decorations.get((type_id, index), [])
                yield from self.leaves(
                    int(member), (*indexes, index), Decoration.RowMajor in majorness
                )
        elif code == op.OP_TYPE_MATRIX and row_major:
            column = self._definition(int(operands[0]))
            for row in range(int(column.operands[1])):
                for at in range(int(operands[1])):
                    yield from self.leaves(int(column.operands[0]), (*indexes, at, row))
        elif code in (op.OP_TYPE_VECTOR, op.OP_TYPE_MATRIX, op.OP_TYPE_ARRAY):
            count = self._length(int(operands[1])) if code == op.OP_TYPE_ARRAY else int(operands[1])
            for at in range(count):
                yield from self.leaves(int(operands[0]), (*indexes, at), row_major)
        elif code == op.OP_TYPE_RUNTIME_ARRAY:
            for at in range(TAIL_COUNT):
                yield from self.leaves(int(operands[0]), (*indexes, at), row_major)
        else:
            raise AssertionError(f"%{type_id}: opcode {code} in a block is not read back")


def _is_buffer_reference(found: Instruction) -> bool:
    return (
        found.opcode == op.OP_TYPE_POINTER
        and found.operands[0] == StorageClass.PhysicalStorageBuffer
    )


def _words(m: Module, leaf: Leaf, loaded: Id) -> list[Id]:
    """The 32-bit words of one loaded scalar."""
    u32 = m.type_int(32, 0)
    if leaf.width == 64:
        pair = m.bitcast(m.type_vector(u32, 2), loaded)
        return [m.composite_extract(u32, pair, [0]), m.composite_extract(u32, pair, [1])]
    if leaf.width == 32:
        return [m.bitcast(u32, loaded)]
    if leaf.kind == "i":
        return [m.bitcast(u32, m.s_convert(m.type_int(32, 1), loaded))]
    if leaf.kind == "f":
        loaded = m.bitcast(m.type_int(leaf.width, 0), loaded)
    return [m.u_convert(u32, loaded)]


def read_back_module(
    binary: bytes, block: BlockLayout, storage: str
) -> tuple[Module, list[tuple[int, ...]]]:
    """A compute shader reading back ``block`` of the module ``binary`` (``storage``:
    ``uniform_buffer``, ``storage_buffer`` or ``push_constant``), and for each word it
    writes the access-chain indexes of the scalar it comes from."""
    source = Module.from_binary(binary)
    m = Module(target_env="vulkan1.2")
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    copier = _Copier(source, m)
    struct = copier.type(block.type_id)
    m.decorate(struct, Decoration.Block)
    storage_class = {
        "uniform_buffer": StorageClass.Uniform,
        "storage_buffer": StorageClass.StorageBuffer,
        "push_constant": StorageClass.PushConstant,
    }[storage]
    variable = m.variable(m.type_pointer(storage_class, struct), storage_class)
    if storage != "push_constant":
        m.decorate(variable, DecorationDescriptorSet(BLOCK_AT[0]))
        m.decorate(variable, DecorationBinding(BLOCK_AT[1]))
    out = storage_buffer(m, m.type_int(32, 0), OUT[1], OUT[0], "read_back_words")
    void = m.type_void()
    main = m.function(void, FunctionControl.None_, m.type_function(void))
    m.label()
    u32 = m.type_int(32, 0)
    written: list[tuple[int, ...]] = []
    for leaf in copier.leaves(block.type_id, ()):
        chain = [m.constant(u32, index) for index in leaf.indexes]
        pointer = m.access_chain(m.type_pointer(storage_class, leaf.type), variable, chain)
        for word in _words(m, leaf, m.load(leaf.type, pointer)):
            m.store(out.at(m, m.constant(u32, len(written))), word)
            written.append(leaf.indexes)
    m.return_()
    m.function_end()
    m.entry_point(ExecutionModel.GLCompute, main, "main")
    m.execution_mode(main, ExecutionModeLocalSize(1, 1, 1))
    return m, written


def host_words(record: Any) -> list[int]:
    """The words the read-back shader writes for ``record`` (one record of the block's
    dtype): its scalars in a walk of the dtype, each as :func:`read_back_module` writes it."""
    words: list[int] = []
    _host_walk(record, words)
    return words


def _host_walk(item: Any, words: list[int]) -> None:
    dtype = item.dtype
    if np.ndim(item) > 0:  # an array: element by element (a record's fields after)
        for inner in item:
            _host_walk(inner, words)
    elif dtype.names is not None:
        for name in dtype.names:
            _host_walk(item[name], words)
    else:
        value = np.asarray(item)
        width = dtype.itemsize * 8
        if dtype.kind == "f":
            bits = int(value.view(f"<u{dtype.itemsize}"))
        else:
            bits = int(value) & ((1 << max(width, 32)) - 1)
        words.append(bits & 0xFFFFFFFF)
        if width == 64:
            words.append(bits >> 32)
