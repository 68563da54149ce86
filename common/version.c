/* version.c — the version every program's --version prints. The Makefile
 * passes RL_VERSION to this file alone (VERSION=… make to set it), so a new
 * version rebuilds one object. */
#include "opts.h"

#ifndef RL_VERSION
#define RL_VERSION "0.1.0"
#endif

const char rl_version[] = RL_VERSION;
