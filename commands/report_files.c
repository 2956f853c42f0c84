/*
 * report_files.c - a bug report's files/ folder (report_files.h).
 *
 * Two passes. report_files_collect walks the replayed lines, and the
 * scripts they source, through commands_path_words: each file a command
 * names is resolved from the folder the line ran in (a script's lines
 * from the script's folder, and after a `cd` in it from there) and noted
 * with how it was first used; each such folder is noted too. The folder
 * that holds them all, `root`, is what files/ stands for: a path P of the
 * session is files/ + (P relative to root), its "mirror". Then
 * report_files_line and report_files_write put every line and every file
 * at its mirror: a word keeps its spelling when it leads to the same place
 * from the mirror of its folder, and becomes the relative path that does
 * otherwise. Everything is lexical (path.h), so that `..` in what was
 * typed means in files/ what it meant in the session.
 */
#include "report_files.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "path.h"

enum { REPORT_SCRIPT_DEPTH = 32 }; /* as deep as scripts may source */

typedef struct ReportFile {
	char *path;       /* absolute, as the session resolved it */
	CmdPathRole role; /* how a replayed command first used it */
	bool script;      /* a script a command runs (source, reduce's script) */
	bool scanned;     /* its lines were collected */
	char *top;        /* a script's: the top level's folder when it ran */
} ReportFile;

struct ReportFiles {
	ReportFile *files;
	size_t nfiles, cap_files;
	char **dirs; /* the folders commands ran in or went to */
	size_t ndirs, cap_dirs;
	char *root;    /* what files/ stands for; NULL when nothing is known */
	char *current; /* where the replay is, a mirror ("/" is files/
			  itself); NULL: still in the report's folder */
};

/* ---- collecting ---- */

static ReportFile *find_file(ReportFiles *rf, const char *path)
{
	for (size_t i = 0; i < rf->nfiles; i++)
		if (strcmp(rf->files[i].path, path) == 0)
			return &rf->files[i];
	return NULL;
}

static ReportFile *note_file(ReportFiles *rf, const char *path, CmdPathRole role)
{
	ReportFile *f = find_file(rf, path);
	if (f)
		return f;
	grow_array((void **)&rf->files, &rf->cap_files, rf->nfiles + 1, sizeof *rf->files);
	f = &rf->files[rf->nfiles++];
	memset(f, 0, sizeof *f);
	f->path = xstrdup(path);
	f->role = role;
	return f;
}

static void note_dir(ReportFiles *rf, const char *dir)
{
	for (size_t i = 0; i < rf->ndirs; i++)
		if (strcmp(rf->dirs[i], dir) == 0)
			return;
	grow_array((void **)&rf->dirs, &rf->cap_dirs, rf->ndirs + 1, sizeof *rf->dirs);
	rf->dirs[rf->ndirs++] = xstrdup(dir);
}

/* The whole of a (small) file: a script. NULL when it cannot be read. */
static char *read_text(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	StrBuf sb;
	char chunk[4096];
	size_t n;
	if (!f)
		return NULL;
	strbuf_init(&sb);
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		strbuf_append(&sb, chunk, n);
	if (ferror(f)) {
		fclose(f);
		strbuf_free(&sb);
		return NULL;
	}
	fclose(f);
	*len = sb.len;
	if (!sb.data)
		return xstrdup("");
	return strbuf_detach(&sb);
}

/* What `cd` in a script leads to when it leads to a folder, else NULL. */
static char *cd_target(char *path)
{
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return path;
	free(path);
	return NULL;
}

static void collect_script(ReportFiles *rf, ReportFile *f, int depth);

/* Notes the files of one command line that ran in dir, and collects the
 * scripts it runs; the folder `cd` went to (owned), or NULL. */
static char *collect_command(ReportFiles *rf, const char *line, const char *dir, const char *top,
			     int depth)
{
	int argc;
	char **argv, *err, *next = NULL;
	bool ambiguous;
	const Command *cmd;
	CmdPathWord *words;
	size_t n;
	if (!commands_split(line, &argc, &argv, &err)) {
		free(err);
		return NULL;
	}
	cmd = argc > 0 ? commands_find(argv[0], &ambiguous) : NULL;
	words = commands_path_words(argc, argv, &n);
	for (size_t k = 0; k < n; k++) {
		const CmdPathWord *w = &words[k];
		char *path = commands_path_resolve(w, argv[w->word] + w->offset, dir, top);
		ReportFile *f;
		if (w->role == CMD_PATH_DIRECTORY) {
			note_dir(rf, path);
			free(next);
			next = cd_target(path);
			continue;
		}
		f = note_file(rf, path, w->role);
		/* the only input of reduce is its `script FILE` */
		if (w->role == CMD_PATH_INPUT && f->role == CMD_PATH_INPUT &&
		    (cmd->handler == cmd_source || cmd->handler == cmd_reduce) && !f->scanned) {
			f->script = true;
			if (!f->top && top)
				f->top = xstrdup(top);
			collect_script(rf, f, depth + 1);
		}
		free(path);
	}
	free(words);
	commands_free_words(argc, argv);
	return next;
}

