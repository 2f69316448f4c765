#!/usr/bin/env bash
# Builds benchmarks/target/benchmarks.jar and runs the whole suite, printing one markdown report
# (also written to benchmarks/target/report.md).
#
#   benchmarks/run.sh                    quick pass, under 10 minutes on 2 cores
#   benchmarks/run.sh --full             careful pass: 3 forks, longer iterations
#   benchmarks/run.sh --only bucket,tail a subset: bucket, tail, limiter, gate, jdbc, stub, reject, accuracy
#
# MAVEN_ARGS (for example -o) is passed to Maven.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q ${MAVEN_ARGS:-} package -pl benchmarks -am -DskipTests -Dmaven.javadoc.skip=true
exec java -Xms1g -Xmx1g -cp benchmarks/target/benchmarks.jar dev.sluice.bench.Suite "$@"
