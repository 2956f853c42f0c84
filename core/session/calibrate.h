/*
 * calibrate.h - the cpu devices' cost model measured on this machine
 * (`target calibrate`, and `profile` before it sets its estimate beside
 * what it measured).
 *
 * The measurement (exec_calibrate: memcpy bandwidth and sgemm rate on the
 * cpu kernels' threads) runs once per session and is kept in it; applying
 * it sets a cpu device's bandwidth and memory to the memcpy figure, its
 * peak to the sgemm one and its launch to a kernel call's cost, and marks its costs DEVICE_COSTS_CALIBRATED, so
 * that `estimate` and `targets` say which model they use.
 */
#ifndef DEVPLAN_CALIBRATE_H
#define DEVPLAN_CALIBRATE_H

#include <stdbool.h>

#include "session.h"

/* Measures this machine unless the session already has (or `again`), then
 * applies the figures to every cpu device (`all`), or only to those whose
 * cost model is still nominal: a `target set` the user made stands. False
 * with *err set (caller frees) when the measurement fails; the table is
 * then unchanged. */
bool session_calibrate(Session *s, bool all, bool again, char **err);
/* Sets device i's cost model from calibration c. */
void session_apply_calibration(DeviceTable *devices, uint32_t i, const ExecCalibration *c);

#endif
