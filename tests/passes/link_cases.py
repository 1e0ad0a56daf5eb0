"""Linking cases: small modules in SPIR-V assembly, each case linked by ``spvbuild.link``
and by spirv-link (``tests/passes/test_link.py``).

A case lists its modules (assembly texts, made by :func:`shader` and :func:`kernel` from
their sections), the options (spirv-link's flags), and what should come of it: ``"ok"``,
or a phrase of spvbuild's LinkError.  ``spirv_link`` is what spirv-link does where it
differs on purpose (``"accepts"``: it links what spvbuild refuses; ``"refuses"``: it
refuses what spvbuild links; ``"invalid"``: it links into a module spirv-val refuses,
which spvbuild writes valid), None where both must agree; the reasons are
``link_differential.KNOWN_DIFFERENCES``'.
"""

from __future__ import annotations

from dataclasses import dataclass

PRELUDE = """%void = OpTypeVoid
%vfn = OpTypeFunction %void
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%bool = OpTypeBool
"""


@dataclass(frozen=True)
class Text:
    """One module: its assembly ``text`` and the SPIR-V ``version`` it is assembled for."""

    text: str
    version: str = "1.3"


def shader(
    *,
    ann: str = "",
    types: str = "",
    funcs: str = "",
    main: str | None = None,
    entry: str = "main",
    caps: str = "",
    header: str = "",
    model: str = "Logical GLSL450",
    version: str = "1.3",
    interface: str = "",
) -> Text:
    """A Shader module declaring Linkage: ``ann`` (names and decorations), ``types`` (after
    the prelude's void, int, uint, float, bool), ``funcs``, then, when ``main`` is given, a
    GLCompute entry point named ``entry`` whose body it is (before ``OpReturn``)."""
    lines = ["OpCapability Shader", "OpCapability Linkage", *caps.split("\n"), *header.split("\n")]
    lines.append(f"OpMemoryModel {model}" if model else "")
    if main is not None:
        lines += [
            f'OpEntryPoint GLCompute %main "{entry}" {interface}',
            "OpExecutionMode %main LocalSize 1 1 1",
        ]
    body = [ann, PRELUDE, types, funcs]
    if main is not None:
        body.append(
            f"%main = OpFunction %void None %vfn\n%main_entry = OpLabel\n{main}\nOpReturn\nOpFunctionEnd"
        )
    return Text("\n".join(line for line in lines + body if line.strip()) + "\n", version)


def kernel(
    *,
    ann: str = "",
    types: str = "",
    funcs: str = "",
    main: str | None = None,
    model: str = "Physical64 OpenCL",
    caps: str = "",
) -> Text:
    """An OpenCL Kernel module declaring Linkage, as :func:`shader` (``main``: a kernel
    entry point's body)."""
    lines = [
        "OpCapability Addresses",
        "OpCapability Kernel",
        "OpCapability Linkage",
        *caps.split("\n"),
    ]
    lines.append(f"OpMemoryModel {model}")
    if main is not None:
        lines.append('OpEntryPoint Kernel %main "main"')
    body = [ann, PRELUDE.replace("%int = OpTypeInt 32 1\n", ""), types, funcs]
    if main is not None:
        body.append(
            f"%main = OpFunction %void None %vfn\n%main_entry = OpLabel\n{main}\nOpReturn\nOpFunctionEnd"
        )
    return Text("\n".join(line for line in lines + body if line.strip()) + "\n", "1.2")


@dataclass(frozen=True)
class Case:
    """A linking case: ``name``, ``modules``, spirv-link's options (``partial``:
    --allow-partial-linkage, ``library``: --create-library, ``highest``:
    --use-highest-version), ``expect`` ("ok" or a phrase of the LinkError), ``spirv_link``
    (see the module's docstring), ``env`` (spirv-val's target environment for the
    output)."""

    name: str
    modules: tuple[Text, ...]
    expect: str = "ok"
    partial: bool = False
    library: bool = False
    highest: bool = True
    spirv_link: str | None = None
    env: str = "spv1.3"


# A function f(int) -> int: its import declaration, a definition exporting it, a caller.
F_TYPE = "%ifn = OpTypeFunction %int %int\n%c1 = OpConstant %int 1"
F_IMPORT = "%f = OpFunction %int None %ifn\n%f_p = OpFunctionParameter %int\nOpFunctionEnd"
F_EXPORT = """%f = OpFunction %int None %ifn
%f_p = OpFunctionParameter %int
%f_l = OpLabel
%f_r = OpIAdd %int %f_p %c1
OpReturnValue %f_r
OpFunctionEnd"""
F_CALL = "%call = OpFunctionCall %int %f %c1"
IMP_F = 'OpDecorate %f LinkageAttributes "f" Import'
EXP_F = 'OpDecorate %f LinkageAttributes "f" Export'

CALLER = shader(ann=IMP_F, types=F_TYPE, funcs=F_IMPORT, main=F_CALL)
DEFINER = shader(ann=EXP_F, types=F_TYPE, funcs=F_EXPORT)

# A Private int variable v: imported, exported (with an initializer), read by the caller.
V_TYPE = "%pint = OpTypePointer Private %int\n%c7 = OpConstant %int 7"
V_IMPORT = "%v = OpVariable %pint Private"
V_EXPORT = "%v = OpVariable %pint Private %c7"
V_LOAD = "%load = OpLoad %int %v"
IMP_V = 'OpDecorate %v LinkageAttributes "v" Import'
EXP_V = 'OpDecorate %v LinkageAttributes "v" Export'


