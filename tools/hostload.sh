#!/usr/bin/env bash
# tools/hostload.sh - saturate the host's CPUs with busy loops while a
# command runs (issue 12, item 7: `make test` must pass on a busy host).
#
#   tools/hostload.sh [-n N] [-- CMD ARGS...]
#
# Starts N spinning processes (default: 2 x nproc; pure CPU, no I/O, nice
# 0 like the command itself), runs CMD, stops the spinners and exits with
# CMD's status.  Without CMD it spins until interrupted (ctrl-C, SIGTERM).
# The spinners are this script's children and are ended by their pids,
# nothing else is touched.
set -euo pipefail

n=$(( $(nproc 2>/dev/null || echo 1) * 2 ))
usage() { echo "usage: $0 [-n N] [-- CMD ARGS...]" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	-n) [ $# -ge 2 ] || usage; n=$2; shift 2 ;;
	--) shift; break ;;
	-h|--help) usage ;;
	*) break ;;
	esac
done
case $n in ''|*[!0-9]*) usage ;; esac

pids=()
stop() {
	[ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2>/dev/null || true
	wait "${pids[@]}" 2>/dev/null || true
	pids=()
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM	# until CMD runs (then: passed on to it)

for ((i = 0; i < n; i++)); do
	# a subshell spinning on a builtin: one CPU's worth of work, no forks
	( trap - EXIT INT TERM; while :; do :; done ) &
	pids+=($!)
done
echo "hostload: $n spinners on $(nproc) CPUs (pids ${pids[*]})" >&2

if [ $# -eq 0 ]; then
	while :; do sleep 3600 & wait $! || true; done
fi
# CMD in the background so that a TERM or INT reaches us at once (bash
# runs traps only between foreground commands); we pass it on to CMD.
set +e
"$@" &
cmd=$!
trap 'kill -TERM "$cmd" 2>/dev/null' INT TERM
while :; do
	wait "$cmd"
	rc=$?
	kill -0 "$cmd" 2>/dev/null || break	# else a trap interrupted wait
done
set -e
echo "hostload: command exited with status $rc" >&2
exit $rc
