/*
 * Exercise: the allocation fast path from this CPU's array (article,
 * "Latency-reduction measures"; the steps [1]-[3] are in the file's
 * header).
 * FALLBACK (correct and slow): the arrays are never used for
 * allocation: NULL sends kmalloc to slab_drain_all() and the cache's
 * global lock (cache_alloc) every time, so every allocation contends
 * with every other CPU's (`mem` shows no fast allocations).
 * Write: read the CPU once, take its slab_cpu copy with
 * get_per_cpu_locked, refill an empty array (refill, st.refills), pop
 * the newest object (obj_move IN_ARRAY -> ALLOCATED, note_section,
 * st.fast_allocs), release the lock, return the object.
 */
assert_cpu_context();
(void)refill;	/* yours to call */
return NULL;