def _function(name: str, result: str, ftype: str, params: list[str], body: str) -> str:
    lines = [f"%{name} = OpFunction %{result} None %{ftype}"]
    lines += [f"%{name}_p{i} = OpFunctionParameter %{p}" for i, p in enumerate(params)]
    if body:
        lines += [f"%{name}_l = OpLabel", body]
    lines.append("OpFunctionEnd")
    return "\n".join(lines)


def _pair(
    name: str,
    types_import: str,
    types_export: str,
    result: str,
    params: list[str],
    ret: str,
    call: str,
) -> Case:
    """A function import/export case: the importer declares ``types_import``, the exporter
    ``types_export``; the exporter's body returns ``ret``; the importer's main runs ``call``."""
    imp = shader(
        ann='OpDecorate %g LinkageAttributes "g" Import',
        types=types_import,
        funcs=_function("g", result, "gfn", params, ""),
        main=call,
    )
    exp = shader(
        ann='OpDecorate %g LinkageAttributes "g" Export',
        types=types_export,
        funcs=_function("g", result, "gfn", params, ret),
    )
    expect = "ok" if types_import == types_export else "imported by"
    return Case(name, (imp, exp), expect)


STRUCT_TYPES = "%ci = OpConstant %int 3\n%cf = OpConstant %float 1.5\n%st = OpTypeStruct %int %float\n%cst = OpConstantComposite %st %ci %cf"


