"""DecorationBuiltIn takes a BuiltIn, not another Decoration."""

from spvbuild import Decoration, DecorationBuiltIn

DecorationBuiltIn(Decoration.Location)  # E: incompatible type "Decoration"; expected "BuiltIn"
