"""OpSwitch pairs are (literal, label), not (label, literal)."""

from spvbuild import Recorder

b = Recorder()
i32 = b.type_int(32, 1)
selector = b.constant(i32, 0)
default, case = b.label(), b.label()
b.switch(selector, default, [(case, 0)])  # E: type "tuple[Id, int]"; expected "tuple[int, Id]"
