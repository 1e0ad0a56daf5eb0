"""OpEntryPoint's interface list holds ids, not variable names."""

from spvbuild import ExecutionModel, FunctionControl, Recorder, StorageClass

b = Recorder()
void = b.type_void()
f32 = b.type_float(32)
var = b.variable(b.type_pointer(StorageClass.Input, f32), StorageClass.Input)
main = b.function(void, FunctionControl.None_, b.type_function(void))
b.entry_point(ExecutionModel.Fragment, main, "main", [var, "color"])  # E: "str"; expected "Id"
