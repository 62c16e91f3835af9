#!/usr/bin/env bash
# tools/user_host_test.sh BUILD_USER_DIR - run rtk's user programs on
# this Linux host (make user-host-test).  They are built for Linux's
# x86_64 ABI (user/README.md), so the same ELF files run here unchanged.
# One "PASS name" / "FAIL name (why)" line per check, a summary, and
# status 1 if any failed.  No timing asserts: every check reads an exit
# status or output that does not depend on the machine's speed.
# Needs SCHED_FIFO (root) for pidemo, pi_stress and cyclictest; without
# it those checks are SKIPped with the reason.  About 2 s.
set -u
dir=${1:?usage: tools/user_host_test.sh BUILD/user}
pass=0 fail=0 skip=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# check NAME EXPECTED_STATUS GREP_PATTERN PROG ARGS...: run PROG with a
# time limit, expect its status and a line matching the pattern.
check() {
	local name=$1 want=$2 pat=$3 prog=$4 rc
	shift 4
	timeout 60 "$dir/$prog.elf" "$@" >"$log" 2>&1
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		echo "FAIL $name (status $rc, expected $want)"; sed 's/^/    /' "$log" | tail -15
		fail=$((fail + 1))
	elif [ -n "$pat" ] && ! grep -Eq -- "$pat" "$log"; then
		echo "FAIL $name (no line matching /$pat/)"; sed 's/^/    /' "$log" | tail -15
		fail=$((fail + 1))
	else
		echo "PASS $name"
		pass=$((pass + 1))
	fi
}

skip() {
	echo "SKIP $1 ($2)"
	skip=$((skip + 1))
}

check "hello prints its arguments" 0 '^argv\[2\] = b$' hello a b
check "true exits 0" 0 '' true
check "false exits 1" 1 '' false
check "libtest: the library checks itself" 0 '^# libtest: [0-9]+ checks, 0 failed$' libtest
# t_signal checks rtk's signals against Linux's: it must pass here too
# (t_sigfuzz does not: Linux loads more of a random frame, which ends
# in SIGSEGV where rtk forces user values)
check "t_signal: Linux's signal semantics, every check" 0 \
	'^t_signal: [0-9]+ checks, 0 failed$' t_signal
check "t_signal term: killed by SIGTERM" 143 '' t_signal term
# t_requeue_pi: FUTEX_WAIT_REQUEUE_PI / FUTEX_CMP_REQUEUE_PI answer as Linux
check "t_requeue_pi: a PI condition variable" 0 '^t_requeue_pi: ok$' t_requeue_pi
check "cyclictest refuses -p 120" 1 'priority must be 1..99' cyclictest -p 120
# SCHED_FIFO needs root (CAP_SYS_NICE) and an RT budget (a container's
# cgroup may have none): ask chrt, or try as root when it is missing.
if command -v chrt >/dev/null; then
	chrt -f 1 true 2>/dev/null && can_fifo=1 || can_fifo=0
else
	[ "$(id -u)" -eq 0 ] && can_fifo=1 || can_fifo=0
fi
if [ "$can_fifo" = 1 ]; then
	check "cyclictest -S -p99 -i1000 -l200 -q" 0 \
		'^T: 0 \( *[0-9]+\) P:99 I:1000 C: +200 Min: ' \
		cyclictest -S -p99 -i1000 -l200 -q
	check "cyclictest -t 2 -l 100 -h 50 -q (histogram)" 0 \
		'^# Histogram Overflows: [0-9]+[[:space:]]+[0-9]+$' \
		cyclictest -t 2 -l 100 -i 500 -h 50 -q
	check "pidemo: PI bounds the wait, plain does not" 0 \
		'^pidemo-verdict: rounds=10 unexpected=0 result=PASS$' pidemo
	check "pi_stress --inversions 2000 (PI)" 0 \
		'result=PASS$' pi_stress --groups 2 --inversions 2000
	check "pi_stress --no-pi fails, as it must" 1 \
		'inversions=20 unresolved=20 .*result=FAIL$' \
		pi_stress --groups 1 --inversions 20 --no-pi
else
	for n in cyclictest pidemo pi_stress; do
		skip "$n" "SCHED_FIFO not allowed here (chrt -f 1 fails)"
	done
fi
# The initramfs: every program is in it under its name, byte for byte
# (GNU cpio reads it too, when installed: the format is Linux's newc);
# its other members (lib64/ and the test interpreter's symlink) are not
# programs: only the regular files count.
cpio_file=$dir/../initramfs.cpio
names=$(python3 tools/mkcpio.py --list "$cpio_file" | awk '$1 == "100755" {print $3}' | sort)
want=$(ls "$dir"/*.elf | xargs -n1 basename | sed 's/\.elf$//' | sort)
if [ "$names" = "$want" ]; then
	echo "PASS initramfs lists every program"; pass=$((pass + 1))
else
	echo "FAIL initramfs lists every program (has: $names; want: $want)"
	fail=$((fail + 1))
fi
if command -v cpio >/dev/null; then
	x=$(mktemp -d)
	if (cd "$x" && cpio -id --quiet <"$OLDPWD/$cpio_file") &&
		cmp -s "$x/hello" "$dir/hello.stripped" && "$x/hello" >/dev/null; then
		echo "PASS GNU cpio extracts hello, which runs"; pass=$((pass + 1))
	else
		echo "FAIL GNU cpio extracts hello, which runs"; fail=$((fail + 1))
	fi
	rm -rf "$x"
else
	skip "GNU cpio extracts the archive" "no cpio on this host"
fi
for t in "$dir"/*.elf; do
	case $(basename "$t" .elf) in
	hello | true | false | libtest | cyclictest | pidemo | pi_stress | t_signal | \
	t_requeue_pi) ;;
	*) skip "$(basename "$t" .elf)" "rtk-only test program (user/tests)" ;;
	esac
done
echo "user-host-test: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
