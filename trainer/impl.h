/* impl.h — which device path implements which impl.* value. ONE table
 * (impl.c) of (key, value, devices, condition); nothing else in the trainer
 * knows it, so it can move whole into the variable registry later. The
 * variables themselves are declared in config.c's table, as every other.
 *
 * At start-up, before any record exists, the driver resolves `auto` values
 * for the device (impl_resolve) and refuses any value that device does not
 * implement (impl_check: exit 2, no record). A value is in the table only
 * where code on that device really does something different for it. */
#ifndef RL_TRAINER_IMPL_H
#define RL_TRAINER_IMPL_H
#include <stddef.h>
#include "config.h"

enum impl_device { IMPL_CPU = 1, IMPL_CUDA = 2 };

/* "cpu" -> IMPL_CPU, "cuda" -> IMPL_CUDA, anything else 0. */
unsigned impl_device_bit(const char *device);
/* Replace every `auto` impl.* value by the value the device runs. */
void impl_resolve(struct config *c, const char *device);
/* 0 when every impl.* value of c is implemented on the device (after
 * impl_resolve); otherwise -1 with "impl.KEY=VALUE is not implemented on
 * DEVICE: why" in why (n bytes) and a hint of the accepted values. */
int impl_check(const struct config *c, const char *device, char *why, size_t n, char *hint,
	       size_t hn);
/* The devices (IMPL_* bits) whose code implements key=value, ignoring any
 * shape condition; 0 when none (tests walk every choice through this). */
unsigned impl_devices(const char *key, const char *value);
/* 1 when the table has a row for key=value (devices may be none: a value
 * refused everywhere still says why). */
int impl_has_row(const char *key, const char *value);

#endif
