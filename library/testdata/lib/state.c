/* state.c: module state. mod_init and mod_reset_stats write the state,
 * so a function of the module may find it holding any value; g_max_open
 * is never written and stays 3. */
#include <assert.h>
#include "ml_state.h"
#include "ml_str.h"

static int g_ready;
static unsigned g_open;
static unsigned char g_slots[NSLOTS];
static unsigned long g_events;
static unsigned g_max_open = 3;

#define EVENTS_MAX ((unsigned long)-1)

void mod_init(void)
{
	unsigned i;

	g_ready = 1;
	g_open = 0;
	for (i = 0; i < NSLOTS; i++)
		g_slots[i] = 0;
}

/* mod_open: g_open < g_max_open == 3 before the increment. */
int mod_open(void)
{
	if (!g_ready || g_open >= g_max_open)
		return -1;
	g_open++;
	assert(g_open <= NSLOTS); // want TRUE
	return 0;
}

/* mod_close does not check that a handle is open: mod_init(); mod_close(); */
void mod_close(void)
{
	assert(g_open > 0); // want FALSE
	g_open--;
}

/* slot_set: both callers pass a slot in 0..NSLOTS-1. */
static void slot_set(unsigned idx, unsigned char v)
{
	assert(idx < NSLOTS); // want TRUE
	g_slots[idx] = v;
}

/* slot_of: mod_acquire rejects negative ids, mod_release does not, and a
 * negative id has a negative remainder. */
static int slot_of(int id)
{
	int s = id % NSLOTS;

	assert(s >= 0); // want FALSE
	return s;
}

int mod_acquire(int id)
{
	int s;

	if (id < 0)
		return -1;
	s = slot_of(id);
	slot_set((unsigned)s, 1);
	return s;
}

void mod_release(int id)
{
	int s = slot_of(id);

	if (s < 0 || s >= NSLOTS)
		return;
	slot_set((unsigned)s, 0);
}

/* mod_selftest is static and nothing calls it; g_open may be anything in
 * its context. */
static void mod_selftest(void)
{
	unsigned n = g_open;

	assert(n <= g_max_open); // want NOT_CHECKED
}

void mod_reset_stats(void)
{
	g_events = 0;
}

/* mod_record saturates at EVENTS_MAX, whatever g_events holds. */
unsigned long mod_record(unsigned k)
{
	unsigned long before = g_events;

	if (g_events > EVENTS_MAX - k)
		g_events = EVENTS_MAX;
	else
		g_events += k;
	assert(g_events >= before); // want TRUE
	return g_events;
}

/* A global of another file that a function there writes holds any value
 * here: str_set_pad(-1) then str_pad(0) fails. */
int str_pad(int len)
{
	int w = str_pad_width;
	assert(w >= 0); // want FALSE
	return len + w;
}

/* A global written only through a pointer that a global initialiser
 * makes: set_quota(-1) then quota_left() fails. */
static int g_quota = 4;
static int *g_quota_p = &g_quota;

void set_quota(int v)
{
	*g_quota_p = v;
}

int quota_left(void)
{
	int q = g_quota;
	assert(q >= 0); // want FALSE
	return q;
}
