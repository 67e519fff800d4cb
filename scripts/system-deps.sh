#!/usr/bin/env bash
# The Debian packages the tests and benchmarks use, a few PyPI packages, and h2spec (built with Go).
#   system-deps.sh check    lists what is missing (exit 1 if anything is)
#   system-deps.sh install  installs what is missing (Debian packages need root and apt-get)
set -uo pipefail
# command -> Debian package
declare -A PKG=(
  [curl]=curl [openssl]=openssl [chromium]=chromium [wrk]=wrk [h2load]=nghttp2-client
  [nginx]=nginx [brotli]=brotli [zstd]=zstd [xz]=xz-utils [valgrind]=valgrind [clang]=clang
  [taskset]=util-linux [python3]=python3 [certutil]=libnss3-tools [h2o]=h2o
  [prometheus]=prometheus
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
# clang's fuzzer and sanitizer runtimes: a separate package, also when clang itself is installed
# in the same run (on a fresh machine it is missing too)
if ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  missing+=(libclang-rt-dev)
fi
# h2spec, the HTTP/2 conformance suite test/integration/h2spec.test.js runs, is a Go module: `go install`
# puts it in $(go env GOPATH)/bin, where the test looks after PATH. The newest release (v2.2.1,
# reports itself as 2.0.0) has no go.mod, hence +incompatible.
H2SPEC_MODULE=github.com/summerwind/h2spec/cmd/h2spec@v2.2.1+incompatible
h2spec_path() {
  command -v h2spec 2>/dev/null && return
  command -v go >/dev/null 2>&1 || return 1
  local bin; bin="$(go env GOPATH)/bin/h2spec"
  [ -x "$bin" ] && echo "$bin"
}
install_h2spec() {
  h2spec_path >/dev/null && return
  if ! command -v go >/dev/null 2>&1; then
    echo "system-deps: Go is not installed, so h2spec cannot be built; test/integration/h2spec.test.js will be skipped" >&2
    return
  fi
  echo "system-deps: building h2spec ($H2SPEC_MODULE)"
  go install "$H2SPEC_MODULE" || echo "system-deps: go install $H2SPEC_MODULE failed; test/integration/h2spec.test.js will be skipped" >&2
}
# Without Go, Debian's golang-go builds it.
if ! h2spec_path >/dev/null && ! command -v go >/dev/null 2>&1; then missing+=(golang-go); fi
# Python modules (from PyPI) -> pip package
# aioquic: the HTTP/3 client of the h3 tests (it verifies the local CA) and of npm run bench:h3.
declare -A PY_PKG=( [pylsqpack]=pylsqpack [hpack]=hpack [aioquic]=aioquic )
missing_py=()
# pip itself comes from Debian where it is missing.
python3 -m pip --version >/dev/null 2>&1 || missing+=(python3-pip)
for mod in "${!PY_PKG[@]}"; do python3 -c "import $mod" >/dev/null 2>&1 || missing_py+=("${PY_PKG[$mod]}"); done
# Python tools with a command (from PyPI) -> pip package: REDbot checks HTTP/1.1 responses.
declare -A PY_CMD=( [redbot]=redbot )
for cmd in "${!PY_CMD[@]}"; do command -v "$cmd" >/dev/null 2>&1 || missing_py+=("${PY_CMD[$cmd]}"); done
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u | sed '/^$/d')

case "${1:-check}" in
  check)
    status=0
    if path=$(h2spec_path); then echo "system-deps: h2spec at $path"
    else echo "system-deps: h2spec missing: go install $H2SPEC_MODULE  (or: bash scripts/system-deps.sh install)"; status=1; fi
    if [ ${#missing_py[@]} -gt 0 ]; then
      echo "system-deps: missing Python packages: ${missing_py[*]} (pip install ${missing_py[*]})"; status=1
    fi
    if [ ${#missing[@]} -eq 0 ]; then echo "system-deps: all Debian packages present"; exit $status; fi
    echo "system-deps: missing Debian packages: ${missing[*]}"
    echo "system-deps: install them with: sudo apt-get install -y ${missing[*]}  (or: bash scripts/system-deps.sh install)"
    exit 1 ;;
  install)
    if [ ${#missing[@]} -eq 0 ]; then
      echo "system-deps: all Debian packages present"
    elif [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
      echo "system-deps: cannot install ${missing[*]} (needs root and apt-get); tests that need them will be skipped" >&2
    else
      echo "system-deps: installing ${missing[*]}"
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
        || echo "system-deps: apt-get failed; tests that need ${missing[*]} will be skipped" >&2
    fi
    if [ ${#missing_py[@]} -gt 0 ]; then
      echo "system-deps: pip installing ${missing_py[*]}"
      python3 -m pip install -q "${missing_py[@]}" 2>/dev/null || python3 -m pip install -q --break-system-packages "${missing_py[@]}" \
        || echo "system-deps: pip failed; tests that need ${missing_py[*]} will be skipped" >&2
    fi
    install_h2spec
    exit 0 ;;
  *) echo "usage: system-deps.sh check|install" >&2; exit 2 ;;
esac
