"""ExecutionMode.LocalSize needs its sizes: ExecutionModeLocalSize(x, y, z)."""

from spvbuild import ExecutionMode, FunctionControl, Recorder

b = Recorder()
void = b.type_void()
main = b.function(void, FunctionControl.None_, b.type_function(void))
b.execution_mode(main, ExecutionMode.LocalSize)  # E: type "Literal[ExecutionMode.LocalSize]"
