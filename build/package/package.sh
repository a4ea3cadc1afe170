#!/usr/bin/env bash
# Builds the Debian package and a .tar.gz of the same files (issue 22).
#
#   package.sh OUTDIR VERSION APPBIN [HELPER...]
#
# APPBIN and every HELPER go to /usr/lib/gatehouse (helpers beside the app,
# which finds them through its own resolved path); /usr/bin/gatehouse links to
# the app. Icons in the hicolor sizes are made from build/appicon.png with
# ImageMagick. Depends comes from dpkg-shlibdeps on the binaries. Only Debian
# tools: dpkg-deb, dpkg-shlibdeps, convert, gzip, tar.
set -euo pipefail

[ $# -ge 3 ] || { echo "usage: $0 OUTDIR VERSION APPBIN [HELPER...]" >&2; exit 2; }
out=$1 version=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
for tool in dpkg-deb dpkg-shlibdeps convert gzip; do
	command -v "$tool" >/dev/null || { echo "package: $tool is missing (apt packages dpkg-dev, imagemagick)" >&2; exit 1; }
done
for f in "$@"; do
	[ -x "$f" ] || { echo "package: $f is not an executable file" >&2; exit 1; }
done

# Debian versions start with a digit and use + where git describe uses -.
debver=${version#v}
case $debver in [0-9]*.*) ;; *) debver="0~git$debver" ;; esac
debver=${debver//-/+}
arch=$(dpkg --print-architecture)
name="gatehouse_${debver}_${arch}"
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$repo" log -1 --format=%ct 2>/dev/null || date +%s)}

mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out/stage" "$out"/gatehouse[-_]*.deb "$out"/gatehouse[-_]*.tar.gz
stage="$out/stage/$name"
lib="$stage/usr/lib/gatehouse"
mkdir -p "$lib" "$stage/usr/bin" "$stage/DEBIAN"

for f in "$@"; do
	install -m 0755 "$f" "$lib/$(basename "$f")"
done
ln -s ../lib/gatehouse/gatehouse "$stage/usr/bin/gatehouse"
install -D -m 0644 "$here/gatehouse.desktop" "$stage/usr/share/applications/gatehouse.desktop"
for size in 16 22 24 32 48 64 128 256 512; do
	dir="$stage/usr/share/icons/hicolor/${size}x${size}/apps"
	mkdir -p "$dir"
	convert "$repo/build/appicon.png" -resize "${size}x${size}" -strip "png32:$dir/gatehouse.png"
done
mkdir -p "$stage/usr/share/man/man1" "$stage/usr/share/doc/gatehouse"
sed "s/@VERSION@/$version/" "$here/gatehouse.1" | gzip -9n >"$stage/usr/share/man/man1/gatehouse.1.gz"
install -m 0644 "$here/copyright" "$stage/usr/share/doc/gatehouse/copyright"

# Depends: the packages holding the libraries the binaries link (WebKitGTK,
# GTK, GLib, libc …). dpkg-shlibdeps wants a source tree's debian/control.
shl="$out/stage/shlibs"
mkdir -p "$shl/debian"
printf 'Source: gatehouse\n\nPackage: gatehouse\nArchitecture: any\n' >"$shl/debian/control"
dynamic=()
for f in "$lib"/*; do
	[ -L "$f" ] && continue
	if LC_ALL=C readelf -d "$f" 2>/dev/null | grep -q '(NEEDED)'; then dynamic+=("$f"); fi
done
depends=$(cd "$shl" && dpkg-shlibdeps -O "${dynamic[@]}" 2>"$out/stage/shlibdeps.log" | sed -n 's/^shlibs:Depends=//p') || {
	cat "$out/stage/shlibdeps.log" >&2
	exit 1
}
[ -n "$depends" ] || { echo "package: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
if grep -Eq -- '-dev( |,|$)' <<<"$depends"; then
	echo "package: Depends names a -dev package: $depends" >&2
	exit 1
fi

size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
cat >"$stage/DEBIAN/control" <<CONTROL
Package: gatehouse
Version: $debver
Architecture: $arch
Maintainer: Gatehouse <gatehouse@localhost>
Installed-Size: $size
Depends: $depends
Section: devel
Priority: optional
Description: desktop coding agent that asks before it changes anything
 Gatehouse opens a folder and chats with an OpenAI-compatible model. Every
 file edit and command the model wants to make passes a gate you control,
 with the diff or the parsed command in front of you before anything
 changes.
CONTROL

dpkg-deb --root-owner-group -Zxz --build "$stage" "$out/$name.deb" >/dev/null
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" \
	--exclude=./DEBIAN --transform "s|^\./|gatehouse-$debver/|" \
	-C "$stage" -czf "$out/gatehouse-${debver}-linux-${arch}.tar.gz" .
echo "$out/$name.deb"
echo "$out/gatehouse-${debver}-linux-${arch}.tar.gz"
