"""spvbuild's code generator: grammars/*.yaml → model → Jinja2 templates → generated/."""
