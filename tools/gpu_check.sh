#!/usr/bin/env bash
# The GPU check: on a machine with a real GPU (and perhaps no internet), install spvbuild
# and what the checks need from a folder prepared beforehand (tools/prepare_gpu_carry.sh),
# then run on the GPU: the device list, the demo, a selection of the Vulkan tests and of
# pykernel's programs; write a short report.  Meant to take well under 5 minutes.
#
#   tools/gpu_check.sh [CARRY_FOLDER] [REPORT]        (defaults: .gpu-carry, gpu_report.md)
#
# SPVBUILD_VULKAN_DEVICE chooses the device (default here: gpu; lavapipe checks the script
# itself on a machine without a GPU).  Exit 0 when every step passed.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
carry=${1:-.gpu-carry}
report=${2:-gpu_report.md}
export SPVBUILD_VULKAN_DEVICE=${SPVBUILD_VULKAN_DEVICE:-gpu}
export PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
site=$(mktemp -d /tmp/gpu-check-site.XXXXXX)
status=0
log() { echo "$*" | tee -a "$report"; }
step() {  # step NAME COMMAND...: run it with a time limit, log its outcome and tail
	local name=$1; shift
	local out; out=$(mktemp)
	local started=$SECONDS
	timeout 240 "$@" >"$out" 2>&1
	local rc=$?
	if [ $rc -eq 0 ]; then log "- $name: passed ($((SECONDS - started)) s)"; else log "- $name: FAILED, exit $rc ($((SECONDS - started)) s)"; status=1; fi
	{ echo '  ```'; tail -n 15 "$out" | sed 's/^/  /'; echo '  ```'; } >>"$report"
	rm -f "$out"
}

: >"$report"
log "# spvbuild GPU check"
log ""
log "- when: $(date -u +%Y-%m-%dT%H:%MZ); machine: $(uname -m), $(python3 --version 2>&1)"
# The Vulkan loader, if the machine has none.
if ! ldconfig -p 2>/dev/null | grep -q libvulkan.so.1; then
	for deb in "$carry"/*.deb; do [ -e "$deb" ] && dpkg -x "$deb" /; done
	ldconfig
fi
# NVIDIA's driver manifest where the container keeps it outside the loader's folders.
nvidia_icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [ -z "${VK_DRIVER_FILES:-}" ] && [ -f "$nvidia_icd" ]; then
	export VK_DRIVER_FILES=$nvidia_icd
fi
python3 -m pip install -q --no-index --no-deps --no-compile --target "$site" "$carry"/*.whl || status=1
export PYTHONPATH=$site
export LD_LIBRARY_PATH=$site/cmeel.prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=$site/cmeel.prefix/bin:$PATH
log "- device asked for: $SPVBUILD_VULKAN_DEVICE"
log ""
log "## Steps"
step "devices the loader sees" python3 -c '
import spvbuild.text.assembler as a
from spvbuild.vulkan_runner import ComputeDevice, list_devices
print("engines:", a.ENGINE)
for info in list_devices(): print(info)
with ComputeDevice() as device:
    p = device.properties
    print("chosen:", p.info.name, p.info.kind, "Vulkan", p.info.vulkan_version)
    print("subgroup", p.subgroup_size, "max workgroup", p.max_workgroup_size, p.max_workgroup_invocations)
'
step "demo (examples/demo.py)" python3 examples/demo.py
# Tests import tests.* from the checkout; spvbuild itself comes from the carried wheel.
step "Vulkan tests (a selection)" python3 -m pytest -q -p no:cacheprovider tests/test_vulkan.py \
	-k "vector_add or saxpy or atomic or u64 or glsl or gpu_is or properties or unknown_device"
step "pykernel programs (a selection)" python3 -m pytest -q -p no:cacheprovider tests/test_pykernel.py \
	-k "saxpy or collatz or prefix_sum or dot"
log ""
log "Result: $([ $status -eq 0 ] && echo "every step passed" || echo "a step failed (see above)")"
rm -rf "$site"
exit $status
