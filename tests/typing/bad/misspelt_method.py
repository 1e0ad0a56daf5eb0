"""The method for OpTypeVector is type_vector."""

from spvbuild import Recorder

b = Recorder()
b.type_vec(b.type_float(32), 4)  # E: "Recorder" has no attribute "type_vec"
