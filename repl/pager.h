/*
 * pager.h - gdb-style pagination of command output at a terminal
 * (pager.c says how it behaves).
 *
 * Ownership: pager_open returns a stream the caller closes with
 * pager_close; the session it reads the settings from must outlive it.
 */
#ifndef DEVPLAN_PAGER_H
#define DEVPLAN_PAGER_H

#include <stdio.h>

#include "session.h"

/* A stream that writes to real (a terminal), stopping after each page and
 * reading the answer from key_fd; NULL if it cannot be made. */
FILE *pager_open(FILE *real, int key_fd, const Session *s);
/* A command starts: the page size is read again (settings and the
 * terminal) and the count starts from zero. */
void pager_begin(void);
void pager_close(FILE *f);

#endif
