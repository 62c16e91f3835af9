#!/usr/bin/env bash
# tools/matrix.sh - the preemption-model x CPU-count matrix of issue 4:
# build each PREEMPT model once (BUILD-<model>) and run the kernel
# self-tests under TCG for every SMP count.  Prints one line per cell and
# a summary; exits non-zero if any cell failed.
#
#   tools/matrix.sh [-m "none voluntary desktop rt"] [-s "1 2 4"] [-b build-m]
#
# Each model's build log is BUILD-<model>/build.log, each cell's log
# BUILD-<model>/kernel-test-smp<N>.log: all inside the (ignored) build
# dirs, so a run leaves `git status` clean.  Cells of one
# model run one after another (they share the build dir); the host tests
# are `make test`'s business, not repeated here.
set -uo pipefail
cd "$(dirname "$0")/.."
MODELS="none voluntary desktop rt"
SMPS="1 2 4"
BASE=build-m
TIMEOUT=${TIMEOUT:-240}
while getopts "m:s:b:" o; do
	case $o in
	m) MODELS=$OPTARG ;;
	s) SMPS=$OPTARG ;;
	b) BASE=$OPTARG ;;
	*) echo "usage: $0 [-m models] [-s smp-counts] [-b build-base]" >&2; exit 2 ;;
	esac
done
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
fails=()
cells=0
for m in $MODELS; do
	b="$BASE-$m"
	mkdir -p "$b"
	if ! make -s -j"$JOBS" BUILD="$b" PREEMPT="$m" "$b/rtk.elf" >"$b/build.log" 2>&1; then
		echo "matrix: PREEMPT=$m: build FAILED (see $b/build.log)"
		tail -20 "$b/build.log"
		fails+=("$m:build")
		continue
	fi
	for s in $SMPS; do
		cells=$((cells + 1))
		log="$b/kernel-test-smp$s.log"
		t0=$(date +%s)
		out=$(python3 tools/harness.py --elf "$b/rtk.elf" --smp "$s" \
			--timeout "$TIMEOUT" --log "$log" 2>&1)
		rc=$?
		sum=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped' | tail -1)
		printf 'matrix: PREEMPT=%-9s SMP=%s  %-36s %3ss%s\n' "$m" "$s" \
			"${sum:-no summary}" "$(( $(date +%s) - t0 ))" \
			"$([ $rc -eq 0 ] || echo '  FAILED')"
		if [ $rc -ne 0 ]; then
			printf '%s\n' "$out" | grep -E '^(FAIL|#|not ok)' | head -20
			fails+=("$m:smp$s")
		fi
	done
done
if [ ${#fails[@]} -ne 0 ]; then
	echo "matrix: ${#fails[@]} of $cells cells FAILED: ${fails[*]}"
	exit 1
fi
echo "matrix: all $cells cells passed"
