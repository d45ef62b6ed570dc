#ifndef ML_STATE_H
#define ML_STATE_H

#define NSLOTS 4

void mod_init(void);
int mod_open(void);
void mod_close(void);
int mod_acquire(int id);
void mod_release(int id);
void mod_reset_stats(void);
unsigned long mod_record(unsigned k);
void set_quota(int v);
int quota_left(void);

#endif