/* The command of a script's line: past its blanks and a `-` mark. */
static const char *line_command(const char *line)
{
	while (*line == ' ' || *line == '\t')
		line++;
	return *line == '-' ? line + 1 : line;
}

/* Runs fn on each line of text, its line end (LF or CR LF) cut off. */
static void for_each_line(char *text, size_t len, void (*fn)(void *, char *, size_t), void *arg)
{
	size_t start = 0;
	for (size_t i = 0; i <= len && start < len; i++) {
		size_t end = i;
		char saved;
		if (i < len && text[i] != '\n')
			continue;
		if (end > start && text[end - 1] == '\r')
			end--;
		saved = text[end];
		text[end] = '\0';
		fn(arg, text + start, end - start);
		text[end] = saved;
		start = i + 1;
	}
}

typedef struct ScriptWalk {
	ReportFiles *rf;
	char *dir; /* the folder its lines run in (owned) */
	const char *top;
	int depth;
	StrBuf *out; /* writing: the script as the replay runs it */
} ScriptWalk;

static void collect_script_line(void *arg, char *line, size_t len)
{
	ScriptWalk *walk = arg;
	char *next =
		collect_command(walk->rf, line_command(line), walk->dir, walk->top, walk->depth);
	(void)len;
	if (next) {
		free(walk->dir);
		walk->dir = next;
	}
}

static void collect_script(ReportFiles *rf, ReportFile *f, int depth)
{
	ScriptWalk walk = {rf, NULL, f->top, depth, NULL};
	size_t len;
	char *text;
	f->scanned = true;
	if (depth > REPORT_SCRIPT_DEPTH || !(text = read_text(f->path, &len)))
		return;
	walk.dir = path_dirname(f->path);
	note_dir(rf, walk.dir);
	/* f may move as the array grows: walk holds what it needs */
	walk.top = walk.top ? xstrdup(walk.top) : NULL;
	for_each_line(text, len, collect_script_line, &walk);
	free((char *)walk.top);
	free(walk.dir);
	free(text);
}

ReportFiles *report_files_collect(const CmdHistoryLine *const *lines, size_t n)
{
	ReportFiles *rf = xcalloc(1, sizeof *rf);
	for (size_t i = 0; i < n; i++) {
		if (!lines[i]->dir)
			continue;
		note_dir(rf, lines[i]->dir);
		free(collect_command(rf, lines[i]->line, lines[i]->dir, lines[i]->top, 0));
	}
	/* the folder that holds every folder and file */
	for (size_t i = 0; i < rf->ndirs + rf->nfiles; i++) {
		char *dir = i < rf->ndirs ? xstrdup(rf->dirs[i])
					  : path_dirname(rf->files[i - rf->ndirs].path);
		char *common = rf->root ? path_common_dir(rf->root, dir) : NULL;
		if (common) {
			free(dir);
			dir = common;
		}
		free(rf->root);
		rf->root = dir;
	}
	return rf;
}

/* ---- writing ---- */

/* path's place in files/, as an absolute path with files/ for its root. */
static char *mirror(const ReportFiles *rf, const char *path)
{
	char *relative = path_relative(rf->root, path);
	char *m = path_join("/", relative);
	free(relative);
	return m;
}

typedef struct LineMap {
	ReportFiles *rf;
	const char *dir, *top;
} LineMap;

/* CmdPathMap: the word that leads from the mirror of the line's folder to
 * the mirror of its file; NULL when what was typed does. */
static char *line_map(void *arg, const CmdPathWord *w, const char *typed)
{
	LineMap *m = arg;
	char *path = commands_path_resolve(w, typed, m->dir, m->top);
	char *from = mirror(m->rf, m->dir), *to = mirror(m->rf, path);
	char *word = path_relative(from, to), *as_typed = path_normalize(typed);
	if (typed[0] != '/' && strcmp(word, as_typed) == 0) {
		free(word);
		word = NULL;
	}
	free(as_typed);
	free(path);
	free(from);
	free(to);
	return word;
}

/* A command as the replay runs it from dir; NULL when as typed. */
static char *map_command(ReportFiles *rf, const char *command, const char *dir, const char *top)
{
	LineMap m = {rf, dir, top};
	char *mapped = commands_map_paths(command, line_map, &m);
	if (mapped && strcmp(mapped, command) == 0) {
		free(mapped);
		mapped = NULL;
	}
	return mapped;
}

char *report_files_line(ReportFiles *rf, const CmdHistoryLine *h, char **cd)
{
	char *here;
	*cd = NULL;
	if (!rf->root || !h->dir)
		return NULL;
	here = mirror(rf, h->dir);
	if (!rf->current || strcmp(rf->current, here) != 0) {
		StrBuf sb;
		char *way = rf->current              ? path_relative(rf->current, here)
			    : strcmp(here, "/") == 0 ? xstrdup("files")
						     : xasprintf("files%s", here);
		strbuf_init(&sb);
		strbuf_puts(&sb, "cd ");
		commands_put_word(&sb, way);
		free(way);
		*cd = strbuf_detach(&sb);
		free(rf->current);
		rf->current = here;
	} else {
		free(here);
	}
	return map_command(rf, h->line, h->dir, h->top);
}

