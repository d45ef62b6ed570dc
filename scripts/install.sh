#!/usr/bin/env bash
# Installs what reverify needs on a Debian machine with Go and builds the
# binary into bin/reverify. The Dockerfile and .ci/run both run this script,
# so the Action's image and CI are built the same way.
#
#   scripts/install.sh            # install missing packages, build bin/reverify
#   PREFIX=/usr/local scripts/install.sh   # also copy the binary to $PREFIX/bin
#   REVERIFY_VERSION=1.2.3 scripts/install.sh   # stamp the version (-ldflags -X main.version)
#   REVERIFY_INSTALL=build scripts/install.sh   # only what building needs (the Dockerfile)
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
dpkg -s libz3-dev >/dev/null 2>&1 || need+=(libz3-dev)
command -v gcc >/dev/null 2>&1 || need+=(gcc)
command -v git >/dev/null 2>&1 || need+=(git)
# The rest serves running reverify and its tests, not building it
# (REVERIFY_INSTALL=build skips it).
if [ "${REVERIFY_INSTALL:-all}" != build ]; then
	# gcc-multilib lets reproducers of ILP32 tasks build with -m32;
	# qemu-user (qemu-i386) runs them on kernels that cannot execute
	# 32-bit programs ("exec format error").
	dpkg -s gcc-multilib >/dev/null 2>&1 || need+=(gcc-multilib)
	command -v qemu-i386 >/dev/null 2>&1 || need+=(qemu-user)
	# clang and llvm (llvm-dis, llvm-link) serve the LLVM front end: .ll
	# and .bc inputs and --frontend clang; without them only those are
	# refused.
	command -v clang >/dev/null 2>&1 || need+=(clang)
	command -v llvm-link >/dev/null 2>&1 || need+=(llvm)
fi
if ((${#need[@]})); then
	sudo=""
	[ "$(id -u)" = 0 ] || sudo=sudo
	echo "installing: ${need[*]}" >&2
	$sudo apt-get update -qq
	# gcc-multilib, qemu-user, clang and llvm are optional: without the
	# first two ILP32 reproducers are not built or not run where the
	# kernel refuses them; without the last two LLVM inputs are refused.
	required=()
	for p in "${need[@]}"; do
		case $p in gcc-multilib | qemu-user | clang | llvm) ;; *) required+=("$p") ;; esac
	done
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null ||
		{ ((${#required[@]} == 0)) || DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${required[@]}" >/dev/null; }
fi

mkdir -p bin
ldflags=()
[ -z "${REVERIFY_VERSION:-}" ] || ldflags=(-ldflags "-X main.version=${REVERIFY_VERSION#v}")
CGO_ENABLED=1 go build -trimpath "${ldflags[@]}" -o bin/reverify ./cmd/reverify
if [ -n "${PREFIX:-}" ]; then
	install -D bin/reverify "$PREFIX/bin/reverify"
fi
