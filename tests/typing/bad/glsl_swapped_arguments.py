"""Extended-set methods take the result type first: glsl.sqrt(result_type, x), not a value."""

from spvbuild import Recorder

b = Recorder()
f32 = b.type_float(32)
x = b.constant(f32, 2.0)
b.glsl.sqrt(x, x)  # E: Argument 1 to "sqrt" of "GlslInstructions" has incompatible type "Id"