def _typed_cases() -> list[Case]:
    """Function types to unify (or not): the same or different declarations of the
    parameter and result types in the two modules."""
    out = []
    struct = STRUCT_TYPES + "\n%gfn = OpTypeFunction %st %st"
    out.append(
        _pair(
            "type_struct_same",
            struct,
            struct,
            "st",
            ["st"],
            "OpReturnValue %g_p0",
            "%r = OpFunctionCall %st %g %cst",
        )
    )
    reordered = "%cf = OpConstant %float 1.5\n%ci = OpConstant %int 3\n%st = OpTypeStruct %int %float\n%cst = OpConstantComposite %st %ci %cf\n%gfn = OpTypeFunction %st %st"
    case = _pair(
        "type_struct_declared_in_other_order",
        struct,
        reordered,
        "st",
        ["st"],
        "OpReturnValue %g_p0",
        "%r = OpFunctionCall %st %g %cst",
    )
    out.append(Case(case.name, case.modules, "ok"))
    swapped = "%ci = OpConstant %int 3\n%cf = OpConstant %float 1.5\n%st = OpTypeStruct %float %int\n%cst = OpConstantComposite %st %cf %ci\n%gfn = OpTypeFunction %st %st"
    out.append(
        _pair(
            "type_struct_members_differ",
            struct,
            swapped,
            "st",
            ["st"],
            "OpReturnValue %g_p0",
            "%r = OpFunctionCall %st %g %cst",
        )
    )
    nested = (
        STRUCT_TYPES
        + "\n%outer = OpTypeStruct %st %int\n%co = OpConstantComposite %outer %cst %ci\n%gfn = OpTypeFunction %int %outer"
    )
    out.append(
        _pair(
            "type_nested_struct",
            nested,
            nested,
            "int",
            ["outer"],
            "%x = OpCompositeExtract %int %g_p0 1\nOpReturnValue %x",
            "%r = OpFunctionCall %int %g %co",
        )
    )
    array = "%c4 = OpConstant %uint 4\n%arr = OpTypeArray %float %c4\n%cf = OpConstant %float 2\n%ca = OpConstantComposite %arr %cf %cf %cf %cf\n%gfn = OpTypeFunction %float %arr"
    ret = "%x = OpCompositeExtract %float %g_p0 2\nOpReturnValue %x"
    out.append(
        _pair(
            "type_array_same",
            array,
            array,
            "float",
            ["arr"],
            ret,
            "%r = OpFunctionCall %float %g %ca",
        )
    )
    array5 = array.replace("%c4 = OpConstant %uint 4", "%c4 = OpConstant %uint 5").replace(
        "%cf %cf %cf %cf", "%cf %cf %cf %cf %cf"
    )
    out.append(
        _pair(
            "type_array_length_differs",
            array,
            array5,
            "float",
            ["arr"],
            ret,
            "%r = OpFunctionCall %float %g %ca",
        )
    )
    signed = array.replace("%c4 = OpConstant %uint 4", "%c4 = OpConstant %int 4")
    case = _pair(
        "type_array_length_of_other_type",
        array,
        signed,
        "float",
        ["arr"],
        ret,
        "%r = OpFunctionCall %float %g %ca",
    )
    out.append(Case(case.name, case.modules, "imported by", spirv_link="accepts"))
    vec = "%v4 = OpTypeVector %float 4\n%cf = OpConstant %float 2\n%cv = OpConstantComposite %v4 %cf %cf %cf %cf\n%gfn = OpTypeFunction %v4 %v4"
    out.append(
        _pair(
            "type_vector_same",
            vec,
            vec,
            "v4",
            ["v4"],
            "OpReturnValue %g_p0",
            "%r = OpFunctionCall %v4 %g %cv",
        )
    )
    vec3 = "%v4 = OpTypeVector %float 3\n%cf = OpConstant %float 2\n%cv = OpConstantComposite %v4 %cf %cf %cf\n%gfn = OpTypeFunction %v4 %v4"
    out.append(
        _pair(
            "type_vector_size_differs",
            vec,
            vec3,
            "v4",
            ["v4"],
            "OpReturnValue %g_p0",
            "%r = OpFunctionCall %v4 %g %cv",
        )
    )
    mat = "%v4 = OpTypeVector %float 4\n%m4 = OpTypeMatrix %v4 4\n%cf = OpConstant %float 2\n%cv = OpConstantComposite %v4 %cf %cf %cf %cf\n%cm = OpConstantComposite %m4 %cv %cv %cv %cv\n%gfn = OpTypeFunction %v4 %m4"
    out.append(
        _pair(
            "type_matrix_same",
            mat,
            mat,
            "v4",
            ["m4"],
            "%x = OpCompositeExtract %v4 %g_p0 1\nOpReturnValue %x",
            "%r = OpFunctionCall %v4 %g %cm",
        )
    )
    ints = "%gfn = OpTypeFunction %int %int %int\n%c2 = OpConstant %int 2"
    out.append(
        _pair(
            "type_two_params",
            ints,
            ints,
            "int",
            ["int", "int"],
            "%x = OpIMul %int %g_p0 %g_p1\nOpReturnValue %x",
            "%r = OpFunctionCall %int %g %c2 %c2",
        )
    )
    fewer = "%gfn = OpTypeFunction %int %int\n%c2 = OpConstant %int 2"
    case = _pair(
        "type_parameter_count_differs",
        ints,
        fewer,
        "int",
        ["int", "int"],
        "%x = OpIMul %int %g_p0 %g_p1\nOpReturnValue %x",
        "%r = OpFunctionCall %int %g %c2 %c2",
    )
    imp, exp = case.modules
    exp = shader(
        ann='OpDecorate %g LinkageAttributes "g" Export',
        types=fewer,
        funcs=_function("g", "int", "gfn", ["int"], "OpReturnValue %g_p0"),
    )
    out.append(Case(case.name, (imp, exp), "imported by"))
    unsigned = "%gfn = OpTypeFunction %uint %uint\n%c2 = OpConstant %uint 2"
    imp = shader(
        ann='OpDecorate %g LinkageAttributes "g" Import',
        types=ints.replace("%int %int %int", "%int %int"),
        funcs=_function("g", "int", "gfn", ["int"], ""),
        main="%r = OpFunctionCall %int %g %c2",
    )
    exp = shader(
        ann='OpDecorate %g LinkageAttributes "g" Export',
        types=unsigned,
        funcs=_function("g", "uint", "gfn", ["uint"], "OpReturnValue %g_p0"),
    )
    out.append(Case("type_signedness_differs", (imp, exp), "imported by"))
    returns = "%gfn = OpTypeFunction %float %int\n%c2 = OpConstant %int 2"
    imp = shader(
        ann='OpDecorate %g LinkageAttributes "g" Import',
        types="%gfn = OpTypeFunction %int %int\n%c2 = OpConstant %int 2",
        funcs=_function("g", "int", "gfn", ["int"], ""),
        main="%r = OpFunctionCall %int %g %c2",
    )
    exp = shader(
        ann='OpDecorate %g LinkageAttributes "g" Export',
        types=returns + "\n%cf = OpConstant %float 1",
        funcs=_function("g", "float", "gfn", ["int"], "OpReturnValue %cf"),
    )
    out.append(Case("type_result_differs", (imp, exp), "imported by"))
    double = "%double = OpTypeFloat 64\n%gfn = OpTypeFunction %double %double\n%cd = OpConstant %double 2"
    float_ = "%double = OpTypeFloat 32\n%gfn = OpTypeFunction %double %double\n%cd = OpConstant %double 2"
    imp = shader(
        ann='OpDecorate %g LinkageAttributes "g" Import',
        caps="OpCapability Float64",
        types=double,
        funcs=_function("g", "double", "gfn", ["double"], ""),
        main="%r = OpFunctionCall %double %g %cd",
    )
    exp = shader(
        ann='OpDecorate %g LinkageAttributes "g" Export',
        types=float_,
        funcs=_function("g", "double", "gfn", ["double"], "OpReturnValue %g_p0"),
    )
    out.append(Case("type_float_width_differs", (imp, exp), "imported by"))
    exp64 = shader(
        ann='OpDecorate %g LinkageAttributes "g" Export',
        caps="OpCapability Float64",
        types=double,
        funcs=_function("g", "double", "gfn", ["double"], "OpReturnValue %g_p0"),
    )
    out.append(Case("type_float64_both", (imp, exp64)))
    ptr = "%pfi = OpTypePointer Function %int\n%gfn = OpTypeFunction %int %pfi"
    imp = shader(
        ann='OpDecorate %g LinkageAttributes "g" Import',
        types=ptr,
        funcs=_function("g", "int", "gfn", ["pfi"], ""),
        main="%var = OpVariable %pfi Function\n%r = OpFunctionCall %int %g %var",
    )
    exp = shader(
        ann='OpDecorate %g LinkageAttributes "g" Export',
        types=ptr,
        funcs=_function("g", "int", "gfn", ["pfi"], "%x = OpLoad %int %g_p0\nOpReturnValue %x"),
    )
    out.append(Case("type_pointer_parameter", (imp, exp)))
    return out


