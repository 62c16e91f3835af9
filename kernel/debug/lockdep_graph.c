/*
 * kernel/debug/lockdep_graph.c - the lock validator's memory: lock
 * classes (one per init site and name, and per nesting subclass) and the
 * dependency graph between them, with the search that finds a cycle
 * before an edge closing it is added.  The checks on a task's held locks
 * and the reports are in kernel/debug/lockdep.c.
 *
 * Everything is in fixed arrays (no allocation: the callers hold raw
 * locks with irqs off).  Writers take the graph lock, an arch-level
 * test-and-set word that is not itself validated; two things are read
 * without it on the hot path, both published with a release store after
 * the entry is complete:
 *   - lockdep_map.class_idx, the class cache in each lock;
 *   - edge_hash[], an open-addressing table of (prev, next) -> edge, so
 *     an order already seen costs one hash probe.  A slot holds 0
 *     (empty: the probe stops), EDGE_TOMB (a freed edge was here: the
 *     probe goes on) or an edge index whose key is compared.
 * lockdep_reset_map frees the edges of a class; a lookup that races it
 * may miss an edge (it then takes the graph lock and finds it, or adds
 * it again) or find one being freed, never a wrong one: the key is one
 * word.  When empty slots run short the hash is rebuilt from the live
 * edges (a lookup during the rebuild misses and takes the lock).
 * Linux counterpart: kernel/debug/lockdep.c (register_lock_class,
 * check_noncircular / __bfs, add_lock_to_list, lockdep_reset_lock).
 */
#include "kernel/debug/lockdep_internal.h"
#include "kernel/locking/raw_spinlock.h"
#include "lib/string.h"
#include "lib/errno.h"
#include "lib/vsnprintf.h"
#include "arch/x86_64/arch.h"

#if defined(CONFIG_LOCKDEP)
#define CLASS_HASH_SIZE 512		/* power of 2 */
#define EDGE_HASH_SIZE (2 * LOCKDEP_MAX_EDGES)	/* at most half live */
#define EDGE_TOMB 0xffff		/* > any edge index */

struct lock_class lock_classes[LOCKDEP_MAX_CLASSES];
struct lock_edge lock_edges[LOCKDEP_MAX_EDGES];
bool lockdep_on = true;

/* under graph_word */
static int graph_word;
static u16 nr_classes = 1;		/* index 0 is "none" */
static u16 nr_edges = 1;		/* high-water mark */
static u16 nr_live_edges;
static u16 free_edges;			/* list through next_out */
static u16 hash_used;			/* slots not 0: live + tombs */
static u16 class_hash[CLASS_HASH_SIZE];
static u16 edge_hash[EDGE_HASH_SIZE];	/* edge index; read lock-free */
/* the search's scratch space, under the graph lock */
static u16 bfs_queue[LOCKDEP_MAX_CLASSES];
static u16 bfs_parent_edge[LOCKDEP_MAX_CLASSES];
static u64 bfs_visited[LOCKDEP_MAX_CLASSES / 64];

void lockdep_graph_lock(void)
{
	while (__atomic_exchange_n(&graph_word, 1, __ATOMIC_ACQUIRE))
		arch_cpu_relax();
}

void lockdep_graph_unlock(void)
{
	__atomic_store_n(&graph_word, 0, __ATOMIC_RELEASE);
}

static u32 str_hash(const char *s)
{
	u32 h = 5381;

	while (s && *s)
		h = h * 33 + (u8)*s++;
	return h;
}

static bool str_same(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return a == b || strcmp(a, b) == 0;
}

/* The key: an initialised lock by (file, line, name) compared as strings
 * (a header's __FILE__ is a different pointer in each object file), an
 * uninitialised one by its address. */
static u32 key_hash(const struct lockdep_map *map, unsigned int subclass)
{
	u32 h = map->file ? str_hash(map->file) ^ str_hash(map->name) ^
				    (u32)map->line * 2654435761u
			  : (u32)((uintptr_t)map >> 3) * 2654435761u;

	return (h + subclass) & (CLASS_HASH_SIZE - 1);
}

static bool key_matches(const struct lock_class *c,
			const struct lockdep_map *map, unsigned int subclass)
{
	if (c->subclass != subclass)
		return false;
	if (!map->file)
		return !c->file && c->addr == map;
	return c->line == map->line && str_same(c->file, map->file) &&
	       str_same(c->name, map->name ? map->name : "?");
}

