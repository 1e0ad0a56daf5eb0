"""SPIR-V assembly texts written outside this repository, for the differential tests.

Code and texts of other projects are never committed here.  The corpus is downloaded
instead, as Debian source packages from Debian's archive (the archive the machine already
installs from), and only the assembly texts are extracted, into :data:`CACHE`, a folder
that git ignores:

* ``spirv-cross``: the hand-written inputs of SPIRV-Cross's tests, every ``*.asm.*`` file
  under a ``shaders*/`` folder (the outputs under ``reference/`` are left out);
* ``spirv-tools``: the texts of SPIRV-Tools' diff tests (``test/diff/diff_files/*.spvasm``)
  and of its ``sva`` tool (``tools/sva/tests/*.spv_asm``), and every C++ raw string of its
  unit tests (``test/**/*.cpp``) that holds an instruction, stored as
  ``<test file>/line-<line of the literal>.spvasm``: whole modules and the fragments the
  tests build on (ids used but never defined, invalid texts) alike.

The download is done once: a source whose folder holds its stamp file (written last,
after a complete extraction, naming the selection, the suite and the package version) is
reused; any other state is removed and redone.  The suite is the machine's Debian release
(``VERSION_CODENAME`` of ``/etc/os-release``), ``bookworm`` elsewhere.  apt-get runs with
a private configuration (its own source list, lists and caches in a temporary folder), so
the system's apt state is neither read for sources nor changed.

    python -m tests.external_corpus     # what `make corpus` runs: download if missing
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "external-corpus"
"""Where the extracted texts live, one folder per source package."""

MIRROR = "http://deb.debian.org/debian"
DEFAULT_SUITE = "bookworm"
STAMP = ".complete"
SELECTION = 2
"""Bumped whenever which texts are taken changes, so that older caches are redone."""


class CorpusError(Exception):
    """The corpus could not be downloaded or extracted; the message says why."""


def _whole_file(path: str, data: bytes) -> list[tuple[str, bytes]]:
    return [(path, data)]


@dataclass(frozen=True, slots=True)
class Source:
    """One Debian source package and which files of its upstream tarball hold texts."""

    package: str
    keep: Callable[[str], bool]
    """Takes a path inside the tarball, without its top folder."""
    split: Callable[[str, bytes], list[tuple[str, bytes]]] = _whole_file
    """The texts of a kept file, each with the path it is stored under."""


def _cross_text(path: str) -> bool:
    return re.fullmatch(r"shaders[^/]*/.+\.asm\.[^/]+", path) is not None


def _tools_text(path: str) -> bool:
    return (
        re.fullmatch(r"test/.+\.cpp", path) is not None
        or re.fullmatch(r"test/diff/diff_files/[^/]+\.spvasm", path) is not None
        or re.fullmatch(r"tools/sva/tests/[^/]+\.spv_asm", path) is not None
    )


# A C++ raw string literal R"delimiter( ... )delimiter" (C++ [lex.string]), and a line of
# assembly: an instruction, with or without a result id.
_RAW_STRING = re.compile(rb'R"([^()\\\s]{0,16})\((.*?)\)\1"', re.DOTALL)
_INSTRUCTION = re.compile(rb"^[ \t]*(?:%[^\s=]+[ \t]*=[ \t]*)?Op[A-Z]", re.MULTILINE)


def _tools_split(path: str, data: bytes) -> list[tuple[str, bytes]]:
    """A C++ test gives each raw string that holds an instruction, named by its line."""
    if not path.endswith(".cpp"):
        return [(path, data)]
    found = []
    for match in _RAW_STRING.finditer(data):
        body = match.group(2)
        if _INSTRUCTION.search(body):
            line = data.count(b"\n", 0, match.start()) + 1
            found.append((f"{path}/line-{line:05}.spvasm", body))
    return found


SOURCES = (
    Source("spirv-cross", _cross_text),
    Source("spirv-tools", _tools_text, _tools_split),
)


@dataclass(frozen=True, slots=True)
class Text:
    """One assembly text: ``name`` is ``<package>/<path in the upstream tarball>``."""

    name: str
    source: str
    text: str


def suite() -> str:
    """The Debian release to take the source packages from."""
    try:
        release = Path("/etc/os-release").read_text()
    except OSError:
        return DEFAULT_SUITE
    fields = dict(
        line.split("=", 1) for line in release.splitlines() if "=" in line and line[0] != "#"
    )
    if fields.get("ID", "").strip('"') != "debian":
        return DEFAULT_SUITE
    return fields.get("VERSION_CODENAME", "").strip('"') or DEFAULT_SUITE


def _stamp_text(source: Source, release: str, version: str, count: int) -> str:
    return (
        f"selection {SELECTION}\nsuite {release}\n"
        f"package {source.package} {version}\ntexts {count}\n"
    )


def _is_complete(folder: Path, release: str) -> bool:
    stamp = folder / STAMP
    return stamp.is_file() and stamp.read_text().startswith(
        f"selection {SELECTION}\nsuite {release}\n"
    )


@contextmanager
def _locked(cache: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``cache`` (two test runs never download at once)."""
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache / ".lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _apt_get(work: Path, release: str, *arguments: str, cwd: Path) -> None:
    """Run apt-get on a private configuration under ``work``."""
    apt = shutil.which("apt-get")
    if apt is None:
        raise CorpusError("apt-get not found: the corpus is downloaded from Debian's archive")
    options = [
        f"-oDir::Etc::SourceList={work / 'sources.list'}",
        "-oDir::Etc::SourceParts=/dev/null",
        f"-oDir::State::Lists={work / 'lists'}",
        f"-oDir::Cache={work / 'cache'}",
        "-qq",
    ]
    if os.geteuid() == 0:  # the _apt user cannot write into a private temporary folder
        options.append("-oAPT::Sandbox::User=root")
    try:
        done = subprocess.run(
            [apt, *options, *arguments], cwd=cwd, capture_output=True, text=True, timeout=600
        )
    except subprocess.TimeoutExpired as error:
        raise CorpusError(f"apt-get {' '.join(arguments)}: no answer in 600 s") from error
    if done.returncode != 0:
        raise CorpusError(
            f"apt-get {' '.join(arguments)} failed (exit {done.returncode}, suite {release},"
            f" {MIRROR}):\n{(done.stderr + done.stdout).strip()}"
        )