def _kernel_cases() -> list[Case]:
    """OpenCL kernels: pointers to CrossWorkgroup memory, function parameter attributes,
    global variables, addressing models."""
    out = []
    types = "%pcw = OpTypePointer CrossWorkgroup %uint\n%kfn = OpTypeFunction %uint %pcw\n%null = OpConstantNull %pcw"
    kimp = "%k = OpFunction %uint None %kfn\n%k_p = OpFunctionParameter %pcw\nOpFunctionEnd"
    kexp = "%k = OpFunction %uint None %kfn\n%k_p = OpFunctionParameter %pcw\n%k_l = OpLabel\n%x = OpLoad %uint %k_p\nOpReturnValue %x\nOpFunctionEnd"
    imp = kernel(
        ann='OpDecorate %k LinkageAttributes "k" Import',
        types=types,
        funcs=kimp,
        main="%r = OpFunctionCall %uint %k %null",
    )
    exp = kernel(ann='OpDecorate %k LinkageAttributes "k" Export', types=types, funcs=kexp)
    out.append(Case("kernel_pointer_parameter", (imp, exp), env="opencl2.2"))
    imp_attr = kernel(
        ann='OpDecorate %k LinkageAttributes "k" Import\nOpDecorate %k_p FuncParamAttr NoWrite',
        types=types,
        funcs=kimp,
        main="%r = OpFunctionCall %uint %k %null",
    )
    out.append(Case("kernel_import_parameter_attribute_dropped", (imp_attr, exp), env="opencl2.2"))
    exp_attr = kernel(
        ann='OpDecorate %k LinkageAttributes "k" Export\nOpDecorate %k_p FuncParamAttr NoCapture',
        types=types,
        funcs=kexp,
    )
    out.append(
        Case("kernel_export_parameter_attribute_kept", (imp_attr, exp_attr), env="opencl2.2")
    )
    gtypes = "%pg = OpTypePointer CrossWorkgroup %uint\n%c5 = OpConstant %uint 5"
    gimp = kernel(
        ann='OpDecorate %gv LinkageAttributes "gv" Import',
        types=gtypes + "\n%gv = OpVariable %pg CrossWorkgroup",
        main="%x = OpLoad %uint %gv",
    )
    gexp = kernel(
        ann='OpDecorate %gv LinkageAttributes "gv" Export',
        types=gtypes + "\n%gv = OpVariable %pg CrossWorkgroup %c5",
    )
    out.append(Case("kernel_global_variable", (gimp, gexp), env="opencl2.2"))
    aligned_imp = kernel(
        ann='OpDecorate %gv LinkageAttributes "gv" Import\nOpDecorate %gv Alignment 16',
        types=gtypes + "\n%gv = OpVariable %pg CrossWorkgroup",
        main="%x = OpLoad %uint %gv",
    )
    aligned_exp = kernel(
        ann='OpDecorate %gv LinkageAttributes "gv" Export\nOpDecorate %gv Alignment 16',
        types=gtypes + "\n%gv = OpVariable %pg CrossWorkgroup %c5",
    )
    out.append(Case("kernel_global_same_decorations", (aligned_imp, aligned_exp), env="opencl2.2"))
    out.append(
        Case(
            "kernel_global_decorations_differ",
            (aligned_imp, gexp),
            "decorated otherwise",
            env="opencl2.2",
        )
    )
    group_exp = kernel(
        ann='OpDecorate %gv LinkageAttributes "gv" Export\nOpDecorate %grp Alignment 16\n%grp = OpDecorationGroup\nOpGroupDecorate %grp %gv',
        types=gtypes + "\n%gv = OpVariable %pg CrossWorkgroup %c5",
    )
    out.append(Case("kernel_decoration_through_group", (aligned_imp, group_exp), env="opencl2.2"))
    phys32 = kernel(
        ann='OpDecorate %k LinkageAttributes "k" Export',
        types=types,
        funcs=kexp,
        model="Physical32 OpenCL",
    )
    out.append(
        Case(
            "kernel_addressing_models_differ",
            (imp, phys32),
            "conflicting addressing models",
            env="opencl2.2",
        )
    )
    ptrptr = "%pcw = OpTypePointer CrossWorkgroup %uint\n%ppf = OpTypePointer Function %pcw\n%kfn = OpTypeFunction %void %ppf"
    pimp = kernel(
        ann='OpDecorate %k LinkageAttributes "k" Import',
        types=ptrptr,
        funcs="%k = OpFunction %void None %kfn\n%k_p = OpFunctionParameter %ppf\nOpFunctionEnd",
        main="%pv = OpVariable %ppf Function\n%r = OpFunctionCall %void %k %pv",
    )
    pexp = kernel(
        ann='OpDecorate %k LinkageAttributes "k" Export',
        types=ptrptr,
        funcs="%k = OpFunction %void None %kfn\n%k_p = OpFunctionParameter %ppf\n%k_l = OpLabel\nOpReturn\nOpFunctionEnd",
    )
    out.append(Case("kernel_pointer_to_pointer", (pimp, pexp), env="opencl2.2"))
    wrong = ptrptr.replace("OpTypePointer CrossWorkgroup %uint", "OpTypePointer Workgroup %uint")
    wexp = kernel(
        ann='OpDecorate %k LinkageAttributes "k" Export',
        types=wrong,
        funcs="%k = OpFunction %void None %kfn\n%k_p = OpFunctionParameter %ppf\n%k_l = OpLabel\nOpReturn\nOpFunctionEnd",
    )
    out.append(Case("kernel_pointee_storage_differs", (pimp, wexp), "imported by", env="opencl2.2"))
    return out


