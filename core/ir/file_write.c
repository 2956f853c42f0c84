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
#include <sys/random.h>
#include <unistd.h>

#include "oom.h"
#include "util.h"

struct FileWriter {
	char *path;      /* as the caller named it, for messages */
	char *name;      /* the file replaced, in dirfd: path's last component,
			    or that of what a symbolic link names */
	char *tmp;       /* the temporary file's name in dirfd */
	int dirfd;       /* open on the destination's directory */
	int fd;          /* open on tmp */
	mode_t mode;     /* what the file gets: the destination's, or a new file's */
	bool keep_owner; /* the destination existed: its owner and group too */
	uid_t uid;
	gid_t gid;
	int fail_at;        /* test builds: the file_write that fails (0: none) */
	bool fail_sync;     /* test builds: the fsync fails */
	bool short_writes;  /* test builds: each write(2) takes at most 7 bytes */
	int writes;         /* file_write calls so far */
	bool guarded;       /* it replaces the guarded file (allowed) */
	OomCleanup cleanup; /* file_abort if memory runs out first */
};

/* The file no writer replaces unasked (file_guard_set). */
static struct {
	bool set;
	dev_t dev;
	ino_t ino;
	bool allowed;     /* file_guard_allow, or a yes to the question */
	FileGuardAsk ask; /* NULL: refuse */
	void *context;
} guard;

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

void file_guard_set(const char *path)
{
	struct stat st;
	guard.set = path && stat(path, &st) == 0;
	if (guard.set) {
		guard.dev = st.st_dev;
		guard.ino = st.st_ino;
	}
}

bool file_guard_allow(bool allow)
{
	bool was = guard.allowed;
	guard.allowed = allow;
	return was;
}

void file_guard_ask(FileGuardAsk ask, void *context)
{
	guard.ask = ask;
	guard.context = context;
}

bool file_guarded(const char *path)
{
	struct stat st;
	return guard.set && stat(path, &st) == 0 && st.st_dev == guard.dev &&
	       st.st_ino == guard.ino;
}

/* Whether the existing destination st may be replaced: not the guarded
 * file unless allowed or the user says yes. */
static bool guard_permits(const char *path, const struct stat *st, char **err)
{
	if (!guard.set || st->st_dev != guard.dev || st->st_ino != guard.ino)
		return true;
	if (guard.allowed)
		return true;
	if (guard.ask && guard.ask(path, guard.context)) {
		guard.allowed = true; /* for the rest of the command */
		return true;
	}
	*err = xasprintf("cannot write '%s': it is the module this session loaded; %s", path,
			 guard.ask ? "left as it is" : "add --force to replace it");
	return false;
}

/* Opens path's directory into *dirfd and sets *name to its last component;
 * an errno on failure. */
static int open_parent(const char *path, int *dirfd, char **name)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xstrndup(path, (size_t)(slash - path) + (slash == path)) : xstrdup(".");
	*dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (*dirfd < 0)
		return errno;
	*name = xstrdup(slash ? slash + 1 : path);
	return 0;
}

/* Makes the temporary file `.dpXXXXXX` in dirfd, never through a link
 * (O_EXCL, O_NOFOLLOW), its name written into tmp (10 bytes): its
 * descriptor, or -1 with errno set. Allocates nothing, so that no failed
 * allocation can leave the file behind. */