def _download(packages: list[str], release: str, into: Path) -> None:
    """Download the source packages (.dsc, upstream and Debian tarballs) into ``into``."""
    work = into / "apt"
    for folder in (work / "lists" / "partial", work / "cache" / "archives" / "partial"):
        folder.mkdir(parents=True)
    (work / "sources.list").write_text(f"deb-src {MIRROR} {release} main\n")
    _apt_get(work, release, "update", cwd=into)
    _apt_get(work, release, "source", "--download-only", *packages, cwd=into)


def _extract(source: Source, downloads: Path, release: str, target: Path) -> int:
    """Extract the texts of ``source`` into ``target``; returns how many."""
    tarballs = sorted(downloads.glob(f"{source.package}_*.orig.tar.*"))
    if len(tarballs) != 1:
        raise CorpusError(f"{source.package}: expected one upstream tarball, found {tarballs}")
    version = tarballs[0].name.split("_", 1)[1].split(".orig.tar.", 1)[0]
    partial = target.with_name(target.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    count = 0
    try:
        with tarfile.open(tarballs[0]) as archive:
            for member in archive:
                parts = PurePosixPath(member.name).parts
                inner = "/".join(parts[1:])
                if not member.isfile() or ".." in parts or not source.keep(inner):
                    continue
                data = archive.extractfile(member)
                if data is None:
                    raise CorpusError(f"{source.package}: cannot read {member.name}")
                for path, text in source.split(inner, data.read()):
                    out = partial / path
                    out.parent.mkdir(parents=True, exist_ok=True)
                    out.write_bytes(text)
                    count += 1
    except (OSError, tarfile.TarError) as error:
        raise CorpusError(
            f"{source.package}: cannot extract {tarballs[0].name}: {error}"
        ) from error
    if count == 0:
        raise CorpusError(f"{source.package} {version}: no assembly texts in {tarballs[0].name}")
    (partial / STAMP).write_text(_stamp_text(source, release, version, count))
    shutil.rmtree(target, ignore_errors=True)
    partial.rename(target)
    return count


def ensure(cache: Path = CACHE) -> list[Path]:
    """Make every source's texts available under ``cache``; download only what is missing.

    Returns the folder of each source, in the order of :data:`SOURCES`.  Raises
    :class:`CorpusError` when the download or the extraction fails.
    """
    release = suite()
    folders = [cache / source.package for source in SOURCES]
    with _locked(cache):
        missing = [
            source
            for source, folder in zip(SOURCES, folders, strict=True)
            if not _is_complete(folder, release)
        ]
        if missing:
            with tempfile.TemporaryDirectory(prefix="corpus-", dir=cache) as tmp:
                downloads = Path(tmp)
                _download([source.package for source in missing], release, downloads)
                for source in missing:
                    _extract(source, downloads, release, cache / source.package)
    return folders


def texts(cache: Path = CACHE) -> list[Text]:
    """Every text of the corpus (downloaded first if needed), sorted by name.

    A text found under several names (SPIRV-Cross keeps copies of one input for several
    backends) is listed once, under its first name.
    """
    found: list[Text] = []
    seen: set[bytes] = set()
    for source, folder in zip(SOURCES, ensure(cache), strict=True):
        for path in sorted(p for p in folder.rglob("*") if p.is_file() and p.name != STAMP):
            data = path.read_bytes()
            digest = hashlib.sha256(data).digest()
            if digest in seen:
                continue
            seen.add(digest)
            name = f"{source.package}/{path.relative_to(folder).as_posix()}"
            found.append(Text(name, source.package, data.decode("utf-8", "surrogateescape")))
    return found


def describe(cache: Path = CACHE) -> str:
    """One line per source: its package version and how many texts it gave."""
    lines = []
    for source in SOURCES:
        stamp = cache / source.package / STAMP
        fields = dict(line.split(" ", 1) for line in stamp.read_text().splitlines())
        lines.append(f"{fields['package']}: {fields['texts']} texts ({fields['suite']})")
    return "\n".join(lines)


def main() -> int:
    try:
        ensure()
    except CorpusError as error:
        print(f"corpus: {error}", file=sys.stderr)
        return 1
    print(f"corpus: {CACHE.relative_to(ROOT)}\n{describe()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