/* register_class - find or create the class; graph lock held. */
static u16 register_class(struct lockdep_map *map, unsigned int subclass)
{
	u32 h = key_hash(map, subclass);
	struct lock_class *c;
	u16 i;

	for (i = class_hash[h]; i; i = lock_classes[i].hash_next)
		if (key_matches(&lock_classes[i], map, subclass))
			return i;
	if (nr_classes == LOCKDEP_MAX_CLASSES)
		return 0;
	i = nr_classes++;
	c = &lock_classes[i];
	memset(c, 0, sizeof(*c));
	c->file = map->file;
	c->addr = map->file ? NULL : map;
	c->line = map->line;
	c->subclass = subclass;
	c->wait_type = map->wait_type;
	if (map->name)
		strscpy(c->name, map->name, sizeof(c->name));
	else	/* a zero-initialised static lock: its address names it */
		snprintf(c->name, sizeof(c->name), "lock@%p", (void *)map);
	c->hash_next = class_hash[h];
	class_hash[h] = i;
	return i;
}

u16 lockdep_class_of(struct lockdep_map *map, unsigned int subclass)
{
	u16 idx = 0;

	if (subclass == 0) {
		idx = __atomic_load_n(&map->class_idx, __ATOMIC_ACQUIRE);
		if (idx)
			return idx;
	}
	lockdep_graph_lock();
	idx = register_class(map, subclass);
	lockdep_graph_unlock();
	if (subclass == 0 && idx)
		__atomic_store_n(&map->class_idx, idx, __ATOMIC_RELEASE);
	return idx;
}

static u32 edge_slot(u16 prev, u16 next)
{
	return (((u32)prev << 16 | next) * 2654435761u) % EDGE_HASH_SIZE;
}

static u32 edge_key(u16 prev, u16 next)
{
	return (u32)prev << 16 | next;
}

/* find_edge - the edge index or 0.  Lock-free (see the file header);
 * bounded by the table size in case a rebuild emptied no slot yet. */
static u16 find_edge(u16 prev, u16 next)
{
	u32 s = edge_slot(prev, next), key = edge_key(prev, next);

	for (u32 n = 0; n < EDGE_HASH_SIZE; n++, s = (s + 1) % EDGE_HASH_SIZE) {
		u16 e = __atomic_load_n(&edge_hash[s], __ATOMIC_ACQUIRE);

		if (!e)
			return 0;
		if (e != EDGE_TOMB &&
		    __atomic_load_n(&lock_edges[e].key, __ATOMIC_ACQUIRE) == key)
			return e;
	}
	return 0;
}

/* hash_insert - put edge idx in the first empty or tomb slot of its
 * probe.  Graph lock held; the edge is not in the table (find_edge). */
static void hash_insert(u16 idx)
{
	u32 s = edge_slot(lock_edges[idx].prev, lock_edges[idx].next);

	while (edge_hash[s] && edge_hash[s] != EDGE_TOMB)
		s = (s + 1) % EDGE_HASH_SIZE;
	if (!edge_hash[s])
		hash_used++;
	__atomic_store_n(&edge_hash[s], idx, __ATOMIC_RELEASE);
}

/* hash_rebuild - drop the tombs: empty every slot, insert the live
 * edges again.  Graph lock held. */
static void hash_rebuild(void)
{
	for (u32 s = 0; s < EDGE_HASH_SIZE; s++)
		__atomic_store_n(&edge_hash[s], 0, __ATOMIC_RELEASE);
	hash_used = 0;
	for (u16 e = 1; e < nr_edges; e++)
		if (lock_edges[e].key)
			hash_insert(e);
}

bool lockdep_edge_known(u16 prev, u16 next)
{
	return find_edge(prev, next) != 0;
}

/*
 * search_path - breadth-first from `from` along recorded edges; returns the number of edges of a path to `to` (and
 * the path in path[], from first to last), 0 if there is none.
 * Bounded: each class is visited once.  Graph lock held.
 */
static int search_path(u16 from, u16 to, u16 *path, int max_path)
{
	int head = 0, tail = 0, n = 0, i;
	u16 c;

	memset(bfs_visited, 0, sizeof(bfs_visited));
	bfs_visited[from / 64] |= 1ull << (from % 64);
	bfs_parent_edge[from] = 0;
	bfs_queue[tail++] = from;
	while (head < tail) {
		c = bfs_queue[head++];
		for (u16 e = lock_classes[c].first_out; e;
		     e = lock_edges[e].next_out) {
			u16 nx = lock_edges[e].next;

			if (bfs_visited[nx / 64] & (1ull << (nx % 64)))
				continue;
			bfs_visited[nx / 64] |= 1ull << (nx % 64);
			bfs_parent_edge[nx] = e;
			if (nx == to)
				goto found;
			bfs_queue[tail++] = nx;
		}
	}
	return 0;
found:
	for (c = to; c != from; c = lock_edges[bfs_parent_edge[c]].prev)
		n++;
	/* path[] runs from `from` to `to`; a longer path than max_path
	 * keeps its first max_path edges */
	i = n;
	for (c = to; c != from; c = lock_edges[bfs_parent_edge[c]].prev)
		if (--i < max_path)
			path[i] = bfs_parent_edge[c];
	return n < max_path ? n : max_path;
}