def _variable_cases() -> list[Case]:
    """Global variables: Private, Workgroup, StorageBuffer blocks, interfaces."""
    out = []
    vimp = shader(ann=IMP_V, types=V_TYPE + "\n" + V_IMPORT, main=V_LOAD)
    vexp = shader(ann=EXP_V, types=V_TYPE + "\n" + V_EXPORT)
    out.append(Case("variable_private", (vimp, vexp)))
    out.append(Case("variable_private_exporter_first", (vexp, vimp)))
    wg = "%pw = OpTypePointer Workgroup %int\n%c7 = OpConstant %int 7"
    wimp = shader(ann=IMP_V, types=wg + "\n%v = OpVariable %pw Workgroup", main="OpStore %v %c7")
    wexp = shader(ann=EXP_V, types=wg + "\n%v = OpVariable %pw Workgroup")
    out.append(Case("variable_workgroup", (wimp, wexp)))
    out.append(Case("variable_storage_class_differs", (vimp, wexp), "imported by"))
    uimp = shader(
        ann=IMP_V,
        types="%pint = OpTypePointer Private %uint\n%v = OpVariable %pint Private",
        main="%load = OpLoad %uint %v",
    )
    out.append(Case("variable_type_differs", (uimp, vexp), "imported by"))
    block = """OpDecorate %blk Block
OpMemberDecorate %blk 0 Offset 0
OpMemberDecorate %blk 1 Offset 4
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0"""
    btypes = "%blk = OpTypeStruct %int %float\n%pblk = OpTypePointer StorageBuffer %blk\n%pbi = OpTypePointer StorageBuffer %int\n%c0 = OpConstant %int 0\n%c9 = OpConstant %int 9"
    bimp = shader(
        ann=block + '\nOpDecorate %buf LinkageAttributes "buf" Import',
        types=btypes + "\n%buf = OpVariable %pblk StorageBuffer",
        main="%m = OpAccessChain %pbi %buf %c0\nOpStore %m %c9",
        header='OpExtension "SPV_KHR_storage_buffer_storage_class"',
    )
    bexp = shader(
        ann=block + '\nOpDecorate %buf LinkageAttributes "buf" Export',
        types=btypes + "\n%buf = OpVariable %pblk StorageBuffer",
        header='OpExtension "SPV_KHR_storage_buffer_storage_class"',
    )
    out.append(Case("variable_storage_buffer_block", (bimp, bexp)))
    shifted = block.replace("1 Offset 4", "1 Offset 8")
    bexp8 = shader(
        ann=shifted + '\nOpDecorate %buf LinkageAttributes "buf" Export',
        types=btypes + "\n%buf = OpVariable %pblk StorageBuffer",
        header='OpExtension "SPV_KHR_storage_buffer_storage_class"',
    )
    out.append(Case("variable_block_offsets_differ", (bimp, bexp8), "imported by"))
    rebound = block.replace("Binding 0", "Binding 1")
    bexp1 = shader(
        ann=rebound + '\nOpDecorate %buf LinkageAttributes "buf" Export',
        types=btypes + "\n%buf = OpVariable %pblk StorageBuffer",
        header='OpExtension "SPV_KHR_storage_buffer_storage_class"',
    )
    out.append(Case("variable_binding_differs", (bimp, bexp1), "decorated otherwise"))
    v2imp = shader(ann=IMP_V, types=V_TYPE + "\n" + V_IMPORT, main=V_LOAD, entry="other")
    out.append(Case("variable_two_importers", (vimp, v2imp, vexp)))
    iface14 = shader(
        ann=IMP_V, types=V_TYPE + "\n" + V_IMPORT, main=V_LOAD, interface="%v", version="1.4"
    )
    exp14 = shader(ann=EXP_V, types=V_TYPE + "\n" + V_EXPORT, version="1.4")
    out.append(Case("variable_in_entry_interface", (iface14, exp14), env="spv1.4"))
    both14 = shader(
        ann=EXP_V + '\nOpDecorate %w LinkageAttributes "w" Import',
        types=V_TYPE + "\n" + V_EXPORT + "\n%w = OpVariable %pint Private",
        main="%l1 = OpLoad %int %v\n%l2 = OpLoad %int %w",
        interface="%v %w",
        version="1.4",
    )
    wexp14 = shader(
        ann='OpDecorate %w LinkageAttributes "w" Export',
        types=V_TYPE + "\n%w = OpVariable %pint Private %c7",
        version="1.4",
    )
    out.append(Case("variable_interface_export_and_import", (both14, wexp14), env="spv1.4"))
    restrict_imp = shader(
        ann=IMP_V + "\nOpDecorate %v RelaxedPrecision", types=V_TYPE + "\n" + V_IMPORT, main=V_LOAD
    )
    out.append(
        Case("variable_decoration_only_on_import", (restrict_imp, vexp), "decorated otherwise")
    )
    restrict_exp = shader(
        ann=EXP_V + "\nOpDecorate %v RelaxedPrecision", types=V_TYPE + "\n" + V_EXPORT
    )
    out.append(
        Case("variable_decoration_only_on_export", (vimp, restrict_exp), "decorated otherwise")
    )
    out.append(Case("variable_same_decoration", (restrict_imp, restrict_exp)))
    return out


