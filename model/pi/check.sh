#!/usr/bin/env bash
# model/pi/check.sh - check the Promela model of rt_mutex's PI protocol
# (model/pi/README.md): every scenario of the real model must pass every
# property, and every mutant (one deliberate bug, -DMUTANT_<name>) must
# be caught by SPIN with a counterexample for the property it breaks;
# the trail's last steps are printed.  Exhaustive safety search
# (pan -DSAFETY: assertions and invalid end states).
#
#   bash model/pi/check.sh [-o DIR] [-q] [-m NAME] [-b]
#	-o DIR	work directory (default build/model)
#	-q	do not print the mutants' trails
#	-m NAME	check only mutant NAME (no scenarios, no findings)
#	-b	only the big scenarios (BIG_SCENARIOS: CHAIN3, 4 tasks and 3
#		locks, about 37 M states, 2.4 GB and 4-25 min; make
#		model-check-big, outside CI)
#   PROP_OFF=prop_x bash model/pi/check.sh
#	the same with the check of property prop_x removed: the mutant it
#	catches must then be reported NOT CAUGHT (the checker's own test)
#
# pan.c is compiled with -O0 (PAN_CFLAGS): gcc -O2 takes ten times longer
# on it than the whole search saves.
# Prints one line per run: scenario, mutant, states, time, verdict; exits
# non-zero when a scenario fails or a mutant is not caught.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=build/model
trails=1
only=
big=0
while getopts "o:qm:b" opt; do
	case $opt in
	o) out=$OPTARG ;;
	q) trails=0 ;;
	m) only=$OPTARG ;;
	b) big=1 ;;
	*) sed -n '2,20p' "$0"; exit 2 ;;
	esac
done
command -v spin >/dev/null || { echo "check.sh: spin missing (tools/deps.sh installs it)" >&2; exit 1; }
CC=${HOSTCC:-gcc}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cp "$here"/*.pml "$out"/
if [ -n "${PROP_OFF:-}" ]; then
	# the property's assert becomes a no-op in the copy that is checked
	sed -i "s/assert($PROP_OFF)/skip/" "$out"/*.pml
	echo "model: check of $PROP_OFF removed (PROP_OFF)"
fi

# The real model: each scenario, all properties.
# (NAME or NAME+DEFINE: a scenario checked with a define)
SCENARIOS="CHAIN STEAL CYCLE LEAVE LOWER"
# Too big for CI's 5 minutes: checked by -b (make model-check-big) with
# state compression (-DCOLLAPSE) and an optimised pan.
BIG_SCENARIOS="CHAIN3"
# Findings in the C code: the model as the C code is today fails here
# (README.md, "Finding").  Not a failure of model-check.  Empty: the one
# finding so far, T4_NO_ADJUST_PRIO, is fixed and is now a mutant.
FINDINGS="
"
# The mutants: name, the scenario that exposes it, the property it breaks
# ("invalid_end_state": a task asleep for ever, pan's deadlock check).
MUTANTS="
NO_OWNER_CHECK		STEAL	prop_mutual_exclusion
STATE_AFTER_UNLOCK	STEAL	invalid_end_state
WALK_NO_WAKE		STEAL	prop_no_lost_wakeup
NO_DETECT		CYCLE	invalid_end_state
NO_BOOST		CHAIN	prop_pi_boost
WALK_NO_RETRY		CHAIN	prop_pi_transitive
WALK_ONE_LINK		CHAIN	prop_pi_transitive
DEBOOST_AFTER_WAKE	CHAIN	prop_timely_deboost
STEAL_EQUAL		STEAL	prop_steal_strictly_higher
NO_WAITERS_BIT		CHAIN	prop_owner_word_waiters_bit
UNLOCK_NO_BIT		STEAL	prop_owner_word_waiters_bit
UNLOCK_CLEAR_EARLY	LEAVE	prop_fastpath_never_under_unlocker
T4_NO_ADJUST_PRIO	LOWER	prop_pi_boost
"

# run NAME DEFINES...: build pan for the model with DEFINES, search;
# sets verdict (pass or the violated property), states, secs.
run() {
	local dir=$out/$1
	shift
	rm -rf "$dir"
	mkdir -p "$dir"
	cp "$out"/*.pml "$dir"/
	(cd "$dir" && spin "$@" -a pi.pml >spin.log 2>&1) ||
		{ cat "$dir/spin.log"; return 1; }
	(cd "$dir" && $CC ${PAN_CFLAGS:--O0} -w -DSAFETY -DMEMLIM=${PAN_MEMLIM:-4096} \
		$PAN_EXTRA -o pan pan.c) ||
		return 1
	local t0 t1
	t0=$(date +%s.%N)
	(cd "$dir" && ./pan -m${PAN_DEPTH:-200000} >pan.log 2>&1) || true
	t1=$(date +%s.%N)
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	states=$(sed -n 's/^ *\([0-9][0-9e+.]*\) states, stored.*/\1/p' "$dir/pan.log")
	if grep -q "errors: 0" "$dir/pan.log"; then
		verdict=pass
	elif v=$(grep -o "assertion violated [a-z_]*" "$dir/pan.log"); then
		verdict=${v#assertion violated }
	elif grep -q "invalid end state" "$dir/pan.log" &&
	     grep -q "errors: [1-9]" "$dir/pan.log"; then
		verdict=invalid_end_state
	else
		verdict="error (see $dir/pan.log)"
	fi
}

