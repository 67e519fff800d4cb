#!/usr/bin/env bash
# The Debian (and a few PyPI) packages the tests and benchmarks use.
#   system-deps.sh check    lists what is missing (exit 1 if anything is)
#   system-deps.sh install  installs what is missing (needs root and apt-get)
set -uo pipefail
# command -> Debian package
declare -A PKG=(
  [curl]=curl [openssl]=openssl [chromium]=chromium [wrk]=wrk [h2load]=nghttp2-client
  [nginx]=nginx [brotli]=brotli [zstd]=zstd [xz]=xz-utils [valgrind]=valgrind [clang]=clang
  [taskset]=util-linux [python3]=python3 [certutil]=libnss3-tools
)
# files that packages without a command provide
declare -A FILE_PKG=(
  [/usr/include/nghttp2/nghttp2.h]=libnghttp2-dev
  [/usr/include/nghttp3/nghttp3.h]=libnghttp3-dev
  [/usr/lib/nginx/modules/ngx_http_brotli_static_module.so]=libnginx-mod-http-brotli-static
)
missing=()
for cmd in "${!PKG[@]}"; do command -v "$cmd" >/dev/null 2>&1 || missing+=("${PKG[$cmd]}"); done
for f in "${!FILE_PKG[@]}"; do [ -e "$f" ] || missing+=("${FILE_PKG[$f]}"); done
# clang's fuzzer and sanitizer runtimes
if command -v clang >/dev/null 2>&1 && ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  missing+=(libclang-rt-dev)
fi
# Python modules (from PyPI) -> pip package
declare -A PY_PKG=( [pylsqpack]=pylsqpack )
missing_py=()
for mod in "${!PY_PKG[@]}"; do python3 -c "import $mod" >/dev/null 2>&1 || missing_py+=("${PY_PKG[$mod]}"); done
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u | sed '/^$/d')

case "${1:-check}" in
  check)
    if [ ${#missing[@]} -eq 0 ] && [ ${#missing_py[@]} -eq 0 ]; then echo "system-deps: all present"; exit 0; fi
    [ ${#missing[@]} -eq 0 ] || echo "system-deps: missing Debian packages: ${missing[*]}"
    [ ${#missing_py[@]} -eq 0 ] || echo "system-deps: missing Python packages: ${missing_py[*]} (pip install ${missing_py[*]})"
    echo "system-deps: install them with: bash scripts/system-deps.sh install"
    exit 1 ;;
  install)
    if [ ${#missing_py[@]} -gt 0 ]; then
      echo "system-deps: pip installing ${missing_py[*]}"
      python3 -m pip install -q "${missing_py[@]}" 2>/dev/null || python3 -m pip install -q --break-system-packages "${missing_py[@]}" \
        || echo "system-deps: pip failed; tests that need ${missing_py[*]} will be skipped" >&2
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