def _function_cases() -> list[Case]:
    """Functions: calls, chains, several modules, exports nobody imports."""
    out = [
        Case("function_basic", (CALLER, DEFINER)),
        Case("function_definer_first", (DEFINER, CALLER)),
    ]
    twice = shader(
        ann=IMP_F,
        types=F_TYPE,
        funcs=F_IMPORT,
        main=F_CALL + "\n%call2 = OpFunctionCall %int %f %call",
    )
    out.append(Case("function_called_twice", (twice, DEFINER)))
    unused = shader(ann=IMP_F, types=F_TYPE, funcs=F_IMPORT, main="")
    out.append(Case("function_import_unused", (unused, DEFINER)))
    chain_b = shader(
        ann=EXP_F + '\nOpDecorate %h LinkageAttributes "h" Import',
        types=F_TYPE,
        funcs="%h = OpFunction %int None %ifn\n%h_p = OpFunctionParameter %int\nOpFunctionEnd\n"
        + F_EXPORT.replace("%f_r = OpIAdd %int %f_p %c1", "%f_r = OpFunctionCall %int %h %f_p"),
    )
    chain_c = shader(
        ann='OpDecorate %h LinkageAttributes "h" Export',
        types=F_TYPE,
        funcs=F_EXPORT.replace("%f", "%h"),
    )
    out.append(Case("function_chain_of_three", (CALLER, chain_b, chain_c)))
    out.append(Case("function_chain_reversed", (chain_c, chain_b, CALLER)))
    void = shader(
        ann='OpDecorate %e LinkageAttributes "e" Import',
        funcs="%e = OpFunction %void None %vfn\nOpFunctionEnd",
        main="%x = OpFunctionCall %void %e",
    )
    void_def = shader(
        ann='OpDecorate %e LinkageAttributes "e" Export',
        funcs="%e = OpFunction %void None %vfn\n%e_l = OpLabel\nOpReturn\nOpFunctionEnd",
    )
    out.append(Case("function_void_no_parameters", (void, void_def)))
    inline = shader(
        ann=EXP_F,
        types=F_TYPE,
        funcs=F_EXPORT.replace("OpFunction %int None", "OpFunction %int Inline"),
    )
    out.append(Case("function_control_from_definition", (CALLER, inline)))
    same = shader(
        ann=EXP_F + '\nOpDecorate %f2 LinkageAttributes "f" Import',
        types=F_TYPE,
        funcs=F_EXPORT + "\n" + F_IMPORT.replace("%f", "%f2"),
        main="%call = OpFunctionCall %int %f2 %c1",
    )
    out.append(Case("function_import_and_export_in_one_module", (same,)))
    two = shader(
        ann=IMP_F + '\nOpDecorate %h LinkageAttributes "h" Import',
        types=F_TYPE,
        funcs=F_IMPORT + "\n" + F_IMPORT.replace("%f", "%h"),
        main=F_CALL + "\n%call2 = OpFunctionCall %int %h %c1",
    )
    hdef = shader(
        ann='OpDecorate %h LinkageAttributes "h" Export',
        types=F_TYPE,
        funcs=F_EXPORT.replace("%f", "%h"),
    )
    out.append(Case("function_two_imports_two_modules", (two, DEFINER, hdef)))
    both = shader(
        ann=EXP_F + '\nOpDecorate %h LinkageAttributes "h" Export',
        types=F_TYPE,
        funcs=F_EXPORT + "\n" + F_EXPORT.replace("%f", "%h"),
    )
    out.append(Case("function_two_imports_one_module", (two, both)))
    extra = shader(
        ann=EXP_F + '\nOpDecorate %h LinkageAttributes "h" Export',
        types=F_TYPE,
        funcs=F_EXPORT + "\n" + F_EXPORT.replace("%f", "%h"),
    )
    out.append(Case("function_export_nobody_imports", (CALLER, extra)))
    named = shader(
        ann='OpName %f "helper"\nOpName %f_p "x"\n' + EXP_F, types=F_TYPE, funcs=F_EXPORT
    )
    out.append(Case("function_names_kept_from_definition", (CALLER, named)))
    called = shader(ann=EXP_F, types=F_TYPE, funcs=F_EXPORT, main=F_CALL, entry="second")
    out.append(Case("function_export_called_in_its_module", (CALLER, called)))
    glsl = '%glsl = OpExtInstImport "GLSL.std.450"'
    g_caller = shader(
        ann=IMP_F,
        header=glsl,
        types=F_TYPE + "\n%cf = OpConstant %float -2",
        funcs=F_IMPORT,
        main=F_CALL + "\n%abs = OpExtInst %float %glsl FAbs %cf",
    )
    g_def = shader(
        ann=EXP_F,
        header=glsl,
        types=F_TYPE,
        funcs=F_EXPORT.replace(
            "%f_r = OpIAdd %int %f_p %c1", "%f_r = OpExtInst %int %glsl SAbs %f_p"
        ),
    )
    out.append(Case("function_ext_inst_import_merged", (g_caller, g_def)))
    return out


