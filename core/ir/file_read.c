/*
 * file_read.c - the one way devplan opens a file to read it (file_read.h).
 *
 * open(2) with O_NONBLOCK returns at once for a FIFO without a writer (a
 * blocking open would wait for one, restarted after every signal the
 * shell catches); fstat then says what was opened. A regular file goes
 * back to blocking mode and is read plainly. A stream stays non-blocking:
 * each read that would block becomes a poll of POLL_MS, after which the
 * interrupt flag is tested, so the wait ends on Ctrl-C or a terminating
 * signal. Every read of a stream waits first: a FIFO without a writer
 * reads as ended, but Linux's poll reports no hang-up on it until a writer
 * has come and gone, so a FIFO opened before its writer waits for it
 * rather than reading as an empty file.
 */
#include "file_read.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "interrupt.h"
#include "util.h"

enum { POLL_MS = 100, READ_CHUNK = 65536 };

uint64_t file_read_max(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
	uint64_t bound = UINT32_MAX - 1;
	if (pages > 0 && page > 0 && (uint64_t)pages * (uint64_t)page / 16 < bound)
		bound = (uint64_t)pages * (uint64_t)page / 16;
	return bound;
}

/* What a file that is not regular is, for an error. */
static const char *file_type_name(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	return "not a regular file";
}

int file_open_read(const char *path, FileKind kind, bool *is_stream, char **err)
{
	struct stat st;
	bool stream;
	int fd;
	*err = NULL;
	do
		fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	while (fd < 0 && errno == EINTR && !interrupt_pending());
	if (fd < 0) {
		*err = xasprintf("cannot open '%s': %s", path,
				 errno == ENXIO ? "a socket, not a file" : strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		*err = xasprintf("cannot open '%s': %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	stream = S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode);
	if (S_ISDIR(st.st_mode)) { /* as read(2) would say */
		*err = xasprintf("cannot read '%s': %s", path, strerror(EISDIR));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode) && (kind == FILE_REGULAR || !stream)) {
		*err = xasprintf("cannot read '%s': %s, not a regular file", path,
				 file_type_name(st.st_mode));
		close(fd);
		return -1;
	}
	if (!stream)
		(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	if (is_stream)
		*is_stream = stream;
	return fd;
}

FILE *file_fopen_read(const char *path, char **err)
{
	int fd = file_open_read(path, FILE_REGULAR, NULL, err);
	FILE *f;
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "rb");
	if (!f) {
		*err = xasprintf("cannot open '%s': %s", path, strerror(errno));
		close(fd);
	}
	return f;
}

/* Waits until fd has bytes or has ended: 0, or an errno (EINTR when the
 * interrupt flag is set). */
static int wait_readable(int fd)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};
	for (;;) {
		int n;
		if (interrupt_pending())
			return EINTR;
		n = poll(&p, 1, POLL_MS);
		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return errno;
	}
}

/* One read of at most cap bytes: the count, 0 at the end, -1 with errno. */
static ssize_t read_some(int fd, bool stream, char *buf, size_t cap)
{
	for (;;) {
		ssize_t n;
		int error;
		/* first the wait: a FIFO's read says end of file, not EAGAIN,
		 * while no writer has opened it; poll waits for one */
		if (stream && (error = wait_readable(fd)) != 0) {
			errno = error;
			return -1;
		}
		n = read(fd, buf, cap);
		if (n >= 0)
			return n;
		if (errno == EINTR && !interrupt_pending())
			continue;
		if (!stream || errno != EAGAIN)
			return -1;
	}
}

bool file_read_all(const char *path, FileKind kind, char **data, size_t *len, char **err)
{
	struct stat st;
	bool stream;
	uint64_t max = file_read_max();
	StrBuf sb;
	char *buf;
	int fd = file_open_read(path, kind, &stream, err);
	*data = NULL;
	*len = 0;
	if (fd < 0)
		return false;
	/* a regular file too big is refused before a byte is read */
	if (!stream && fstat(fd, &st) == 0 && (uint64_t)st.st_size > max) {
		*err = xasprintf("'%s' is %llu bytes, more than the %llu devplan reads (a "
				 "sixteenth of this machine's memory)",
				 path, (unsigned long long)st.st_size, (unsigned long long)max);
		close(fd);
		return false;
	}
	if (stream && max > FILE_STREAM_MAX)
		max = FILE_STREAM_MAX;
	strbuf_init(&sb);
	buf = xmalloc(READ_CHUNK);
	for (;;) {
		ssize_t n = read_some(fd, stream, buf, READ_CHUNK);
		if (n < 0) {
			*err = errno == EINTR
				       ? xasprintf("reading '%s' interrupted", path)
				       : xasprintf("cannot read '%s': %s", path, strerror(errno));
			break;
		}
		if (n == 0)
			break;
		if (sb.len + (size_t)n > max) {
			*err = xasprintf(
				"'%s' holds more than the %llu bytes devplan reads from it", path,
				(unsigned long long)max);
			break;
		}
		strbuf_append(&sb, buf, (size_t)n);
	}
	free(buf);
	close(fd);
	if (*err) {
		strbuf_free(&sb);
		return false;
	}
	*len = sb.len;
	*data = sb.data ? sb.data : xstrdup("");
	return true;
}