fail=0
printf '%-27s %-6s %8s %6s  %s\n' "model" "scen." "states" "secs" "verdict"
[ -z "$only" ] || SCENARIOS= FINDINGS=
PAN_EXTRA=
if [ $big -eq 1 ]; then
	SCENARIOS=$BIG_SCENARIOS FINDINGS= MUTANTS= PAN_EXTRA=-DCOLLAPSE
	PAN_CFLAGS=${PAN_CFLAGS:--O2} PAN_MEMLIM=${PAN_MEMLIM:-16000}
	PAN_DEPTH=400000
fi
for s in $SCENARIOS; do
	defs="-DSCENARIO_${s%%+*}"
	[ "$s" = "${s#*+}" ] || defs="$defs -D${s#*+}"
	run "model-${s%%+*}" $defs
	printf '%-27s %-6s %8s %6s  %s\n' "rt_mutex${s#${s%%+*}}" "${s%%+*}" \
		"$states" "$secs" \
		"$([ "$verdict" = pass ] && echo "pass: all properties hold" ||
		   echo "FAIL: $verdict")"
	[ "$verdict" = pass ] || fail=1
done
echo "properties: prop_mutual_exclusion prop_no_lost_wakeup" \
	"prop_edeadlk_only_on_cycle prop_pi_boost prop_pi_transitive" \
	"prop_pi_waiters prop_timely_deboost prop_steal_strictly_higher" \
	"prop_owner_word_waiters_bit prop_fastpath_never_under_unlocker" \
	"prop_plist_del_on_list, no invalid end state"
while read -r m s want; do
	[ -n "$m" ] || continue
	[ -z "$only" ] || [ "$only" = "$m" ] || continue
	run "mutant-$m" "-DSCENARIO_$s" "-DMUTANT_$m"
	if [ "$verdict" = "$want" ]; then
		line="caught: $verdict"
	else
		line="NOT CAUGHT: wanted $want, got $verdict"
		fail=1
	fi
	printf '%-27s %-6s %8s %6s  %s\n' "$m" "$s" "$states" "$secs" "$line"
	if [ $trails -eq 1 ] && [ "$verdict" != pass ]; then
		# the trail replayed: the model's printf lines tell the story
		(cd "$out/mutant-$m" && spin -DSCENARIO_$s -DMUTANT_$m -t \
			pi.pml >trail.txt 2>&1) || true
		echo "    trail: spin -DSCENARIO_$s -DMUTANT_$m -t -p pi.pml" \
			"in $out/mutant-$m; its last events:"
		grep -vE '^[[:space:]]+[][a-z_0-9.]+ = |^#processes|processes created|^[[:space:]]*[0-9]+:[[:space:]]+proc' \
			"$out/mutant-$m/trail.txt" | sed 's/^[[:space:]]*//' |
			tail -n 10 | cut -c1-100 | sed 's/^/      /'
	fi
done <<<"$MUTANTS"
while read -r f s want; do
	[ -n "$f" ] || continue
	run "finding-$f" "-DSCENARIO_$s"
	if [ "$verdict" = "$want" ]; then
		line="C code finding, still there: $verdict (see README.md)"
	else
		line="finding gone? wanted $want, got $verdict: update the model"
	fi
	printf '%-27s %-6s %8s %6s  %s\n' "$f" "$s" "$states" "$secs" "$line"
done <<<"$FINDINGS"
if [ $fail -ne 0 ]; then
	echo "model-check: FAILED"
	exit 1
fi
if [ $big -eq 1 ]; then
	echo "model-check: the big scenarios pass"
else
	echo "model-check: the model passes, every mutant is caught"
fi