static int make_temporary(int dirfd, char *tmp)
{
	static const char digits[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	for (int attempt = 0; attempt < 100; attempt++) {
		unsigned char r[6];
		int fd;
		if (getentropy(r, sizeof r) != 0)
			return -1;
		memcpy(tmp, ".dp", 3);
		for (size_t i = 0; i < sizeof r; i++)
			tmp[3 + i] = digits[r[i] % (sizeof digits - 1)];
		tmp[9] = '\0';
		fd = openat(dirfd, tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	errno = EEXIST;
	return -1;
}

/* Checks what exists at name in dirfd (st) may be replaced; *err otherwise. */
static bool destination_ok(const char *path, int dirfd, const char *name, const struct stat *st,
			   char **err)
{
	if (!S_ISREG(st->st_mode)) {
		*err = xasprintf("cannot write '%s': %s", path,
				 S_ISDIR(st->st_mode) ? "it is a directory" : "not a regular file");
		return false;
	}
	/* a file the user may not write is not replaced behind their back, nor
	 * one that no one may write, even by root (who may write anything) */
	if (faccessat(dirfd, name, W_OK, 0) != 0) {
		*err = file_error(path, errno);
		return false;
	}
	if (!(st->st_mode & (S_IWUSR | S_IWGRP | S_IWOTH))) {
		*err = xasprintf("cannot write '%s': it is read-only", path);
		return false;
	}
	return guard_permits(path, st, err);
}

static void file_free(FileWriter *f);

static void file_abandon(void *arg)
{
	file_abort(arg);
}

FileWriter *file_begin(const char *path, char **err)
{
	struct stat st;
	bool exists;
	char *name = NULL;
	FileWriter *f;
	int dirfd, fd, error;
	*err = NULL;
	if (!*path) {
		*err = file_error(path, ENOENT);
		return NULL;
	}
	if ((error = open_parent(path, &dirfd, &name)) != 0) {
		*err = file_error(path, error);
		return NULL;
	}
	exists = fstatat(dirfd, *name ? name : ".", &st, AT_SYMLINK_NOFOLLOW) == 0;
	if (!exists && errno != ENOENT) {
		*err = file_error(path, errno);
		goto fail;
	}
	if (exists && S_ISLNK(st.st_mode)) {
		/* a symbolic link stays one and the file it names is replaced,
		 * if the user made it: one planted by another user (in /tmp, a
		 * directory others may write) is not followed */
		char *real;
		if (st.st_uid != geteuid()) {
			*err = xasprintf("cannot write '%s': it is a symbolic link that another "
					 "user (uid %lu) made; not followed",
					 path, (unsigned long)st.st_uid);
			goto fail;
		}
		real = realpath(path, NULL);
		if (!real || stat(real, &st) != 0) {
			*err = file_error(path, errno);
			free(real);
			goto fail;
		}
		close(dirfd);
		free(name);
		name = NULL;
		error = open_parent(real, &dirfd, &name);
		free(real);
		if (error) {
			*err = file_error(path, error);
			return NULL;
		}
	}
	if (exists && !destination_ok(path, dirfd, *name ? name : ".", &st, err))
		goto fail;
	/* everything allocated before the temporary file exists, and the
	 * cleanup registered at once after: a command abandoned for want of
	 * memory leaves no temporary file */
	f = xcalloc(1, sizeof *f);
	f->path = xstrdup(path);
	f->tmp = xmalloc(10);
	f->name = name;
	f->dirfd = dirfd;
	/* the new file takes the guard over: it is still the module's file */
	f->guarded = exists && guard.set && st.st_dev == guard.dev && st.st_ino == guard.ino;
	f->mode = exists ? st.st_mode & 07777 : file_new_mode();
	f->keep_owner = exists;
	f->uid = st.st_uid;
	f->gid = st.st_gid;
	fd = make_temporary(dirfd, f->tmp);
	if (fd < 0) {
		*err = file_error(path, errno);
		f->fd = -1;
		f->tmp[0] = '\0';
		file_free(f);
		return NULL;
	}
	f->fd = fd;
	f->cleanup = oom_cleanup_add(file_abandon, f);
#ifdef DEVPLAN_FAULT_INJECTION
	file_read_fault(f);
#endif
	return f;
fail:
	close(dirfd);
	free(name);
	return NULL;
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
	oom_cleanup_remove(f->cleanup);
	close(f->dirfd);
	free(f->path);
	free(f->name);
	free(f->tmp);
	free(f);
}

void file_abort(FileWriter *f)
{
	if (!f)
		return;
	close(f->fd);
	unlinkat(f->dirfd, f->tmp, 0);
	file_free(f);
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
	/* renameat replaces the name itself: a link planted there since
	 * file_begin is replaced, never followed */
	if (!error && renameat(f->dirfd, f->tmp, f->dirfd, f->name) != 0)
		error = errno;
	/* the directory entry synced, so that a crash cannot bring back the
	 * old file once the command said it wrote the new one (a file system
	 * that cannot sync a directory has nothing more to do) */
	if (!error)
		(void)fsync(f->dirfd);
	if (!error && f->guarded) {
		struct stat st;
		if (fstatat(f->dirfd, f->name, &st, 0) == 0) {
			guard.dev = st.st_dev;
			guard.ino = st.st_ino;
		}
	}
	if (error) {
		*err = file_error(f->path, error);
		unlinkat(f->dirfd, f->tmp, 0);
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

static bool write_all(const char *path, const void *data, size_t len, bool private_file, char **err)
{
	FileWriter *f = file_begin(path, err);
	if (!f)
		return false;
	if (!file_write(f, data, len, err)) {
		file_abort(f);
		return false;
	}
	if (private_file)
		file_make_private(f);
	return file_commit(f, err);
}

bool file_write_all(const char *path, const void *data, size_t len, char **err)
{
	return write_all(path, data, len, false, err);
}

bool file_write_all_private(const char *path, const void *data, size_t len, char **err)
{
	return write_all(path, data, len, true, err);
}
