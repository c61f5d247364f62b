#!/bin/bash
# runtime-root.sh DEST PACKAGE...: the root file system of the server's image, made in DEST from a Debian-based
# image: the files of the packages named (documentation, manual pages, translations and glibc's charset
# converters left out) and every shared library their programs load, with the system's users and groups and a
# dpkg status that lists what is there, for scanners. Nothing else of the base comes along (no apt, dpkg, perl or
# debconf): the server needs only glibc, and its jobs' scripts a shell and the usual commands. A program that
# needs a library missing from DEST fails the build, naming both.
set -euo pipefail
dest=$1
shift
arch=$(dpkg --print-architecture)

# A path with its folder resolved (/bin/bash is /usr/bin/bash where /bin links to usr/bin), relative to /
canonical() {
  local dir
  dir=$(readlink -f "$(dirname "/$1")")
  dir=${dir#/}
  printf '%s\n' "${dir:+$dir/}$(basename "$1")"
}

copy() { # copies paths as they are (links as links, not what they name), with their parent folders
  tar -C / --no-recursion -cf - "$@" | tar -C "$dest" --keep-directory-symlink -xf -
}

mkdir -p "$dest"
# the merged /usr's links (/bin -> usr/bin, ...), as the base has them
for link in bin sbin lib lib32 lib64 libx32; do
  if [[ -L /$link ]]; then copy "$link"; fi
done
packages=()
for p in "$@"; do
  dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' \
    || { echo "runtime-root: $p is not installed in the base image" >&2; exit 1; }
  packages+=("$p")
done
for p in "${packages[@]}"; do
  dpkg-query -L "$p" | grep -v -E '^/\.?$' | while read -r f; do
    if [[ -e $f || -L $f ]]; then canonical "${f#/}"; fi
  done
done | grep -v -E '^(usr/share/(doc|man|info|locale|lintian|bug)|usr/lib/[^/]*/gconv)(/|$)' | sort -u \
  >/tmp/runtime-root.files
# in path order, a folder before what it holds: tar makes it with the mode it has here
xargs -a /tmp/runtime-root.files -d '\n' tar -C / --no-recursion -cf - | tar -C "$dest" --keep-directory-symlink -xf -

# the shared libraries the programs load, until nothing new comes: the file a link names and the link
while :; do
  missing=$(find "$dest" -type f \( -perm -u+x -o -name '*.so*' \) -print0 \
    | { xargs -0 -r ldd 2>/dev/null || true; } | awk '/=> \// { print $3 } /not found/ { print "NOT-FOUND:" $1 }' | sort -u \
    | while read -r lib; do
        if [[ $lib == NOT-FOUND:* ]]; then echo "$lib"; continue; fi
        [[ -e $dest$lib ]] || echo "$lib"
      done)
  [[ -z $missing ]] && break
  if grep -q '^NOT-FOUND:' <<<"$missing"; then
    echo "runtime-root: libraries found nowhere: $(grep '^NOT-FOUND:' <<<"$missing" | tr '\n' ' ')" >&2
    exit 1
  fi
  for lib in $missing; do
    copy "$(canonical "${lib#/}")"
    target=$(readlink -f "$lib")
    copy "${target#/}"
    # dpkg knows a library by the path its package gives it, under /lib or /usr/lib
    owner=$({ dpkg-query -S "$lib" "/$(canonical "${lib#/}")" 2>/dev/null || true; } | head -n 1 | cut -d: -f1)
    if [[ -n $owner && ! " ${packages[*]} " =~ " ${owner} " ]]; then packages+=("$owner"); fi
  done
done

# the users and groups (the server's among them), name services, the loader's cache, a scratch folder
for f in etc/passwd etc/group etc/shadow etc/gshadow etc/nsswitch.conf etc/ld.so.cache etc/ld.so.conf; do
  if [[ -e /$f ]]; then copy "$f"; fi
done
if [[ -d /etc/ld.so.conf.d ]]; then tar -C / -cf - etc/ld.so.conf.d | tar -C "$dest" -xf -; fi
install -d -m 1777 "$dest/tmp" "$dest/var/tmp"

mkdir -p "$dest/var/lib/dpkg"
for p in "${packages[@]}"; do
  dpkg-query -s "$p"
  echo
done >"$dest/var/lib/dpkg/status"
echo "runtime-root: ${#packages[@]} packages for $arch, $(du -sh "$dest" | cut -f1): ${packages[*]}"
