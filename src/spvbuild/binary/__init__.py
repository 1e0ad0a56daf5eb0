"""spvbuild.binary."""
