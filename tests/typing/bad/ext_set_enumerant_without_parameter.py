"""DebugOperation.PlusUconst needs its value: DebugOperationPlusUconst(8)."""

from spvbuild import Recorder
from spvbuild.generated.extinst.debug_info import DebugOperation

b = Recorder()
void = b.type_void()
di = b.debug_info
di.debug_operation(void, DebugOperation.PlusUconst)  # E: type "Literal[DebugOperation.PlusUconst]"
