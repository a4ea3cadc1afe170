#!/usr/bin/env bash
# The fresh-root install test (issue 22): the .deb installs with apt on a
# minimal Debian 12 and the installed app opens its window.
#
#   install-test.sh PKGDIR      (where make package put the .deb)
#
# 1. A minimal bookworm root from debootstrap, made once and kept as a tar
#    in ${XDG_CACHE_HOME:-~/.cache}/gatehouse, named by a hash of the
#    debootstrap arguments (a clean clone reuses it; the first run makes it).
#    The mirror is the one this machine's apt uses (/etc/apt/sources.list*),
#    or DEBIAN_MIRROR. Downloaded .debs are kept beside it for the next run.
# 2. A copy of it in a scratch folder beside the cache (not in the clone,
#    where go ./... patterns would walk it); in a private mount namespace
#    (nothing leaks to the host, even on a crash) /proc, /sys, /dev and /tmp
#    are mounted into it; `apt-get install ./gatehouse_*.deb` runs inside.
# 3. Checks: no -dev package came in, ldd finds every library, the files
#    are where the menu looks; then the desktop smoke test runs the
#    installed /usr/bin/gatehouse inside the root against an Xvfb on the host
#    (its socket is in the shared /tmp).
# KEEP_DEBROOT=1 keeps the root for a look after the run.
set -euo pipefail

suite=bookworm
variant=minbase
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

say() { printf '== [%4ss] %s\n' "$SECONDS" "$*" >&2; }
die() { printf 'install-test: %s\n' "$*" >&2; exit 1; }

# uri_for SUITE: the first Debian archive URI this machine's apt uses for
# SUITE, from one-line (.list) or deb822 (.sources) files.
uri_for() {
	local want=$1 f
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		awk -v want="$want" '$1 == "deb" { sub(/\[[^]]*\]/, ""); if ($3 == want) { print $2; exit } }' "$f"
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk -v want="$want" 'BEGIN { RS = ""; FS = "\n" }
			{
				types = ""; uris = ""; suites = ""; enabled = "yes"
				for (i = 1; i <= NF; i++) {
					if ($i ~ /^Types:/) types = substr($i, 7)
					else if ($i ~ /^URIs:/) uris = substr($i, 6)
					else if ($i ~ /^Suites:/) suites = substr($i, 8)
					else if ($i ~ /^Enabled:/) enabled = substr($i, 9)
				}
				if (types !~ /(^| )deb( |$)/ || enabled ~ /no/) next
				n = split(suites, s, " ")
				for (j = 1; j <= n; j++) if (s[j] == want) { split(uris, u, " "); print u[1]; exit }
			}' "$f"
	done | head -n1
}

