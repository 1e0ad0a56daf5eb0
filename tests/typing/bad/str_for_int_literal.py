"""A literal integer operand given as a string."""

from spvbuild import Recorder

b = Recorder()
b.type_int("32", 1)  # E: Argument 1 to "type_int" of "CoreInstructions" has incompatible type "str"
