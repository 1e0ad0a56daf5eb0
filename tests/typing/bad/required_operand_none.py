"""Explicit-lod sampling requires its image operands (Lod or Grad)."""

from spvbuild import Dim, ImageFormat, Recorder

b = Recorder()
f32 = b.type_float(32)
vec4 = b.type_vector(f32, 4)
image = b.type_sampled_image(b.type_image(f32, Dim.Dim2D, 0, 0, 0, 1, ImageFormat.Unknown))
coord = b.undef(b.type_vector(f32, 2))
sampled = b.undef(image)
b.image_sample_explicit_lod(vec4, sampled, coord, None)  # E: has incompatible type "None"
