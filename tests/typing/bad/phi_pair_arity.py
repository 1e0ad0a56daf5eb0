"""OpPhi operands are (value, parent) pairs."""

from spvbuild import Recorder

b = Recorder()
i32 = b.type_int(32, 1)
zero = b.constant(i32, 0)
entry = b.label()
b.phi(i32, [(zero, entry, zero)])  # E: type "tuple[Id, Id, Id]"; expected "tuple[Id, Id]"
