#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages the test suite needs (Chromium for browser tests, a Secret
# Service for keychain tests). Skips apt entirely when everything is already there.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v dbus-run-session >/dev/null 2>&1 || need+=(dbus)
command -v gnome-keyring-daemon >/dev/null 2>&1 || need+=(gnome-keyring)
[ -e /usr/lib/x86_64-linux-gnu/libsecret-1.so.0 ] || [ -e /usr/lib/aarch64-linux-gnu/libsecret-1.so.0 ] || need+=(libsecret-1-0)
fonts_ok=$(fc-list 2>/dev/null | head -1 || true)
[ -n "$fonts_ok" ] || need+=(fonts-dejavu-core)
if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "Installing system packages: ${need[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
