#!/usr/bin/env bash
# tools/deps.sh - check the host tools rtk needs; install only the missing
# Debian/Ubuntu packages with apt-get (through sudo when not root).
#
#   tools/deps.sh          everything `make`, `make test`, `make run`,
#                          `make iso-test`, `make bochs`, `make debug` and
#                          `make model-check` (spin) use
#   tools/deps.sh --ci     the same, never prompts (CI machines)
#   tools/deps.sh --fuzz   also clang, lld and the libFuzzer runtime
#
# Fast (a few dpkg-query/command -v calls) and silent when all is present.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

ci=0 fuzz=0
for arg in "$@"; do
	case "$arg" in
	--ci) ci=1 ;;
	--fuzz) fuzz=1 ;;
	-h|--help) sed -n '2,11p' "$0"; exit 0 ;;
	*) echo "deps.sh: unknown option $arg" >&2; exit 2 ;;
	esac
done

missing=()

# need PACKAGE TEST...: PACKAGE is missing unless every TEST passes.
# A TEST is "cmd:NAME" (on PATH), "path:FILE" (exists) or "any:GLOB" (some
# file matches: Ubuntu 24.04's ovmf has only the 4M images); with no TEST the
# package itself must be installed according to dpkg.
need() {
	local pkg=$1 t
	shift
	if [ $# -eq 0 ]; then
		pkg_installed "$pkg" || missing+=("$pkg")
		return
	fi
	for t in "$@"; do
		case "$t" in
		cmd:*) command -v "${t#cmd:}" >/dev/null 2>&1 || { missing+=("$pkg"); return; } ;;
		path:*) [ -e "${t#path:}" ] || { missing+=("$pkg"); return; } ;;
		any:*) compgen -G "${t#any:}" >/dev/null || { missing+=("$pkg"); return; } ;;
		esac
	done
}

pkg_installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'
}

need gcc cmd:gcc
need make cmd:make
need binutils cmd:ld cmd:nm
need nasm cmd:nasm
need grub-common cmd:grub-mkrescue
need grub-pc-bin path:/usr/lib/grub/i386-pc/modinfo.sh
need grub-efi-amd64-bin path:/usr/lib/grub/x86_64-efi/modinfo.sh
need xorriso cmd:xorriso
need mtools cmd:mformat
need qemu-system-x86 cmd:qemu-system-x86_64
need ovmf any:"/usr/share/OVMF/OVMF_CODE*.fd"
need bochs cmd:bochs
need bochsbios path:/usr/share/bochs/BIOS-bochs-latest
need vgabios path:/usr/share/vgabios/vgabios.bin
need python3 cmd:python3
need console-setup-linux path:/usr/share/consolefonts/Lat15-Terminus16.psf.gz
need gdb cmd:gdb
# the PI protocol's Promela model (model/pi/, make model-check)
need spin cmd:spin
# libasan/libubsan come with gcc on Debian; the host tests link them.
if [ $fuzz -eq 1 ]; then
	need clang cmd:clang
	need lld cmd:ld.lld
	# libFuzzer and the sanitizer runtimes of the installed clang.
	if command -v clang >/dev/null 2>&1; then
		ver=$(clang -dumpversion 2>/dev/null | cut -d. -f1)
		rt=$(clang -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null || true)
		if [ -z "$rt" ] || [ ! -e "$rt" ]; then
			if apt-cache show "libclang-rt-$ver-dev" >/dev/null 2>&1; then
				missing+=("libclang-rt-$ver-dev")
			else
				missing+=("libclang-common-$ver-dev")
			fi
		fi
	else
		missing+=(libclang-rt-14-dev)
	fi
fi

[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
	echo "deps.sh: missing: ${missing[*]}; no apt-get here, install them by hand" >&2
	exit 1
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
	if ! command -v sudo >/dev/null 2>&1; then
		echo "deps.sh: missing: ${missing[*]}; not root and no sudo" >&2
		exit 1
	fi
	sudo=(sudo)
	[ $ci -eq 1 ] && sudo=(sudo -n)
fi
echo "deps.sh: installing missing packages: ${missing[*]}"
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq </dev/null
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -y -q install \
	--no-install-recommends "${missing[@]}" </dev/null
echo "deps.sh: installed ${missing[*]}"
