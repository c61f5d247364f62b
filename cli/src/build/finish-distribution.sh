#!/usr/bin/env bash
# Finishes the distribution cli/target/cairn/ after Maven copied the jars into lib/ (cli/pom.xml runs
# this at package): upgrades picocli's Java 5 class files so the JDK's caches can hold them
# (UpgradeClassFiles.java), writes lib/classpath in a fixed order, makes bin/cairn executable, and
# records the start-up cache with a training run of the everyday commands (Training.java): an AOT
# cache on JDK 25 and newer, nothing on older JDKs (the launcher then keeps a per-user CDS archive).
# Then the man pages (share/man/man1, ManPages.java), the reference page of the documentation site
# (../docs/cli.md, ReferencePage.java) and the bash/zsh completion script
# (share/bash-completion/completions/cairn), and it packs cairn-<version>.tar.gz beside the directory.
#
#   finish-distribution.sh DIST_DIR CLI_JAR ASM_JAR VERSION
set -euo pipefail

dist=$1 cli_jar=$2 asm=$3 version=$4
build=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
java=${JAVA_HOME:?the JDK that builds is the one whose cache is recorded}/bin/java

cp -R "$build/../main/dist/." "$dist/"
cp "$cli_jar" "$dist/lib/cairn-cli.jar"

for jar in "$dist"/lib/picocli-*.jar; do
  "$java" -cp "$asm" "$build/UpgradeClassFiles.java" "$jar"
done

# cairn-cli first, then its libraries by name: the order the cache was recorded with
(cd "$dist/lib" && echo cairn-cli.jar && ls ./*.jar | sed 's|^\./||' | grep -v '^cairn-cli') | paste -sd: >"$dist/lib/classpath"
chmod +x "$dist/bin/cairn"

major=$("$java" -version 2>&1 | awk -F'"' '/version/ { print $2; exit }')
major=${major%%[!0-9]*}
rm -f "$dist/lib/cairn.aot" "$dist/lib/cairn.aot.jdk"
if ((major >= 25)); then
  classpath=$(<"$dist/lib/classpath")
  "$java" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xms16m -XX:-UsePerfData --enable-native-access=ALL-UNNAMED \
    -XX:AOTCacheOutput="$dist/lib/cairn.aot" -Xlog:aot=error -Xlog:cds=error \
    -cp "$dist/lib/${classpath//:/:$dist/lib/}" dev.cairn.cli.Training "$build/training.txt"
  jdk=$(dirname "$(dirname "$(readlink -f "$java")")")
  printf '%s %s' "$jdk" "$(sed -n 's/^JAVA_VERSION="\(.*\)"$/\1/p' "$jdk/release")" >"$dist/lib/cairn.aot.jdk"
fi

# man pages and the completion script, from the same model as --help
classpath=$(<"$dist/lib/classpath")
"$java" -cp "$dist/lib/${classpath//:/:$dist/lib/}" dev.cairn.cli.ManPages "$dist/share/man/man1"
# the same as one Markdown page for the documentation site (.ci/docs copies it in), beside the distribution
"$java" -cp "$dist/lib/${classpath//:/:$dist/lib/}" dev.cairn.cli.ReferencePage "$(dirname "$dist")/docs/cli.md"
# `cairn --help` as a file the launcher prints without starting a JVM: the root's help is the same
# text every time, made here from the same model
"$java" -cp "$dist/lib/${classpath//:/:$dist/lib/}" dev.cairn.cli.CairnCommand --help >"$dist/lib/help.txt"
mkdir -p "$dist/share/bash-completion/completions"
"$java" -cp "$dist/lib/${classpath//:/:$dist/lib/}" dev.cairn.cli.CairnCommand completion >"$dist/share/bash-completion/completions/cairn"

tar -C "$(dirname "$dist")" -czf "$(dirname "$dist")/cairn-$version.tar.gz" "$(basename "$dist")"
echo "cairn distribution: $dist (and cairn-$version.tar.gz)"
