#!/usr/bin/env bash
#
# tools/check_tree.sh - the source-tree rules a reader with grep relies on
# (docs/CONVENTIONS.md, ../shared/STYLE.md "Things not to do"), run by
# `make check-arch` and usable alone from the repository root:
#
#   [1] no two headers with the same file name anywhere in the tree
#       (an include line or a "see foo.h" must name one file);
#   [2] no weak functions in kernel/ lib/ arch/ drivers/: every function
#       has exactly one definition and its caller calls it directly;
#   [3] no ## token pasting in kernel/locking/*.h: every lock operation
#       has a definition grep finds.
#
# Exits 1 and names each offender when a rule is broken.
# CHECK_TREE_PASTE_WARN_ONLY=1 turns rule [3] into a warning (a branch
# that still carries the old pasted families).
set -u
cd "$(dirname "$0")/.." || exit 2

fail=0

# [1] duplicate header basenames (build directories and .git excluded)
dups=$(find . \( -name '.git' -o -name 'build*' \) -prune -o \
	-name '*.h' -type f -print | sed 's#.*/##' | sort | uniq -d)
if [ -n "$dups" ]; then
	for name in $dups; do
		echo "check-tree: two headers named $name:" \
			$(find . \( -name '.git' -o -name 'build*' \) -prune -o \
				-name "$name" -type f -print | sort)
	done
	fail=1
fi

# [2] weak functions
weak=$(grep -rnE '__attribute__ *\(\( *(__)?weak(__)? *\)\)|\b__weak\b' \
	--include='*.c' --include='*.h' kernel lib arch drivers)
if [ -n "$weak" ]; then
	echo "$weak"
	echo "check-tree: weak definitions above: give the function one" \
		"definition and call it directly"
	fail=1
fi

# [3] token pasting in the lock API headers
paste=$(grep -nE '##' kernel/locking/*.h)
if [ -n "$paste" ]; then
	if [ "${CHECK_TREE_PASTE_WARN_ONLY:-0}" = 1 ]; then
		echo "check-tree: warning: $(echo "$paste" | wc -l) lines with" \
			"## token pasting in" \
			$(echo "$paste" | cut -d: -f1 | sort -u) \
			"(a failure once the lock API is spelled out)"
	else
		echo "$paste"
		echo "check-tree: ## token pasting in kernel/locking headers:" \
			"spell each lock operation out"
		fail=1
	fi
fi

if [ "$fail" = 0 ]; then
	echo "check-tree: header names unique, no weak functions," \
		"lock headers $( [ -n "$paste" ] && echo "still paste (warned)" ||
			echo "free of ##")"
fi
exit $fail
