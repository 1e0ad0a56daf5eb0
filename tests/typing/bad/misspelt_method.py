"""The method for OpTypeVector is type_vector."""

from spvbuild import Builder

b = Builder()
b.type_vec(b.type_float(32), 4)  # E: "Builder" has no attribute "type_vec"
