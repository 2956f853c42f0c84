/*
 * file_write.c - the one way devplan writes a file (file_write.h).
 *
 * Plain file descriptors rather than stdio: every write's result is seen
 * where it happens, a partial write is continued and EINTR retried, and
 * nothing sits in a buffer that a later fclose could fail to write. The
 * checks on the destination happen in file_begin, before any work, so that
 * a command refuses a bad destination before it renders or runs anything.
 */
#include "file_write.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "path.h"
#include "util.h"

struct FileWriter {
	char *path;      /* as the caller named it, for messages */
	char *target;    /* the file replaced: path made absolute, or what a link names */
	char *tmp;       /* the temporary file beside target */
	int fd;          /* open on tmp */
	mode_t mode;     /* what the file gets: the destination's, or a new file's */
	bool keep_owner; /* the destination existed: its owner and group too */
	uid_t uid;
	gid_t gid;
	int fail_at;       /* test builds: the file_write that fails (0: none) */
	bool fail_sync;    /* test builds: the fsync fails */
	bool short_writes; /* test builds: each write(2) takes at most 7 bytes */
	int writes;        /* file_write calls so far */
};

static char *file_error(const char *path, int error)
{
	return xasprintf("cannot write '%s': %s", path, strerror(error));
}

/* The mode a new file gets: 0666 less the umask. */
static mode_t file_new_mode(void)
{
	mode_t mask = umask(0);
	umask(mask);
	return 0666 & ~mask;
}

#ifdef DEVPLAN_FAULT_INJECTION
static void file_read_fault(FileWriter *f)
{
	const char *text = getenv("DEVPLAN_FAIL_WRITE");
	if (!text || !*text)
		return;
	if (strcmp(text, "sync") == 0)
		f->fail_sync = true;
	else if (strcmp(text, "short") == 0)
		f->short_writes = true;
	else
		f->fail_at = atoi(text);
}
#endif

FileWriter *file_begin(const char *path, char **err)
{
	struct stat st;
	bool exists;
	char *target, *dir;
	const char *slash;
	FileWriter *f;
	int fd;
	*err = NULL;
	if (!*path) {
		*err = file_error(path, ENOENT);
		return NULL;
	}
	exists = lstat(path, &st) == 0;
	if (!exists && errno != ENOENT) {
		*err = file_error(path, errno);
		return NULL;
	}
	if (exists && S_ISLNK(st.st_mode)) {
		/* a symbolic link stays one: the file it names is replaced */
		char *real = realpath(path, NULL);
		if (!real || stat(real, &st) != 0) {
			*err = file_error(path, errno);
			free(real);
			return NULL;
		}
		target = xstrdup(real);
		free(real);
	} else if (path[0] != '/' && (target = path_current_dir()) != NULL) {
		/* absolute, so that a change of folder before the commit (a
		 * recording that a script started, which runs in its own
		 * folder) still renames the file it began */
		char *absolute = path_join(target, path);
		free(target);
		target = absolute;
	} else {
		target = xstrdup(path);
	}
	if (exists && !S_ISREG(st.st_mode)) {
		*err = xasprintf("cannot write '%s': %s", path,
				 S_ISDIR(st.st_mode) ? "it is a directory" : "not a regular file");
		free(target);
		return NULL;
	}
	/* a file the user may not write is not replaced behind their back, nor
	 * one that no one may write, even by root (who may write anything) */
	if (exists && access(target, W_OK) != 0) {
		*err = file_error(path, errno);
		free(target);
		return NULL;
	}
	if (exists && !(st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH))) {
		*err = xasprintf("cannot write '%s': it is read-only", path);
		free(target);
		return NULL;
	}
	slash = strrchr(target, '/');
	dir = slash ? xstrndup(target, (size_t)(slash - target) + (slash == target)) : xstrdup(".");
	f = xcalloc(1, sizeof *f);
	f->tmp = xasprintf("%s/.dpXXXXXX", dir);
	free(dir);
	fd = mkstemp(f->tmp);
	if (fd < 0) {
		*err = file_error(path, errno);
		free(f->tmp);
		free(f);
		free(target);
		return NULL;
	}
	f->fd = fd;
	f->path = xstrdup(path);
	f->target = target;
	f->mode = exists ? st.st_mode & 07777 : file_new_mode();
	f->keep_owner = exists;
	f->uid = st.st_uid;
	f->gid = st.st_gid;
