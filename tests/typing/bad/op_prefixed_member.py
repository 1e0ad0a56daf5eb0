"""The Op enum drops the Op prefix: OpDecorate is Op.Decorate."""

from spvbuild.enums import Op

print(Op.OpDecorate)  # E: "type[Op]" has no attribute "OpDecorate"