if [ "${1:-}" != --inside ]; then
	[ $# -eq 1 ] || die "usage: $0 PKGDIR"
	debs=("$1"/gatehouse_*.deb)
	[ ${#debs[@]} = 1 ] && [ -f "${debs[0]}" ] || die "want one gatehouse_*.deb in $1, found: ${debs[*]} (make package makes it)"
	deb=$(realpath "${debs[0]}")
	if [ "$(id -u)" != 0 ]; then
		command -v sudo >/dev/null && sudo -n true 2>/dev/null ||
			die "needs root (debootstrap, chroot, mount): run as root or with passwordless sudo"
		exec sudo -E "$0" "$@"
	fi
	for tool in debootstrap unshare chroot Xvfb xdotool import; do
		command -v "$tool" >/dev/null || die "$tool is missing (make deps-apt installs it)"
	done
	mirror=${DEBIAN_MIRROR:-$(uri_for "$suite")}
	[ -n "$mirror" ] || die "no $suite archive in /etc/apt/sources.list*: set DEBIAN_MIRROR"
	arch=$(dpkg --print-architecture)
	cache=${XDG_CACHE_HOME:-$HOME/.cache}/gatehouse
	key=$(printf '%s\n' debootstrap --variant="$variant" --arch="$arch" "$suite" "$mirror" | sha256sum | cut -c1-16)
	tarball="$cache/debroot-$suite-$key.tar"
	archives="$cache/debroot-$suite-$key-archives"
	mkdir -p "$cache" "$archives/partial"
	work=$(mktemp -d "$cache/run.XXXXXX")
	root="$work/root"
	finish() {
		local rc=$?
		# Mounts live in private namespaces; check anyway before deleting.
		if grep -q " $work[/ ]" /proc/self/mounts; then
			echo "install-test: mounts left under $work; not deleting it" >&2
		elif [ "${KEEP_DEBROOT:-}" = 1 ] && [ -d "$root" ]; then
			say "kept $root"
		else
			rm -rf --one-file-system "$work"
		fi
		exit $rc
	}
	trap finish EXIT

	# The cached root, made under a lock so two runs never build it twice.
	exec 9>"$tarball.lock"
	flock 9
	if [ ! -f "$tarball" ]; then
		say "making the $suite root with debootstrap from $mirror (once; cached in $tarball)"
		fresh="$work/debootstrap"
		rm -rf --one-file-system "$fresh"
		# Its own mounts (/proc in the root) stay in a private namespace.
		unshare --mount --propagation private \
			debootstrap --variant="$variant" --arch="$arch" "$suite" "$fresh" "$mirror" >"$work/debootstrap.log" 2>&1 || {
			tail -n 40 "$work/debootstrap.log" >&2
			die "debootstrap failed"
		}
		rm -rf "$fresh"/var/cache/apt/archives/*.deb "$fresh"/var/lib/apt/lists/*
		tar -C "$fresh" --numeric-owner -cf "$tarball.part" .
		mv "$tarball.part" "$tarball"
		rm -rf --one-file-system "$fresh"
	fi
	flock -u 9

	mkdir -p "$root"
	say "unpacking the cached root"
	tar -C "$root" --numeric-owner -xpf "$tarball"

	# What a real install has: the archive's suites this machine uses, a
	# resolver, a machine id; services are not started in a chroot.
	{
		echo "deb $mirror $suite main"
		for extra in "$suite-updates" "$suite-security"; do
			uri=$(uri_for "$extra")
			[ -z "$uri" ] || echo "deb $uri $extra main"
		done
	} >"$root/etc/apt/sources.list"
	cp /etc/resolv.conf "$root/etc/resolv.conf"
	tr -d - </proc/sys/kernel/random/uuid >"$root/etc/machine-id"
	printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
	chmod 755 "$root/usr/sbin/policy-rc.d"
	cp "$deb" "$root/root/"

	unshare --mount --propagation private "$0" --inside "$root" "$archives" "$(basename "$deb")"
	exit
fi

# ---- inside the private mount namespace ---------------------------------
root=$2 archives=$3 debname=$4
mounted=()
cleanup() {
	local i
	for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
		umount -R "${mounted[i]}" 2>/dev/null || umount -lR "${mounted[i]}" || true
	done
}
trap cleanup EXIT
mnt() { # mnt TARGET mount-args...
	local target=$1
	shift
	mount "$@" "$target"
	mounted+=("$target")
}
mnt "$root/proc" -t proc proc
mnt "$root/sys" --rbind /sys
mnt "$root/dev" --rbind /dev
mnt "$root/tmp" --bind /tmp
mnt "$root/var/cache/apt/archives" --bind "$archives"

in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }

say "apt-get update"
in_root apt-get update -qq
say "apt-get install ./$debname"
# (unsafe-io: no fsync per file; this root is thrown away after the test)
in_root sh -c "cd /root && apt-get install -y -q --no-install-recommends -o Dpkg::Options::=--force-unsafe-io ./$debname" >"$root/root/apt-install.log" 2>&1 || {
	tail -n 60 "$root/root/apt-install.log" >&2
	exit 1
}
grep -E '^(Need to get|After this operation|[0-9]+ upgraded)' "$root/root/apt-install.log" >&2 || true

say "checking the installed files"
fail=0
check() { # check DESCRIPTION COMMAND...
	if ! "${@:2}"; then echo "FAIL: $1" >&2; fail=1; fi
}
in_root dpkg-query -W -f '${Status}\n' gatehouse | grep -qx 'install ok installed' || { echo "FAIL: gatehouse is not installed" >&2; exit 1; }
dev=$(in_root dpkg-query -W -f '${Package}\n' | grep -E -- '-dev(:|$)' || true)
check "no -dev package is installed (got: ${dev//$'\n'/ })" test -z "$dev"
# The app and each helper beside it: executable, every library found.
for f in $(in_root dpkg -L gatehouse | grep '^/usr/lib/gatehouse/.'); do
	check "$f is an executable file" test -f "$root$f" -a -x "$root$f"
	missing=$(in_root ldd "$f" 2>&1 | grep 'not found' || true)
	check "ldd finds every library of $f (missing: $missing)" test -z "$missing"
done
check "gatehouse --version runs" sh -c "chroot '$root' /usr/bin/gatehouse --version | grep -q '^gatehouse '"
check "gatehouse --help names its subcommands" sh -c "chroot '$root' /usr/bin/gatehouse --help | grep -q 'exec'"
check "the menu entry is installed" test -f "$root/usr/share/applications/gatehouse.desktop"
check "the menu entry runs the installed command" grep -qx 'Exec=gatehouse' "$root/usr/share/applications/gatehouse.desktop"
for size in 16 22 24 32 48 64 128 256 512; do
	check "a ${size}x${size} icon" test -s "$root/usr/share/icons/hicolor/${size}x${size}/apps/gatehouse.png"
done
check "the man page is gzipped roff" sh -c "gzip -dc '$root/usr/share/man/man1/gatehouse.1.gz' | grep -q '^\.TH GATEHOUSE 1'"
[ $fail = 0 ] || exit 1

say "desktop smoke test of the installed app"
launcher="$root/root/run-installed"
printf '#!/bin/sh\nexec chroot %q /usr/bin/gatehouse "$@"\n' "$root" >"$launcher"
chmod 755 "$launcher"
cd "$repo"
GATEHOUSE_BIN="$launcher" TMPDIR=/tmp GATEHOUSE_SMOKE_SHOT="${GATEHOUSE_SMOKE_SHOT:-}" \
	go test -tags desktop -count=1 -v ./internal/desktop/smoke/
say "install test passed"
