"""spvbuild.text."""
