/*
 * path.h - lexical arithmetic on file paths: joining, normalising, and the
 * path from one directory to another.
 *
 * Nothing here touches the file system: `..` removes the name before it
 * and symbolic links are not followed, so an answer depends on the
 * spelling alone. That is what a bug report's folder needs (dispatch.c's
 * record and cmd_bugreport.c): it rebuilds the places of the files a
 * session used relative to one another, and a path typed with `..` means
 * in the copy what it meant when it was typed. A normal path has no empty,
 * `.` or (below the root of an absolute path) `..` component and no
 * trailing slash; the empty path normalises to `.`.
 *
 * Ownership: every function that returns char * returns a new string the
 * caller frees.
 */
#ifndef DEVPLAN_PATH_H
#define DEVPLAN_PATH_H

#include <stdbool.h>

/* path with its `.` and `..` components resolved and slashes collapsed:
 * "a/./b/../c//" is "a/c", "/.." is "/", "../x" stays "../x". */
char *path_normalize(const char *path);
/* path when it is absolute, else dir/path; normalised either way. */
char *path_join(const char *dir, const char *path);
/* The directory part of a normal path: "a/b" -> "a", "b" -> ".",
 * "/b" -> "/". */
char *path_dirname(const char *path);
/* The last component (a pointer into path). */
const char *path_basename(const char *path);
/* Whether the normal absolute path is dir or lies under it. */
bool path_is_within(const char *dir, const char *path);
/* The relative path that leads from directory `from` to `to` (both normal
 * and absolute): "b/c", "../x", or "." when they are the same. */
char *path_relative(const char *from, const char *to);
/* The longest directory that holds both normal absolute paths (or is
 * them): "/a/b/c" and "/a/d" -> "/a". */
char *path_common_dir(const char *a, const char *b);
/* The current directory, normalised (NULL when it cannot be told). */
char *path_current_dir(void);

#endif