int lockdep_add_edge(const struct held_lock *prev, const struct held_lock *next,
		     u16 *path, int max_path)
{
	struct lock_edge *e;
	int cycle = 0;
	u16 idx;

	lockdep_graph_lock();
	if (find_edge(prev->class_idx, next->class_idx))
		goto out_unlock;			/* raced: known now */
	if (next->class_idx == prev->class_idx)
		goto out_unlock;	/* same class: lockdep.c's AA check */
	cycle = search_path(next->class_idx, prev->class_idx, path, max_path);
	if (free_edges) {
		idx = free_edges;
		free_edges = lock_edges[idx].next_out;
	} else if (nr_edges < LOCKDEP_MAX_EDGES) {
		idx = nr_edges++;
	} else {
		cycle = -ENOSPC;
		goto out_unlock;
	}
	e = &lock_edges[idx];
	e->prev = prev->class_idx;
	e->next = next->class_idx;
	e->prev_ip = prev->ip;
	e->next_ip = next->ip;
	memcpy(e->prev_trace, prev->trace, sizeof(e->prev_trace));
	memcpy(e->next_trace, next->trace, sizeof(e->next_trace));
	e->next_out = lock_classes[e->prev].first_out;
	lock_classes[e->prev].first_out = idx;
	lock_classes[e->prev].nr_out++;
	nr_live_edges++;
	__atomic_store_n(&e->key, edge_key(e->prev, e->next), __ATOMIC_RELEASE);
	if (hash_used >= EDGE_HASH_SIZE * 3 / 4)
		hash_rebuild();
	hash_insert(idx);
out_unlock:
	lockdep_graph_unlock();
	return cycle;
}

/* free_edge - take edge e off prev's list and the hash, put it on the
 * free list.  Graph lock held. */
static void free_edge(u16 e)
{
	struct lock_edge *ed = &lock_edges[e];
	struct lock_class *c = &lock_classes[ed->prev];
	u16 *link = &c->first_out;
	u32 s = edge_slot(ed->prev, ed->next);

	while (*link != e)
		link = &lock_edges[*link].next_out;
	*link = ed->next_out;
	c->nr_out--;
	while (edge_hash[s] != e)
		s = (s + 1) % EDGE_HASH_SIZE;
	__atomic_store_n(&edge_hash[s], EDGE_TOMB, __ATOMIC_RELEASE);
	__atomic_store_n(&ed->key, 0, __ATOMIC_RELEASE);
	ed->next_out = free_edges;
	free_edges = e;
	nr_live_edges--;
}

/* forget_class - what the validator learned about class i: its edges in
 * both directions, its usage and its reports.  Graph lock held. */
static void forget_class(u16 i)
{
	struct lock_class *c = &lock_classes[i];

	for (u16 e = 1; e < nr_edges; e++)
		if (lock_edges[e].key &&
		    (lock_edges[e].prev == i || lock_edges[e].next == i))
			free_edge(e);
	c->usage = 0;
	c->usage_write = 0;
	c->reported = 0;
	memset(c->usage_ip, 0, sizeof(c->usage_ip));
	memset(c->usage_trace, 0, sizeof(c->usage_trace));
}

void lockdep_reset_map(struct lockdep_map *map)
{
	unsigned long flags;

	raw_local_irq_save(flags);
	lockdep_graph_lock();
	for (unsigned int sub = 0; sub < LOCKDEP_SUBCLASSES; sub++) {
		u32 h = key_hash(map, sub);

		for (u16 i = class_hash[h]; i; i = lock_classes[i].hash_next)
			if (key_matches(&lock_classes[i], map, sub))
				forget_class(i);
	}
	lockdep_graph_unlock();
	raw_local_irq_restore(flags);
}

void lockdep_for_each_class(void (*fn)(const char *name, const char *file,
				       int line, unsigned int subclass,
				       unsigned int deps, const char *usage,
				       void *arg),
			    void *arg)
{
	u16 n = READ_ONCE(nr_classes);

	/* unlocked snapshot: classes are never freed, fn may print */
	for (u16 i = 1; i < n; i++) {
		const struct lock_class *c = &lock_classes[i];
		char usage[4] = "..";

		if (c->usage & (1u << LD_USED_IN_HARDIRQ))
			usage[0] = '+';
		if (c->usage & (1u << LD_ENABLED_HARDIRQ))
			usage[1] = '-';
		fn(c->name, c->file, c->line, c->subclass, c->nr_out, usage,
		   arg);
	}
}

void lockdep_graph_counts(unsigned int *classes, unsigned int *edges)
{
	*classes = READ_ONCE(nr_classes) - 1;
	*edges = READ_ONCE(nr_live_edges);
}
#endif /* CONFIG_LOCKDEP */
