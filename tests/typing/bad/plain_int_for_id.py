"""A bare int is not an id, even if it happens to be one's number."""

from spvbuild import Recorder

b = Recorder()
b.type_void()
b.name(1, "void")  # E: Argument 1 to "name" of "CoreInstructions" has incompatible type "int"
