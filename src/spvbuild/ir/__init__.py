"""spvbuild.ir."""
