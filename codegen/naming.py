"""How grammar names become Python names.  One rule each, documented here and in the docs.

* Methods: drop a leading ``Op``, then split CamelCase into snake_case — a break before
  an upper-case letter that follows a lower-case letter or digit, and before the last
  upper-case letter of a run followed by a lower-case one.  ``OpIAdd`` → ``i_add``,
  ``OpGroupNonUniformIAdd`` → ``group_non_uniform_i_add``, ``OpSDotKHR`` → ``s_dot_khr``,
  GLSL ``FindILsb`` → ``find_i_lsb``, OpenCL ``s_abs`` stays ``s_abs``.
* Parameters: the operand's grammar name in snake_case; a variadic pseudo-name such as
  ``Member 0 type, member 1 type, ...`` becomes the plural ``member_types``; an unnamed
  operand is named after its kind (``IdScope`` → ``scope``, ``MemoryAccess`` →
  ``memory_access``).  Repeated names get ``_2``, ``_3``.  A parameter named after a
  built-in that the generated methods call (:data:`METHOD_BUILTINS`) gets a trailing
  underscore, as a keyword does; the methods' own locals all start with ``_``, which no
  parameter does (snake_case strips it), so an operand named ``put`` or ``bound`` cannot
  hide them.
* Opcode constants (``spvbuild.generated.core.opcodes``): ``OP_`` and the method name's
  words in upper case, without keyword escaping.  ``OpExtInstImport`` →
  ``OP_EXT_INST_IMPORT``, ``OpReturn`` → ``OP_RETURN``, the alias ``OpSDotKHR`` →
  ``OP_S_DOT_KHR``.
* Enum members keep the grammar's spelling; one starting with a digit gets its kind as a
  prefix (``Dim.Dim1D``).
* Anything that is a Python keyword (or ``self``) gets a trailing underscore:
  ``OpReturn`` → ``return_``, ``MemoryAccess.None_``.
"""

from __future__ import annotations

import keyword
import re

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_NON_WORD = re.compile(r"[^0-9a-zA-Z]+")
_RESERVED = set(keyword.kwlist) | set(keyword.softkwlist) | {"self", "cls"}

_KIND_PARAM_NAMES = {
    "IdResultType": "result_type",
    "IdRef": "operand",
    "IdScope": "scope",
    "IdMemorySemantics": "semantics",
    "LiteralInteger": "value",
    "LiteralString": "text",
    "LiteralFloat": "value",
    "LiteralContextDependentNumber": "value",
    "LiteralExtInstInteger": "instruction",
    "LiteralSpecConstantOpInteger": "opcode",
}


METHOD_BUILTINS = frozenset({"all", "float", "int", "isinstance", "len", "str", "tuple"})
"""The built-ins the generated builder methods read (codegen/views.py and
codegen/templates/method.py.j2): a parameter of one of these names would hide it."""


def escape(name: str) -> str:
    """Add a trailing underscore to Python keywords (and ``self``)."""
    return name + "_" if name in _RESERVED or keyword.iskeyword(name) else name


def snake_case(name: str) -> str:
    """CamelCase → snake_case by the rule in the module docstring (no keyword escaping)."""
    words = _CAMEL.sub("_", name)
    return _NON_WORD.sub("_", words).strip("_").lower()


def method_name(opname: str) -> str:
    """Builder method name of an instruction (core ``OpX`` or an ext-inst name)."""
    if opname.startswith("Op") and len(opname) > 2 and opname[2].isupper():
        opname = opname[2:]
    return escape(snake_case(opname))


def opcode_constant_name(opname: str) -> str:
    """Module constant naming a core instruction's opcode (``OpIAdd`` → ``OP_I_ADD``)."""
    return "OP_" + snake_case(opname.removeprefix("Op")).upper()


def enum_member_name(kind: str, enumerant: str) -> str:
    """Python enum member name for an enumerant."""
    if enumerant[:1].isdigit():
        enumerant = kind + enumerant
    return escape(enumerant)


_XREF = re.compile(r"<<[^,>]*,([^>]*)>>")  # AsciiDoc cross reference: <<Target,text>>


def _clean_words(text: str) -> str:
    text = _XREF.sub(r"\1", text)
    text = text.replace("<id>", " ").replace("'", " ").replace('"', " ")
    return snake_case(text)


def _plural(word: str) -> str:
    if word.endswith("s"):
        return word
    if word.endswith(("x", "ch", "sh")):
        return word + "es"
    return word + "s"


def parameter_name(name: str, kind: str, quantifier: str) -> str:
    """Python parameter name of an operand (before de-duplication)."""
    if kind == "IdResultType":
        return "result_type"
    if name:
        parts = [p.strip() for p in name.replace("\n", " ").split(",")]
        parts = [p for p in parts if p and p.strip(".+ ") != ""]
        if len(parts) > 1 or quantifier == "*":
            words: list[str] = []
            for part in parts:
                cleaned = "_".join(
                    w for w in _clean_words(part).split("_") if w and not w.isdigit()
                )
                if cleaned and cleaned not in words:
                    words.append(cleaned)
            base = "_".join(words) or _clean_words(parts[0] if parts else kind)
            if quantifier == "*":
                base = _plural(base)
        else:
            base = _clean_words(name)
    else:
        base = _KIND_PARAM_NAMES.get(kind) or snake_case(kind)
        if quantifier == "*":
            base = _plural(base)
    if not base:
        base = snake_case(kind)
    if base[0].isdigit():
        base = "p_" + base
    return escape(base) if base not in METHOD_BUILTINS else base + "_"


def unique_names(names: list[str]) -> list[str]:
    """Suffix repeated names with ``_2``, ``_3``, ... keeping the first as is."""
    seen: dict[str, int] = {}
    result = []
    for name in names:
        count = seen.get(name, 0) + 1
        seen[name] = count
        result.append(name if count == 1 else f"{name}_{count}")
    return result