#ifdef DEVPLAN_FAULT_INJECTION
	file_read_fault(f);
#endif
	return f;
}

bool file_write(FileWriter *f, const void *data, size_t len, char **err)
{
	const char *p = data;
	size_t left = len;
	*err = NULL;
	f->writes++;
#ifdef DEVPLAN_FAULT_INJECTION
	if (f->fail_at == f->writes) {
		/* a disk that fills up: part of the bytes, then ENOSPC */
		left = len / 2;
	}
#endif
	while (left > 0) {
		size_t chunk = left;
		ssize_t n;
#ifdef DEVPLAN_FAULT_INJECTION
		if (f->short_writes && chunk > 7)
			chunk = 7; /* as a pipe or a signal can cut a write short */
#endif
		n = write(f->fd, p, chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			*err = file_error(f->path, n < 0 ? errno : ENOSPC);
			return false;
		}
		p += n;
		left -= (size_t)n;
	}
#ifdef DEVPLAN_FAULT_INJECTION
	if (f->fail_at == f->writes) {
		*err = file_error(f->path, ENOSPC);
		return false;
	}
#endif
	return true;
}

static void file_free(FileWriter *f)
{
	free(f->path);
	free(f->target);
	free(f->tmp);
	free(f);
}

void file_abort(FileWriter *f)
{
	if (!f)
		return;
	close(f->fd);
	unlink(f->tmp);
	file_free(f);
}

/* After the rename, the directory entry itself is synced, so that a
 * crash cannot bring back the old file once the command said it wrote the
 * new one. A file system that cannot sync a directory (EINVAL) has nothing
 * more to do, so failures here are not errors. */
static void sync_directory(const char *target)
{
	const char *slash = strrchr(target, '/');
	char *dir = slash ? xstrndup(target, slash == target ? 1 : (size_t)(slash - target))
			  : xstrdup(".");
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
	free(dir);
}

bool file_commit(FileWriter *f, char **err)
{
	int error = 0;
	*err = NULL;
	/* best effort, before the mode (a chown clears set-id bits): only root
	 * may give a file away, and a group only to a member */
	if (f->keep_owner && fchown(f->fd, f->uid, f->gid) != 0)
		(void)!fchown(f->fd, (uid_t)-1, f->gid);
	if (fchmod(f->fd, f->mode) != 0)
		error = errno;
	while (!error && fsync(f->fd) != 0) {
		if (errno != EINTR)
			error = errno;
	}
#ifdef DEVPLAN_FAULT_INJECTION
	if (!error && f->fail_sync)
		error = EIO;
#endif
	if (close(f->fd) != 0 && !error && errno != EINTR)
		error = errno;
	if (!error && rename(f->tmp, f->target) != 0)
		error = errno;
	if (!error)
		sync_directory(f->target);
	if (error) {
		*err = file_error(f->path, error);
		unlink(f->tmp);
	}
	file_free(f);
	return !error;
}

void file_make_private(FileWriter *f)
{
	if (!f->keep_owner)
		f->mode = 0600;
}

const char *file_path(const FileWriter *f)
{
	return f->path;
}

bool file_check(const char *path, char **err)
{
	FileWriter *f = file_begin(path, err);
	if (!f)
		return false;
	file_abort(f);
	return true;
}

bool file_write_all(const char *path, const void *data, size_t len, char **err)
{
	FileWriter *f = file_begin(path, err);
	if (!f)
		return false;
	if (!file_write(f, data, len, err)) {
		file_abort(f);
		return false;
	}
	return file_commit(f, err);
}