def _mode_cases() -> list[Case]:
    """Partial linkage, libraries, duplicates, models, versions, entry points, headers."""
    out = []
    out.append(Case("missing_export", (CALLER,), "no module exports"))
    out.append(Case("missing_export_partial", (CALLER,), partial=True))
    out.append(
        Case(
            "missing_export_other_name",
            (
                CALLER,
                shader(
                    ann='OpDecorate %f LinkageAttributes "F" Export', types=F_TYPE, funcs=F_EXPORT
                ),
            ),
            "no module exports",
        )
    )
    two = shader(
        ann=IMP_F + "\n" + IMP_V,
        types=F_TYPE + "\n" + V_TYPE + "\n" + V_IMPORT,
        funcs=F_IMPORT,
        main=F_CALL + "\n" + V_LOAD,
    )
    out.append(Case("partial_one_of_two_resolved", (two, DEFINER), partial=True))
    out.append(Case("partial_variable_unresolved", (two, DEFINER), "no module exports"))
    out.append(Case("partial_all_resolved", (CALLER, DEFINER), partial=True))
    out.append(Case("partial_library", (two, DEFINER), partial=True, library=True))
    out.append(Case("library_keeps_exports", (CALLER, DEFINER), library=True))
    lib_only = shader(ann=EXP_V, types=V_TYPE + "\n" + V_EXPORT)
    out.append(Case("library_of_two_libraries", (DEFINER, lib_only), library=True))
    out.append(Case("library_chain", (CALLER, DEFINER, lib_only), library=True))
    out.append(Case("duplicate_export_imported", (CALLER, DEFINER, DEFINER), "exported 2 times"))
    out.append(
        Case(
            "duplicate_export_imported_library",
            (CALLER, DEFINER, DEFINER),
            "exported 2 times",
            library=True,
        )
    )
    out.append(
        Case("duplicate_export_nobody_imports", (shader(types=F_TYPE, main=""), DEFINER, DEFINER))
    )
    out.append(Case("duplicate_export_library", (DEFINER, DEFINER), library=True))
    out.append(
        Case(
            "memory_models_differ",
            (CALLER, shader(ann=EXP_F, types=F_TYPE, funcs=F_EXPORT, model="Logical Simple")),
            "conflicting memory models",
        )
    )
    out.append(
        Case(
            "memory_model_missing",
            (CALLER, shader(ann=EXP_F, types=F_TYPE, funcs=F_EXPORT, model="")),
            "no OpMemoryModel",
        )
    )
    v15 = shader(ann=EXP_F, types=F_TYPE, funcs=F_EXPORT, version="1.5")
    out.append(Case("versions_highest", (CALLER, v15), env="spv1.5"))
    out.append(
        Case("versions_must_agree", (CALLER, v15), "conflicting SPIR-V versions", highest=False)
    )
    v10 = (
        shader(ann=IMP_F, types=F_TYPE, funcs=F_IMPORT, main=F_CALL, version="1.0"),
        shader(ann=EXP_F, types=F_TYPE, funcs=F_EXPORT, version="1.0"),
    )
    out.append(Case("versions_both_1_0", v10, highest=False, env="spv1.0"))
    second = shader(ann=EXP_F, types=F_TYPE, funcs=F_EXPORT, main="")
    out.append(Case("entry_point_twice", (CALLER, second), "entry point 'main'"))
    out.append(
        Case(
            "entry_points_two_names",
            (CALLER, shader(ann=EXP_F, types=F_TYPE, funcs=F_EXPORT, main="", entry="other")),
        )
    )
    caps = shader(
        ann=EXP_F,
        caps="OpCapability Int64\nOpCapability Int16",
        types=F_TYPE + "\n%long = OpTypeInt 64 1\n%short = OpTypeInt 16 1",
        funcs=F_EXPORT,
    )
    out.append(Case("capabilities_joined", (CALLER, caps)))
    spec = shader(
        ann=EXP_F + "\nOpDecorate %sc SpecId 3",
        types=F_TYPE + "\n%sc = OpSpecConstant %int 4",
        funcs=F_EXPORT.replace("%f_p %c1", "%f_p %sc"),
    )
    spec_caller = shader(
        ann=IMP_F + "\nOpDecorate %sc SpecId 4",
        types=F_TYPE + "\n%sc = OpSpecConstant %int 4",
        funcs=F_IMPORT,
        main="%call = OpFunctionCall %int %f %sc",
    )
    out.append(Case("spec_constants_kept_apart", (spec_caller, spec)))
    debug = shader(
        ann=EXP_F,
        header='%file = OpString "lib.glsl"\nOpSource GLSL 450 %file',
        types=F_TYPE,
        funcs=F_EXPORT,
    )
    debug_caller = shader(
        ann=IMP_F,
        header='%file = OpString "main.glsl"\nOpSource GLSL 450 %file',
        types=F_TYPE,
        funcs=F_IMPORT,
        main=F_CALL,
    )
    out.append(Case("debug_strings_and_sources", (debug_caller, debug)))
    constant = shader(ann='OpDecorate %c1 LinkageAttributes "c" Export', types=F_TYPE)
    out.append(
        Case(
            "linkage_on_a_constant",
            (CALLER, DEFINER, constant),
            "only global variables and functions",
        )
    )
    builtin = shader(
        ann='OpDecorate %gid BuiltIn GlobalInvocationId\nOpDecorate %gid LinkageAttributes "gid" Import',
        types="%v3 = OpTypeVector %uint 3\n%pin = OpTypePointer Input %v3\n%gid = OpVariable %pin Input",
        main="%x = OpLoad %v3 %gid",
        interface="%gid",
    )
    out.append(Case("builtin_with_linkage_ignored", (builtin,), library=True))
    group = shader(
        ann='OpDecorate %grp LinkageAttributes "f" Export\n%grp = OpDecorationGroup\nOpGroupDecorate %grp %f',
        types=F_TYPE,
        funcs=F_EXPORT,
    )
    out.append(Case("linkage_through_group", (CALLER, group), "decoration group"))
    lonely = shader(ann=EXP_F, types=F_TYPE, funcs=F_EXPORT)
    out.append(Case("no_entry_point_executable", (lonely, lib_only), spirv_link="invalid"))
    out.append(Case("single_module", (shader(types=F_TYPE, funcs=F_EXPORT, main=F_CALL),)))
    return out


