"""spvbuild.accel."""
