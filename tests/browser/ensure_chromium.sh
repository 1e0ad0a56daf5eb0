#!/usr/bin/env bash
# Install Debian's headless-capable Chromium and its WebDriver for tests/docs/test_browser.py.
# Idempotent: does nothing when /usr/bin/chromium is already there. Needs root (or sudo) and
# apt-get, as on a fresh Debian machine; the packages come from Debian's archive, no download
# of a browser build of its own.
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
    echo "ensure_chromium: $(/usr/bin/chromium --version 2>/dev/null || echo chromium) already installed"
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure_chromium: /usr/bin/chromium missing and no apt-get: install Debian's chromium and chromium-driver by hand" >&2
    exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        sudo="sudo"
    else
        echo "ensure_chromium: run as root: apt-get install chromium chromium-driver" >&2
        exit 1
    fi
fi
echo "ensure_chromium: installing chromium chromium-driver"
$sudo apt-get update
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends chromium chromium-driver
/usr/bin/chromium --version 2>/dev/null || true