ODR = 'OpExtension "SPV_KHR_linkonce_odr"'
ONCE_F = 'OpDecorate %f LinkageAttributes "f" LinkOnceODR'


def _found_by_random_cases() -> list[Case]:
    """Cases the random generator (``random_link_cases.py``) found spvbuild wrong on,
    reduced: LinkOnceODR exports (SPV_KHR_linkonce_odr), a decoration group left without
    a target, spec constants as array lengths, decorations with id operands."""
    out = []
    once = shader(header=ODR, ann=ONCE_F, types=F_TYPE, funcs=F_EXPORT)
    twice = shader(
        header=ODR,
        ann=ONCE_F,
        types=F_TYPE,
        funcs=F_EXPORT.replace("OpIAdd %int %f_p %c1", "OpIMul %int %f_p %c1"),
    )
    out.append(Case("link_once_odr", (CALLER, once)))
    out.append(Case("link_once_odr_first_of_two_taken", (CALLER, twice, once)))
    out.append(Case("link_once_odr_library", (CALLER, once, twice), library=True))
    out.append(Case("link_once_odr_partial", (CALLER, once), partial=True))
    out.append(
        Case(
            "link_once_odr_used_in_its_module",
            (shader(header=ODR, ann=ONCE_F, types=F_TYPE, funcs=F_EXPORT, main=F_CALL), twice),
        )
    )
    out.append(
        Case(
            "link_once_odr_and_export",
            (CALLER, once, DEFINER),
            "exported one way or the other",
        )
    )
    out.append(
        Case(
            "link_once_odr_and_export_nobody_imports",
            (shader(types=F_TYPE, main=""), DEFINER, once),
            "exported one way or the other",
        )
    )
    out.append(
        Case(
            "link_once_odr_type_differs",
            (
                CALLER,
                shader(
                    header=ODR,
                    ann=ONCE_F,
                    types=F_TYPE.replace("%int", "%uint"),
                    funcs=F_EXPORT.replace("%int", "%uint"),
                ),
            ),
            "imported by",
        )
    )
    grouped = shader(
        ann=IMP_V
        + "\nOpDecorate %g RelaxedPrecision\n%g = OpDecorationGroup\nOpGroupDecorate %g %v",
        types=V_TYPE + "\n" + V_IMPORT,
        main=V_LOAD,
    )
    relaxed = shader(ann=EXP_V + "\nOpDecorate %v RelaxedPrecision", types=V_TYPE + "\n" + V_EXPORT)
    out.append(Case("group_left_without_targets", (grouped, relaxed)))
    spec = "%n = OpSpecConstant %uint 4\n%arr = OpTypeArray %float %n\n%pa = OpTypePointer Private %arr"
    for name, ann in (
        ("spec_length_same_spec_id", "OpDecorate %n SpecId 1\n"),
        ("spec_length_no_spec_id", ""),
    ):
        out.append(
            Case(
                name,
                (
                    shader(
                        ann=ann + IMP_V,
                        types=spec + "\n%v = OpVariable %pa Private",
                        main="%x = OpLoad %arr %v",
                    ),
                    shader(ann=ann + EXP_V, types=spec + "\n%v = OpVariable %pa Private"),
                ),
            )
        )
    aligned = "%pg = OpTypePointer CrossWorkgroup %uint\n%c16 = OpConstant %uint 16"
    out.append(
        Case(
            "kernel_decoration_with_an_id_operand",
            (
                kernel(
                    ann='OpDecorate %gv LinkageAttributes "gv" Import\nOpDecorateId %gv AlignmentId %c16',
                    types=aligned + "\n%gv = OpVariable %pg CrossWorkgroup",
                    main="%x = OpLoad %uint %gv",
                ),
                kernel(
                    ann='OpDecorate %gv LinkageAttributes "gv" Export\nOpDecorateId %gv AlignmentId %c16',
                    types=aligned + "\n%gv = OpVariable %pg CrossWorkgroup",
                ),
            ),
            spirv_link="refuses",
            env="opencl2.2",
        )
    )
    return out


CASES: tuple[Case, ...] = tuple(
    _function_cases()
    + _variable_cases()
    + _typed_cases()
    + _kernel_cases()
    + _mode_cases()
    + _found_by_random_cases()
)
"""Every case, by group: functions, variables, types, kernels, modes, found by the random
generator."""
