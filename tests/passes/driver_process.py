"""Compute runs in a child process, so that a module that crashes the driver (a pass that
broke a program: an index out of an array's bounds in Function memory takes lavapipe down)
fails the test that ran it instead of ending the test session.

:class:`DriverProcess` has :class:`~spvbuild.vulkan_runner.ComputeDevice`'s ``run``: each
call goes to one child (``python -m tests.passes.driver_process``, one device for all its
runs) and comes back; a child that dies or answers nothing for :data:`TIMEOUT` seconds is
a :class:`DriverCrashed` for that call, and the next call starts a new child.
"""

from __future__ import annotations

import os
import pickle
import select
import struct
import subprocess
import sys
from collections.abc import Sequence
from typing import Any, BinaryIO

from tests.conftest import ROOT

TIMEOUT = 120.0
_LENGTH = struct.Struct("<Q")


class DriverCrashed(AssertionError):
    """The child running a dispatch died or stopped answering."""


def _send(stream: BinaryIO, value: object) -> None:
    data = pickle.dumps(value)
    stream.write(_LENGTH.pack(len(data)) + data)
    stream.flush()


def _receive(stream: BinaryIO) -> Any:
    head = stream.read(_LENGTH.size)
    if len(head) < _LENGTH.size:
        raise EOFError
    return pickle.loads(stream.read(_LENGTH.unpack(head)[0]))


class DriverProcess:
    """A child process running compute dispatches on one Vulkan device (the device
    ``SPVBUILD_VULKAN_DEVICE`` names, as in the tests: lavapipe)."""

    def __init__(self) -> None:
        self._child: subprocess.Popen[bytes] | None = None

    def _started(self) -> subprocess.Popen[bytes]:
        if self._child is None or self._child.poll() is not None:
            self._child = subprocess.Popen(
                [sys.executable, "-m", "tests.passes.driver_process"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                cwd=ROOT,
                env=dict(os.environ),
            )
        return self._child

    def run(
        self,
        words: Sequence[int],
        buffers: Sequence[bytes | bytearray],
        groups: tuple[int, int, int],
        entry_point: str = "main",
        push_constants: bytes | None = None,
        *,
        bindings: Sequence[tuple[int, int]] | None = None,
    ) -> list[bytes]:
        """As ``ComputeDevice.run``; DriverCrashed when the child dies or hangs, an
        AssertionError naming the child's exception (a VulkanError) when the run fails."""
        child = self._started()
        assert child.stdin is not None and child.stdout is not None
        job = (
            list(words),
            [bytes(b) for b in buffers],
            groups,
            entry_point,
            push_constants,
            bindings,
        )
        try:
            _send(child.stdin, job)
            ready, _, _ = select.select([child.stdout], [], [], TIMEOUT)
            if not ready:
                raise TimeoutError
            ok, answer = _receive(child.stdout)
        except (EOFError, BrokenPipeError, TimeoutError):
            child.kill()
            code = child.wait()
            self._child = None
            raise DriverCrashed(
                f"the driver's process ended ({code}) running this module"
            ) from None
        if not ok:
            raise AssertionError(answer)
        result: list[bytes] = answer
        return result

    def close(self) -> None:
        """End the child."""
        if self._child is not None and self._child.poll() is None:
            assert self._child.stdin is not None
            self._child.stdin.close()
            self._child.wait(timeout=30)
        self._child = None

    def __enter__(self) -> DriverProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _serve() -> None:
    """The child: run each job read from stdin on one device, answer (ok, result)."""
    from spvbuild.vulkan_runner import ComputeDevice

    requests, answers = sys.stdin.buffer, sys.stdout.buffer
    with ComputeDevice() as device:
        while True:
            try:
                words, buffers, groups, entry, push, bindings = _receive(requests)
            except EOFError:
                return
            try:
                answer: tuple[bool, object] = (
                    True,
                    device.run(words, buffers, groups, entry, push, bindings=bindings),
                )
            except Exception as exc:  # its text sent back, raised in the parent
                answer = (False, f"{type(exc).__name__}: {exc}")
            _send(answers, answer)


if __name__ == "__main__":
    _serve()
