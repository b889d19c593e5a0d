#!/usr/bin/env bash
#
# Builds the benchmarks module (with spark-runtime and the modules it needs) and runs one
# benchmark's main class with the JVM options Spark needs on Java 17.
#
#   benchmarks/run.sh [load-and-scan | upsert | bucket-join | cross-partition | changelog | peers | planning | jmh]
#                     [--rows N] [--reps K] [--warmups W] [--rounds R] [--parquet-only]
#                     [--producers none,input] [--systems parquet,iceberg,delta,basalt,basalt-dv]
#
# The first argument, if it does not start with '-', names the benchmark:
#   load-and-scan  io.basalt.benchmarks.LoadAndScanBenchmark (the default)
#   upsert         io.basalt.benchmarks.UpsertBenchmark
#   bucket-join    io.basalt.benchmarks.BucketJoinBenchmark
#   cross-partition io.basalt.benchmarks.CrossPartitionBenchmark
#   changelog      io.basalt.benchmarks.ChangelogBenchmark (--producers: the changelog producers to
#                  compare, the first is the baseline; default none,input)
#   peers          io.basalt.benchmarks.PeerBenchmark: issue 19's workload on Parquet, Iceberg, Delta
#                  and Basalt in one session, as ratios to Parquet in a markdown table (--systems:
#                  which systems; default all five)
#   planning       io.basalt.benchmarks.PlanningBenchmark: planning a 10,000-file table (cold and
#                  warm manifest cache) against Spark listing the same files (--files, --buckets, --reps)
#   orc-scan       io.basalt.benchmarks.OrcScanBenchmark: full scans of a Basalt ORC table (columnar
#                  and rows) against Spark's own ORC source on the same rows
#   lookup-breakdown io.basalt.benchmarks.LookupBreakdown: a point lookup's time by phase (analysis,
#                  optimizer, physical planning, execution, tasks) on Parquet and Basalt, and the
#                  engine's driver steps alone, after the load and after 5 upserts
#   jmh            JMH's own runner (org.openjdk.jmh.Main) over the micro-benchmarks in
#                  io.basalt.benchmarks.jmh; the remaining arguments are JMH's (e.g. a name regex,
#                  -f 1 -wi 3 -i 5 -prof gc)
#
# Environment: BASALT_BENCH_HEAP (default 4g), JAVA_HOME, MVN. See benchmarks/README.md.
set -euo pipefail

bench_dir=$(cd -P "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd -P "$bench_dir/.." && pwd)
root_pom="$root/pom.xml"

die() {
  echo "run.sh: $*" >&2
  exit 1
}

benchmark=load-and-scan
if [[ $# -gt 0 && "$1" != -* ]]; then
  benchmark=$1
  shift
fi
case "$benchmark" in
  load-and-scan) main_class=io.basalt.benchmarks.LoadAndScanBenchmark ;;
  upsert) main_class=io.basalt.benchmarks.UpsertBenchmark ;;
  bucket-join) main_class=io.basalt.benchmarks.BucketJoinBenchmark ;;
  cross-partition) main_class=io.basalt.benchmarks.CrossPartitionBenchmark ;;
  changelog) main_class=io.basalt.benchmarks.ChangelogBenchmark ;;
  peers) main_class=io.basalt.benchmarks.PeerBenchmark ;;
  planning) main_class=io.basalt.benchmarks.PlanningBenchmark ;;
  orc-scan) main_class=io.basalt.benchmarks.OrcScanBenchmark ;;
  lookup-breakdown) main_class=io.basalt.benchmarks.LookupBreakdown ;;
  jmh) main_class=org.openjdk.jmh.Main ;;
  *) die "unknown benchmark '$benchmark' (expected load-and-scan, upsert, bucket-join, cross-partition, changelog, peers, planning, orc-scan, lookup-breakdown or jmh)" ;;
esac

# The root pom has no parent, so its first <version> is the project version.
version=$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' "$root_pom" | head -n 1)
[[ -n "$version" ]] || die "cannot read the project version from $root_pom"
jvm_options=$(sed -n 's:.*<spark.jvm.options>\(.*\)</spark.jvm.options>.*:\1:p' "$root_pom")
[[ -n "$jvm_options" ]] || die "cannot read the property spark.jvm.options from $root_pom"
read -r -a spark_jvm_options <<< "$jvm_options"

# Always rebuild, so the numbers are for the current sources. One Maven run both packages the
# modules and writes the classpath; -am lets it resolve Basalt's modules from this build.
# includeScope=compile covers Spark, which is a provided dependency.
classpath_file="$bench_dir/target/benchmarks.classpath"
echo "run.sh: building benchmarks (mvn -Pbench package)" >&2
log=$(mktemp)
if ! ${MVN:-mvn} -B -q -f "$root_pom" -Pbench -DskipTests -pl benchmarks -am \
    package dependency:build-classpath \
    -Dmdep.outputFile=target/benchmarks.classpath -DincludeScope=compile >"$log" 2>&1; then
  cat "$log" >&2
  rm -f "$log"
  die "the Maven build failed"
fi
rm -f "$log"
[[ -s "$classpath_file" ]] || die "Maven did not write $classpath_file"

bench_jar="$bench_dir/target/basalt-benchmarks-$version.jar"
[[ -f "$bench_jar" ]] || die "missing $bench_jar"

export SPARK_LOCAL_IP="${SPARK_LOCAL_IP:-127.0.0.1}"
java_cmd="${JAVA_HOME:+$JAVA_HOME/bin/}java"
exec "$java_cmd" "${spark_jvm_options[@]}" -Xmx"${BASALT_BENCH_HEAP:-4g}" \
  -cp "$bench_jar:$(<"$classpath_file")" \
  "$main_class" "$@"
