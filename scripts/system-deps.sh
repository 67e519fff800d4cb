#!/usr/bin/env bash
# The Debian packages (and the one PyPI tool) the tests and benchmarks use.
#   system-deps.sh check    lists what is missing (exit 1 if anything is)
#   system-deps.sh install  installs what is missing (needs root and apt-get)
set -uo pipefail
# command -> Debian package
declare -A PKG=(
  [curl]=curl [openssl]=openssl [chromium]=chromium [wrk]=wrk [h2load]=nghttp2-client
  [nginx]=nginx [brotli]=brotli [zstd]=zstd [xz]=xz-utils [valgrind]=valgrind [clang]=clang
  [taskset]=util-linux
)
# files that packages without a command provide
declare -A FILE_PKG=(
  [/usr/include/nghttp2/nghttp2.h]=libnghttp2-dev
  [/usr/lib/nginx/modules/ngx_http_brotli_static_module.so]=libnginx-mod-http-brotli-static
)
# command -> PyPI package (installed with pip, not apt-get)
declare -A PIP_PKG=(
  [redbot]=redbot
)
missing=()
pip_missing=()
for cmd in "${!PIP_PKG[@]}"; do command -v "$cmd" >/dev/null 2>&1 || pip_missing+=("${PIP_PKG[$cmd]}"); done
for cmd in "${!PKG[@]}"; do command -v "$cmd" >/dev/null 2>&1 || missing+=("${PKG[$cmd]}"); done
for f in "${!FILE_PKG[@]}"; do [ -e "$f" ] || missing+=("${FILE_PKG[$f]}"); done
# clang's fuzzer and sanitizer runtimes
if command -v clang >/dev/null 2>&1 && ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  missing+=(libclang-rt-dev)
fi
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u | sed '/^$/d')

case "${1:-check}" in
  check)
    if [ ${#missing[@]} -eq 0 ] && [ ${#pip_missing[@]} -eq 0 ]; then echo "system-deps: all present"; exit 0; fi
    [ ${#missing[@]} -gt 0 ] && echo "system-deps: missing Debian packages: ${missing[*]}" \
      && echo "system-deps: install them with: sudo apt-get install -y ${missing[*]}  (or: bash scripts/system-deps.sh install)"
    [ ${#pip_missing[@]} -gt 0 ] && echo "system-deps: missing PyPI packages: ${pip_missing[*]} (pip install ${pip_missing[*]})"
    exit 1 ;;
  install)
    if [ ${#pip_missing[@]} -gt 0 ]; then
      python3 -m pip install -q "${pip_missing[@]}" \
        || echo "system-deps: pip install ${pip_missing[*]} failed; tests that need it will be skipped" >&2
    fi
    [ ${#missing[@]} -eq 0 ] && { echo "system-deps: all present"; exit 0; }
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
      echo "system-deps: cannot install ${missing[*]} (needs root and apt-get); tests that need them will be skipped" >&2
      exit 0
    fi
    echo "system-deps: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
      || echo "system-deps: apt-get failed; tests that need ${missing[*]} will be skipped" >&2
    exit 0 ;;
  *) echo "usage: system-deps.sh check|install" >&2; exit 2 ;;
esac
