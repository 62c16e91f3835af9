/*
 * tests/kernel/test_soak.c - the soak suite: the whole soak (kernel/
 * debug/soak.h) for soak.duration= seconds, run by `make soak`
 * (tools/soak.py boots each model with selftest=soak soak.duration=S).
 * Without the boot parameter the suite skips, so `make test` (which
 * runs every suite) does not soak.
 *
 * Scenario: the runner (init, SCHED_OTHER) calls soak_run(S); loads,
 * torture "all", pi_stress (one group per CPU), cyclictest (FIFO 99, one
 * thread per CPU) and the pitest scripts run together for S seconds.
 * Observable: the soak ran every part to its end and its verdict is
 * PASS (no torture error, no failed script, every inversion resolved,
 * no warning); each part's count is printed for the report.  Nothing
 * here depends on how fast the host is: cyclictest's maximum is printed,
 * not checked.
 */
#include "kernel/ktest.h"
#include "kernel/workloads/soak.h"
#include "lib/errno.h"

static int soak_suite_init(const char **why)
{
	*why = "runs only with soak.duration=S on the command line (make soak)";
	return soak_duration ? 0 : -ENOENT;
}

static void test_soak_passes(struct ktest *t)
{
	struct soak_result res;
	int ret = soak_run(soak_duration, &res);

	KTEST_ASSERT(t, ret == 0, "soak_run(%u): expected 0, got %d",
		     soak_duration, ret);
	KTEST_EXPECT(t, res.torture_rc == 0 && res.torture_errors == 0,
		     "torture: rc %d, %lu errors in %lu ops", res.torture_rc,
		     res.torture_errors, res.torture_ops);
	KTEST_EXPECT(t, res.pitest_runs > 0 && res.pitest_failed == 0,
		     "pitest: %lu of %lu scripts failed", res.pitest_failed,
		     res.pitest_runs);
	KTEST_EXPECT(t, res.pi_stress_rc == 0 && pi_stress_passed(&res.pi),
		     "pi_stress: rc %d, %lu inversions, %lu unresolved, %d "
		     "deadlocks", res.pi_stress_rc, res.pi.inversions,
		     res.pi.unresolved, res.pi.deadlocks);
	KTEST_EXPECT(t, res.cyclictest_rc == 0 && res.cyclictest_max_us >= 0,
		     "cyclictest: rc %d, max %ld us", res.cyclictest_rc,
		     res.cyclictest_max_us);
	KTEST_EXPECT(t, res.warnings == 0, "%lu warnings during the soak",
		     res.warnings);
	KTEST_EXPECT(t, soak_passed(&res), "verdict FAIL");
}

KTEST_SUITE_INIT(soak, soak_suite_init, KTEST_CASE(test_soak_passes));
