/*
 * file_write.h - the one way devplan writes a file (render, render --html,
 * run --output, run --dump, record).
 *
 * A file is never written in place: the bytes go to a temporary file in
 * the destination's directory (`.dpXXXXXX`, short, so that a name of
 * NAME_MAX bytes still works), every write is checked (partial writes and
 * EINTR retried), the file is given the destination's mode (a new file
 * 0666 less the umask) and, where the user may, its owner and group,
 * synced and renamed over the destination. Until the
 * rename the destination is untouched; on any failure the temporary file
 * is removed and the error names the path and the reason.
 *
 * A destination that exists must be a regular file the user may write
 * (as cp and a shell redirection demand): a directory, a device such as
 * /dev/full, a FIFO or a socket is refused, and so is a file the user may
 * not write or that has no write permission at all (root included). A
 * symbolic link the user made is followed to its regular target, which is
 * replaced; the link stays a link. One another user made is refused, not
 * followed: in a directory others may write (/tmp, a shared dump
 * directory) it may have been planted to make devplan replace a file of
 * the user's. Everything happens relative to the directory, opened once
 * (openat, renameat): the temporary file is created with O_EXCL and
 * O_NOFOLLOW, and the rename replaces the name itself, so a link planted
 * after the checks is replaced, never followed.
 *
 * The guard: the file the session loaded its module from (by device and
 * inode, so another name or a link to it is the same file) is not replaced
 * unasked. file_begin refuses it ("add --force to replace it") unless the
 * command was given --force (file_guard_allow) or, in an interactive
 * session, the user answers yes to the shell's question (file_guard_ask).
 *
 * Test builds (DEVPLAN_FAULT_INJECTION) read DEVPLAN_FAIL_WRITE when a file
 * is begun: `N` makes the Nth file_write to that file write half its bytes
 * and then fail with ENOSPC, as a disk that fills up does; `sync` makes
 * the fsync fail with EIO; `short` makes every write(2) take at most 7
 * bytes, so that the writer must carry on after partial writes.
 *
 * Ownership: file_begin returns a writer that file_commit or file_abort
 * frees; error strings are the caller's to free().
 */
#ifndef DEVPLAN_FILE_WRITE_H
#define DEVPLAN_FILE_WRITE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct FileWriter FileWriter;

/* Checks that path may be replaced and makes the temporary file beside it.
 * NULL with *err set ("cannot write 'PATH': REASON") when it cannot. A
 * relative path is taken from the current folder now: the writer goes on
 * to the same file if the folder changes before the commit. */
FileWriter *file_begin(const char *path, char **err);

/* Appends len bytes. False with *err set when a write failed; the writer
 * is then spent: the caller calls file_abort. */
bool file_write(FileWriter *f, const void *data, size_t len, char **err);

/* Sets the mode, syncs and renames the temporary file over the
 * destination, and frees f. False with *err set, the temporary file
 * removed and the destination untouched, when any step fails. */
bool file_commit(FileWriter *f, char **err);

/* Removes the temporary file and frees f; the destination is untouched. */
void file_abort(FileWriter *f);

/* A destination that does not exist yet is made 0600 (its owner's only,
 * as shells keep a history), not 0666 less the umask. */
void file_make_private(FileWriter *f);

/* The destination as the caller named it (for messages). */
const char *file_path(const FileWriter *f);

/* Whether path could be written now (file_begin, then file_abort): a
 * command checks its destination before long work. False with *err set. */
bool file_check(const char *path, char **err);

/* Remembers path's file (following links) as the one not to replace
 * unasked; NULL, or a path that does not exist, forgets it. */
void file_guard_set(const char *path);

/* Whether writers may replace the guarded file (--force, for one
 * command); returns the previous value, for the caller to put back. */
bool file_guard_allow(bool allow);

/* The question an interactive shell asks before the guarded file is
 * replaced: true to replace it (then allowed until file_guard_allow
 * resets it). NULL: refuse. */
typedef bool (*FileGuardAsk)(const char *path, void *context);
void file_guard_ask(FileGuardAsk ask, void *context);

/* Whether path is the guarded file. */
bool file_guarded(const char *path);

/* file_begin, file_write of the len bytes at data, file_commit. */
bool file_write_all(const char *path, const void *data, size_t len, char **err);
/* The same, a destination that does not exist yet made private
 * (file_make_private), as a history file is. */
bool file_write_all_private(const char *path, const void *data, size_t len, char **err);

#endif
