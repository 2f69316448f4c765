#!/usr/bin/env bash
# Proves that build/CheckBundle.java can fail: it is run on doctored copies of the driver's bundle
# (after `mvn -Prelease -Dgpg.skip verify`) and must refuse each one, naming the fault.
set -euo pipefail
cd "$(dirname "$0")/.."

# the version of the bundle just built (a target/ may still hold an older version's jars)
version=$(sed -n 's|^  <version>\(.*\)</version>|\1|p' driver/target/.flattened-pom.xml | head -n 1)
published=sluice-driver,sluice-spring-boot-starter
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# a copy of the bundle as the build left it, which must pass
fresh() {
  rm -rf "$work/bundle" && mkdir "$work/bundle"
  cp driver/target/sluice-driver-"$version"*.jar driver/target/.flattened-pom.xml "$work/bundle/"
}

# runs the check on the doctored copy; it must exit 1 and say $1
refused() {
  local expected=$1 status=0
  java build/CheckBundle.java "$work/bundle/.flattened-pom.xml" "$work/bundle" sluice-driver \
    "$version" jar "$published" > "$work/out" 2>&1 || status=$?
  if [ "$status" -ne 1 ] || ! grep -qF -- "$expected" "$work/out"; then
    echo "check-bundle-selftest: expected a refusal saying '$expected', got exit $status:"
    cat "$work/out"
    exit 1
  fi
  echo "check-bundle-selftest: refused as expected: $(grep -F -- "$expected" "$work/out" | head -n 1)"
}

fresh
java build/CheckBundle.java "$work/bundle/.flattened-pom.xml" "$work/bundle" sluice-driver \
  "$version" jar "$published"

fresh
rm "$work/bundle/sluice-driver-$version-javadoc.jar"
refused "sluice-driver-$version-javadoc.jar is missing"

fresh
rm "$work/bundle/sluice-driver-$version-sources.jar"
refused "sluice-driver-$version-sources.jar is missing"

fresh
sed -i '0,/<url>[^<]*<\/url>/s//<url>${sluice.url}<\/url>/' "$work/bundle/.flattened-pom.xml"
refused 'keeps an unresolved property in <url>: ${sluice.url}'

fresh
sed -i 's#<artifactId>jedis</artifactId>#<artifactId>jedis</artifactId></dependency><dependency><groupId>dev.sluice</groupId><artifactId>sluice-it</artifactId><version>1</version>#' \
  "$work/bundle/.flattened-pom.xml"
refused "depends on dev.sluice:sluice-it, which is never published"

fresh
mkdir "$work/bundle/x"
(cd "$work/bundle/x" && jar xf "../sluice-driver-$version.jar" && rm META-INF/LICENSE \
  && jar cfM "../sluice-driver-$version.jar" .)
refused "sluice-driver-$version.jar holds no META-INF/LICENSE"

fresh
rm "$work/bundle/.flattened-pom.xml"
refused ".flattened-pom.xml is missing"

fresh
sed -i 's#<licenses>.*##; /<license>/,/<\/licenses>/d' "$work/bundle/.flattened-pom.xml"
refused "has no licenses/license/name"
