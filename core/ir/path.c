/*
 * path.c - lexical arithmetic on file paths (path.h).
 *
 * A path is taken apart into its components once (path_normalize), and
 * every other function works on normal paths by comparing components, so
 * that "/a/bc" never counts as lying under "/a/b".
 */
#include "path.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

char *path_normalize(const char *path)
{
	bool absolute = path[0] == '/';
	size_t n = strlen(path);
	/* the kept components, as (start, length) in path */
	size_t *start = xmalloc((n / 2 + 1) * sizeof *start);
	size_t *len = xmalloc((n / 2 + 1) * sizeof *len);
	size_t count = 0;
	StrBuf sb;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && path[j] != '/')
			j++;
		if (j == i || (j - i == 1 && path[i] == '.')) {
			/* an empty component or `.` */
		} else if (j - i == 2 && path[i] == '.' && path[i + 1] == '.') {
			if (count && !(len[count - 1] == 2 && path[start[count - 1]] == '.' &&
				       path[start[count - 1] + 1] == '.'))
				count--;
			else if (!absolute) /* nothing is above the root */
				start[count] = i, len[count++] = 2;
		} else {
			start[count] = i, len[count++] = j - i;
		}
		i = j + 1;
	}
	strbuf_init(&sb);
	if (absolute)
		strbuf_putc(&sb, '/');
	for (size_t k = 0; k < count; k++) {
		if (k)
			strbuf_putc(&sb, '/');
		strbuf_append(&sb, path + start[k], len[k]);
	}
	if (sb.len == 0)
		strbuf_putc(&sb, '.');
	free(start);
	free(len);
	return strbuf_detach(&sb);
}

char *path_join(const char *dir, const char *path)
{
	char *joined, *normal;
	if (path[0] == '/')
		return path_normalize(path);
	joined = xasprintf("%s/%s", dir, path);
	normal = path_normalize(joined);
	free(joined);
	return normal;
}

char *path_dirname(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

const char *path_basename(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

bool path_is_within(const char *dir, const char *path)
{
	size_t n = strlen(dir);
	if (strcmp(dir, "/") == 0)
		return path[0] == '/';
	return strncmp(dir, path, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

char *path_common_dir(const char *a, const char *b)
{
	size_t end = 0; /* the length of the common directory so far */
	for (size_t i = 0;; i++) {
		bool a_ends = a[i] == '\0' || a[i] == '/';
		bool b_ends = b[i] == '\0' || b[i] == '/';
		if (a_ends && b_ends)
			end = i;
		if (a[i] != b[i] || a[i] == '\0')
			break;
	}
	return end == 0 ? xstrdup("/") : xstrndup(a, end);
}

char *path_relative(const char *from, const char *to)
{
	char *common = path_common_dir(from, to);
	size_t n = strcmp(common, "/") == 0 ? 0 : strlen(common);
	const char *up = from + n, *down = to + n;
	StrBuf sb;
	free(common);
	strbuf_init(&sb);
	/* one `..` per component of from below the common directory */
	for (const char *p = up; *p; p++)
		if (p[0] == '/' && p[1] != '\0')
			strbuf_puts(&sb, sb.len ? "/.." : "..");
	if (*down == '/')
		down++;
	if (*down) {
		if (sb.len)
			strbuf_putc(&sb, '/');
		strbuf_puts(&sb, down);
	}
	if (sb.len == 0)
		strbuf_putc(&sb, '.');
	return strbuf_detach(&sb);
}

char *path_current_dir(void)
{
	char *cwd = getcwd(NULL, 0), *normal;
	if (!cwd)
		return NULL;
	normal = path_normalize(cwd);
	free(cwd);
	return normal;
}
