#!/bin/bash
# slim-jar JAR KEEP DROP...: rewrites JAR without the files under the folders DROP but those under KEEP (the
# native code of other systems than this one). Uses only the JDK's jar tool.
set -euo pipefail
jar=$1 keep=$2
shift 2
work=$(mktemp -d)
(cd "$work" && jar xf "$jar")
for drop in "$@"; do
  [[ -d $work/$drop ]] || continue
  find "$work/$drop" -type f ! -path "$work/$keep/*" -delete
  find "$work/$drop" -type d -empty -delete
done
jar --create --file "$jar.new" --manifest "$work/META-INF/MANIFEST.MF" -C "$work" .
mv "$jar.new" "$jar"
rm -rf "$work"