/* Makes every missing folder of path (itself included). */
static bool make_dirs(const char *path, char **err)
{
	char *p = xstrdup(path);
	bool ok = true;
	for (char *s = p + 1;; s++) {
		char c = *s;
		if (c != '/' && c != '\0')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) != 0 && errno != EEXIST) {
			*err = xasprintf("cannot create '%s': %s", p, strerror(errno));
			ok = false;
		}
		*s = c;
		if (!ok || c == '\0')
			break;
	}
	free(p);
	return ok;
}

static bool copy_file(const char *from, const char *to, char **err)
{
	FILE *in = fopen(from, "rb");
	FileWriter *out;
	char chunk[65536];
	size_t n;
	bool ok = true;
	if (!in) {
		*err = xasprintf("cannot read '%s': %s", from, strerror(errno));
		return false;
	}
	if (!(out = file_begin(to, err))) {
		fclose(in);
		return false;
	}
	while (ok && (n = fread(chunk, 1, sizeof chunk, in)) > 0)
		ok = file_write(out, chunk, n, err);
	if (ok && ferror(in)) {
		*err = xasprintf("cannot read '%s': %s", from, strerror(errno));
		ok = false;
	}
	fclose(in);
	if (!ok) {
		file_abort(out);
		return false;
	}
	return file_commit(out, err);
}

static void write_script_line(void *arg, char *line, size_t len)
{
	ScriptWalk *walk = arg;
	const char *command = line_command(line);
	char *mapped = map_command(walk->rf, command, walk->dir, walk->top);
	char *next = NULL, **argv, *err;
	CmdPathWord *words;
	size_t n;
	int argc;
	if (mapped) {
		strbuf_append(walk->out, line, (size_t)(command - line));
		strbuf_puts(walk->out, mapped);
	} else {
		strbuf_append(walk->out, line, len);
	}
	strbuf_putc(walk->out, '\n');
	free(mapped);
	/* a `cd` moves the lines after it */
	if (commands_split(command, &argc, &argv, &err)) {
		words = commands_path_words(argc, argv, &n);
		if (n == 1 && words[0].role == CMD_PATH_DIRECTORY)
			next = cd_target(commands_path_resolve(&words[0], argv[words[0].word],
							       walk->dir, walk->top));
		free(words);
		commands_free_words(argc, argv);
	} else {
		free(err);
	}
	if (next) {
		free(walk->dir);
		walk->dir = next;
	}
}

/* The script at f, its paths made to lead where they led from its mirror. */
static bool write_script(const ReportFiles *rf, const ReportFile *f, const char *to, char **err)
{
	ScriptWalk walk = {(ReportFiles *)rf, path_dirname(f->path), f->top, 0, NULL};
	StrBuf out;
	size_t len;
	char *text = read_text(f->path, &len);
	bool ok;
	if (!text) {
		free(walk.dir);
		return true; /* as the session, the replay will not find it */
	}
	strbuf_init(&out);
	walk.out = &out;
	for_each_line(text, len, write_script_line, &walk);
	/* no line end was added after a last line that had none */
	if (len && text[len - 1] != '\n' && out.len)
		out.data[--out.len] = '\0';
	ok = file_write_all(to, out.data ? out.data : "", out.len, err);
	strbuf_free(&out);
	free(text);
	free(walk.dir);
	return ok;
}

bool report_files_write(const ReportFiles *rf, const char *dir, char **err)
{
	char *files = xasprintf("%s/files", dir);
	bool ok = true;
	*err = NULL;
	if (!rf->root) {
		free(files);
		return true;
	}
	ok = make_dirs(files, err);
	for (size_t i = 0; i < rf->ndirs && ok; i++) {
		char *m = mirror(rf, rf->dirs[i]), *there = xasprintf("%s%s", files, m);
		ok = make_dirs(there, err);
		free(m);
		free(there);
	}
	for (size_t i = 0; i < rf->nfiles && ok; i++) {
		const ReportFile *f = &rf->files[i];
		char *m = mirror(rf, f->path), *to = xasprintf("%s%s", files, m);
		char *parent = path_dirname(to);
		struct stat st;
		ok = make_dirs(parent, err);
		if (ok && f->role == CMD_PATH_INPUT) {
			if (f->script)
				ok = write_script(rf, f, to, err);
			else if (stat(f->path, &st) == 0 && S_ISREG(st.st_mode))
				ok = copy_file(f->path, to, err);
		}
		free(parent);
		free(m);
		free(to);
	}
	free(files);
	return ok;
}

void report_files_free(ReportFiles *rf)
{
	if (!rf)
		return;
	for (size_t i = 0; i < rf->nfiles; i++) {
		free(rf->files[i].path);
		free(rf->files[i].top);
	}
	free(rf->files);
	for (size_t i = 0; i < rf->ndirs; i++)
		free(rf->dirs[i]);
	free(rf->dirs);
	free(rf->root);
	free(rf->current);
	free(rf);
}
