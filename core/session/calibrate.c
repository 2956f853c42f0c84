/*
 * calibrate.c - this machine's figures in the cpu devices' cost model
 * (calibrate.h).
 *
 * A cpu's link bandwidth is the bandwidth of a copy within its memory,
 * which is what memcpy measures, so both its bandwidth and its memory take
 * the memcpy figure; its peak takes the sgemm rate, the one the matrix
 * products and convolutions run at; its launch the cost of calling a
 * kernel on one element. Its latency stays as it is (a copy within memory
 * is a memcpy call).
 */
#include "calibrate.h"

void session_apply_calibration(DeviceTable *devices, uint32_t i, const ExecCalibration *c)
{
	Device *d = &devices->items[i];
	d->bandwidth = c->memory_gbps;
	d->memory = c->memory_gbps;
	d->peak = c->sgemm_gflops;
	d->launch = c->launch_us;
	d->costs = DEVICE_COSTS_CALIBRATED;
}

bool session_calibrate(Session *s, bool all, bool again, char **err)
{
	if (!s->calibrated || again) {
		ExecCalibration c;
		if (!exec_calibrate(&c, err))
			return false;
		s->calibration = c;
		s->calibrated = true;
	}
	for (uint32_t i = 0; i < s->devices.count; i++)
		if (s->devices.items[i].device_type == DEVICE_TYPE_CPU &&
		    (all || s->devices.items[i].costs != DEVICE_COSTS_SET))
			session_apply_calibration(&s->devices, i, &s->calibration);
	return true;
}
