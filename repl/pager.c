/*
 * pager.c - gdb's pagination: long output stops after each screenful.
 *
 * At an interactive terminal the shell hands commands a stream of ours
 * (fopencookie) instead of stdout. It passes every byte on and counts the
 * lines the terminal shows, a line longer than the terminal's width
 * counting as the rows it wraps to. When a screenful less one line has gone
 * by during one command, it asks
 *
 *     --Type <RET> for more, q to quit, c to continue without paging--
 *
 * and reads one key with the terminal in non-canonical mode: RET or space
 * shows another screenful, c the rest without stopping, q (or Ctrl-C)
 * raises the interrupt flag, so that the command stops at its next safe
 * point as on Ctrl-C, and drops what it still writes. `set pagination off`
 * and `set height unlimited` turn it off; `set height N` fixes the page
 * size, which is otherwise the terminal's, read anew for each command.
 * Errors go to stderr and are not paged, as in gdb.
 *
 * Ownership: the stream is the shell's; pager_close flushes and closes it.
 */
#define _GNU_SOURCE
#include "pager.h"

#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/types.h>
#include <termios.h>
#include <unistd.h>

#include "interrupt.h"

static const char pager_prompt[] =
	"--Type <RET> for more, q to quit, c to continue without paging--";

static struct {
	FILE *real;        /* where the output goes (stdout) */
	int key_fd;        /* where keys come from (the terminal) */
	const Session *s;  /* its settings decide */
	int rows, columns; /* the page, read at pager_begin; rows 0: no paging */
	int lines;         /* rows shown since the last stop */
	int column;        /* of the line being written */
	bool quitting;     /* q: drop the rest of this command's output */
	bool continuing;   /* c: no more stops in this command */
	bool escape;       /* inside a colour's escape sequence (no width) */
} pager;

/* One key from the terminal, in non-canonical mode without echo or
 * signals (so Ctrl-C arrives as a byte); polls so that a SIGTERM ends the
 * wait through the interrupt flag. -1 when there is no terminal to ask. */
static int pager_read_key(void)
{
	struct termios saved, raw;
	unsigned char c = 0;
	int key = -1;
	if (tcgetattr(pager.key_fd, &saved) != 0)
		return -1;
	raw = saved;
	raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO | ISIG);
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	if (tcsetattr(pager.key_fd, TCSANOW, &raw) != 0)
		return -1;
	while (!interrupt_pending()) {
		struct pollfd p = {pager.key_fd, POLLIN, 0};
		int ready = poll(&p, 1, 200);
		if (ready < 0)
			continue; /* a signal: look at the flag again */
		if (ready == 0)
			continue;
		if (read(pager.key_fd, &c, 1) == 1)
			key = c;
		break;
	}
	tcsetattr(pager.key_fd, TCSANOW, &saved);
	return key;
}

/* A screenful has gone by: ask, then clear the question's line. */
static void pager_stop(void)
{
	int key;
	fflush(pager.real);
	fputs(pager_prompt, pager.real);
	fflush(pager.real);
	key = pager_read_key();
	fprintf(pager.real, "\r%*s\r", (int)sizeof pager_prompt - 1, "");
	if (key == 'q' || key == 'Q' || key == 3 || key < 0) {
		pager.quitting = true;
		if (key >= 0)
			fputs("Quit\n", pager.real);
		interrupt_request();
	} else if (key == 'c' || key == 'C') {
		pager.continuing = true;
	}
	pager.lines = 0;
	fflush(pager.real);
}

static ssize_t pager_write(void *cookie, const char *buf, size_t size)
{
	size_t start = 0;
	(void)cookie;
	if (pager.quitting)
		return (ssize_t)size;
	for (size_t i = 0; i < size; i++) {
		bool row_done = false;
		if (pager.escape) {
			pager.escape = !(buf[i] >= '@' && buf[i] <= '~' && buf[i] != '[');
			continue;
		}
		if (buf[i] == '\033') {
			pager.escape = true;
		} else if (buf[i] == '\n') {
			row_done = true;
			pager.column = 0;
		} else if (pager.columns > 0 && ++pager.column > pager.columns) {
			row_done = true; /* the terminal wraps it */
			pager.column = 1;
		}
		if (!row_done || pager.rows <= 0 || pager.continuing)
			continue;
		if (++pager.lines < pager.rows - 1)
			continue;
		if (fwrite(buf + start, 1, i + 1 - start, pager.real) != i + 1 - start)
			return -1;
		start = i + 1;
		pager_stop();
		if (pager.quitting)
			return (ssize_t)size;
	}
	if (start < size && fwrite(buf + start, 1, size - start, pager.real) != size - start)
		return -1;
	return (ssize_t)size;
}

static int pager_close_cookie(void *cookie)
{
	(void)cookie;
	return fflush(pager.real) == 0 ? 0 : -1;
}

FILE *pager_open(FILE *real, int key_fd, const Session *s)
{
	static const cookie_io_functions_t io = {NULL, pager_write, NULL, pager_close_cookie};
	FILE *f = fopencookie(NULL, "w", io);
	if (!f)
		return NULL;
	pager.real = real;
	pager.key_fd = key_fd;
	pager.s = s;
	/* line-buffered: a slow command's lines show as they come */
	setvbuf(f, NULL, _IOLBF, 0);
	return f;
}

void pager_begin(void)
{
	struct winsize ws;
	int height = pager.s->settings.height;
	memset(&ws, 0, sizeof ws);
	if (ioctl(fileno(pager.real), TIOCGWINSZ, &ws) != 0)
		memset(&ws, 0, sizeof ws);
	pager.columns = ws.ws_col;
	if (!pager.s->settings.pagination || height == 0)
		pager.rows = 0;
	else if (height > 0)
		pager.rows = height;
	else
		pager.rows = ws.ws_row > 0 ? ws.ws_row : 24;
	if (pager.rows == 1)
		pager.rows = 2; /* a line of output, then the question */
	pager.lines = 0;
	pager.column = 0;
	pager.quitting = false;
	pager.continuing = false;
	pager.escape = false;
}

void pager_close(FILE *f)
{
	if (f)
		fclose(f);
}
