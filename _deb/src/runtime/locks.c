/* locks.c - script global locks: bounded trylock loops, never blocking. */
#include <linux/module.h>
#include <linux/delay.h>
#include "stp_internal.h"

void stp_locks_init(void)
{
	int i;

	for (i = 0; i < stp_module.nlocks; i++)
		rwlock_init(&stp_module.locks[i].lock);
}

int stp_lock_globals(struct stp_context *c, const struct stp_lock_req *reqs,
		     int n)
{
	int i, tries;

	for (i = 0; i < n; i++) {
		rwlock_t *l = &reqs[i].lock->lock;

		for (tries = 0; ; tries++) {
			if (reqs[i].write ? write_trylock(l) : read_trylock(l))
				break;
			if (tries >= MAXTRYLOCK)
				goto fail;
			ndelay(TRYLOCKDELAY);
		}
	}
	return 1;
fail:
	stp_unlock_globals(reqs, i);
	atomic_inc(&stp_skipped);
	atomic_inc(&stp_skipped_lock);
	stp_check_skipped();
	return 0;
}

void stp_unlock_globals(const struct stp_lock_req *reqs, int n)
{
	while (n-- > 0) {
		if (reqs[n].write)
			write_unlock(&reqs[n].lock->lock);
		else
			read_unlock(&reqs[n].lock->lock);
	}
}
