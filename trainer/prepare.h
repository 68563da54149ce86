/* prepare.h — `trainer prepare-data` (prepare.c): build token shards and a
 * manifest from plain-text sources. Returns the exit status. */
#ifndef RL_TRAINER_PREPARE_H
#define RL_TRAINER_PREPARE_H
int cmd_prepare_data(int argc, char **argv);
#endif
