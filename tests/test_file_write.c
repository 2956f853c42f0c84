/*
 * test_file_write.c - the one writer (core/ir/file_write.c) and every
 * command that writes a file through it: render (png, svg, dot, --html),
 * run --output, run --dump and record, plus a command whose standard
 * output cannot be written.
 *
 * Each test works in a fresh temporary directory. The writer's contract is
 * checked on real special files (/dev/full, a FIFO, a directory), links,
 * modes and a long name; full disks are simulated with the test-build
 * switch DEVPLAN_FAIL_WRITE (file_write.h), and those tests skip in a build
 * without fault injection. After every failure: a clear message naming the
 * file, the old content kept, no temporary file left, the session alive.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "dispatch.h"
#include "file_read.h"
#include "file_write.h"
#include "interrupt.h"
#include "session.h"

#define MODULE DEVPLAN_SOURCE_DIR "/tests/golden/dot/shared_input.relay"

typedef struct Fixture {
	char dir[64]; /* the temporary directory, removed in teardown */
	Session session;
	CmdContext ctx;
	char *out;
	char *err;
} Fixture;

static int setup(void **state)
{
	Fixture *f = xcalloc(1, sizeof *f);
	strcpy(f->dir, "/tmp/devplan-write-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	session_init(&f->session);
	cmd_context_init(&f->ctx, &f->session, NULL, NULL);
	unsetenv("DEVPLAN_FAIL_WRITE");
	*state = f;
	return 0;
}

/* Removes the directory's entries (one level deep) and the directory. */
static void remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	if (!d)
		return;
	while ((e = readdir(d))) {
		char *path;
		struct stat st;
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		path = xasprintf("%s/%s", dir, e->d_name);
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
			remove_tree(path);
		else
			unlink(path);
		free(path);
	}
	closedir(d);
	rmdir(dir);
}

static int teardown(void **state)
{
	Fixture *f = *state;
	unsetenv("DEVPLAN_FAIL_WRITE");
	cmd_context_free(&f->ctx);
	session_free(&f->session);
	free(f->out);
	free(f->err);
	remove_tree(f->dir);
	free(f);
	return 0;
}

/* dir/name, the caller's to free. */
static char *in_dir(const Fixture *f, const char *name)
{
	return xasprintf("%s/%s", f->dir, name);
}

static void write_text(const char *path, const char *text)
{
	FILE *out = fopen(path, "w");
	assert_non_null(out);
	fputs(text, out);
	assert_int_equal(fclose(out), 0);
}

/* The file's content (the caller frees it), or NULL when it cannot be read. */
static char *read_text(const char *path)
{
	FILE *in = fopen(path, "rb");
	StrBuf sb;
	int c;
	if (!in)
		return NULL;
	strbuf_init(&sb);
	while ((c = fgetc(in)) != EOF)
		strbuf_putc(&sb, (char)c);
	fclose(in);
	return strbuf_detach(&sb);
}

static void assert_content(const char *path, const char *expected)
{
	char *text = read_text(path);
	assert_non_null(text);
	assert_string_equal(text, expected);
	free(text);
}

/* No temporary file of the writer (`.dp*`) is left in dir. */
static void assert_no_temp(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	assert_non_null(d);
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, ".dp", 3) == 0)
			fail_msg("temporary file '%s' left in '%s'", e->d_name, dir);
	}
	closedir(d);
}

/* Runs one line; f->out and f->err hold what it printed. */
static int run(Fixture *f, const char *line)
{
	size_t out_len, err_len;
	int status;
	free(f->out);
	free(f->err);
	f->ctx.out = open_memstream(&f->out, &out_len);
	f->ctx.err = open_memstream(&f->err, &err_len);
	assert_non_null(f->ctx.out);
	assert_non_null(f->ctx.err);
	status = commands_execute_line(&f->ctx, line);
	fclose(f->ctx.out);
	fclose(f->ctx.err);
	f->ctx.out = f->ctx.err = NULL;
	return status;
}

static void load_and_plan(Fixture *f)
{
	assert_int_equal(run(f, "load " MODULE), 0);
	assert_int_equal(run(f, "plan"), 0);
}

/* The session still answers after a failure. */
static void assert_alive(Fixture *f)
{
	assert_int_equal(run(f, "placement"), 0);
	assert_non_null(strstr(f->out, "@main"));
}

/*
 * A full device to write to, the caller's to free, or NULL (skip). As
 * root, a code that fails to refuse it could replace /dev/full itself, so
 * root gets a device node of its own in the test's directory (the same
 * device, 1:7); anyone else gets /dev/full, which they cannot replace.
 */
static char *full_device(const Fixture *f)
{
	struct stat st;
	char *path;
	if (geteuid() != 0)
		return stat("/dev/full", &st) == 0 ? xstrdup("/dev/full") : NULL;
	path = in_dir(f, "full");
	if (mknod(path, S_IFCHR | 0666, makedev(1, 7)) != 0) {
		free(path);
		return NULL;
	}
	return path;
}

static bool have_fault_injection(void)
{
#ifdef DEVPLAN_FAULT_INJECTION
	return true;
#else
	return false;
#endif
}

/* ---- the writer ---- */

static void test_new_file_gets_umask_mode(void **state)
{
	Fixture *f = *state;
	char *path = in_dir(f, "new.txt"), *err = NULL;
	struct stat st;
	mode_t mask = umask(022);
	assert_true(file_write_all(path, "hello\n", 6, &err));
	umask(mask);
	assert_null(err);
	assert_content(path, "hello\n");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_no_temp(f->dir);
	free(path);
}

static void test_refuses_device(void **state)
{
	Fixture *f = *state;
	char *err = NULL, *full = full_device(f), *expected;
	struct stat st;
	if (!full) {
		skip();
		return;
	}
	assert_false(file_write_all(full, "x", 1, &err));
	expected = xasprintf("cannot write '%s': not a regular file", full);
	assert_string_equal(err, expected);
	free(expected);
	free(err);
	assert_int_equal(stat(full, &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	assert_no_temp(f->dir);
	free(full);
}

static void test_refuses_fifo_and_directory(void **state)
{
	Fixture *f = *state;
	char *fifo = in_dir(f, "pipe.npy"), *sub = in_dir(f, "sub.svg"), *err = NULL;
	struct stat st;
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(mkdir(sub, 0700), 0);
	/* a FIFO would block an open for writing: it must not even be opened */
	assert_false(file_write_all(fifo, "x", 1, &err));
	assert_non_null(strstr(err, "not a regular file"));
	free(err);
	assert_false(file_write_all(sub, "x", 1, &err));
	assert_non_null(strstr(err, "it is a directory"));
	free(err);
	assert_int_equal(lstat(fifo, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	assert_int_equal(lstat(sub, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_no_temp(f->dir);
	free(fifo);
	free(sub);
}

static void test_symlink_stays_a_link(void **state)
{
	Fixture *f = *state;
	char *target = in_dir(f, "real.txt"), *link = in_dir(f, "link.txt"), *err = NULL;
	struct stat st;
	write_text(target, "old\n");
	assert_int_equal(symlink("real.txt", link), 0);
	assert_true(file_write_all(link, "new\n", 4, &err));
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_content(target, "new\n");
	assert_no_temp(f->dir);
	free(target);
	free(link);
}

static void test_mode_is_kept(void **state)
{
	Fixture *f = *state;
	char *path = in_dir(f, "secret.npy"), *err = NULL;
	struct stat st;
	write_text(path, "old\n");
	assert_int_equal(chmod(path, 0600), 0);
	assert_true(file_write_all(path, "new\n", 4, &err));
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_content(path, "new\n");
	free(path);
}

/* Root replacing another user's file gives the new one to that user. */
static void test_owner_is_kept(void **state)
{
	Fixture *f = *state;
	char *path, *err = NULL;
	struct stat st;
	if (geteuid() != 0)
		skip();
	path = in_dir(f, "theirs.npy");
	write_text(path, "old\n");
	assert_int_equal(chown(path, 4242, 4343), 0);
	assert_true(file_write_all(path, "new\n", 4, &err));
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_uid, 4242);
	assert_int_equal(st.st_gid, 4343);
	free(path);
}

static void test_read_only_file_is_refused(void **state)
{
	Fixture *f = *state;
	char *path = in_dir(f, "ro.npy"), *err = NULL;
	write_text(path, "old\n");
	assert_int_equal(chmod(path, 0444), 0);
	/* refused for root too, who could write it */
	assert_false(file_write_all(path, "new\n", 4, &err));
	assert_non_null(strstr(err, "cannot write '"));
	free(err);
	assert_content(path, "old\n");
	assert_no_temp(f->dir);
	free(path);
}

static void test_long_name(void **state)
{
	Fixture *f = *state;
	char name[NAME_MAX + 1], *path, *err = NULL;
	memset(name, 'a', NAME_MAX);
	name[NAME_MAX] = '\0';
	memcpy(name + NAME_MAX - 4, ".npy", 4);
	path = in_dir(f, name);
	assert_true(file_write_all(path, "x", 1, &err));
	assert_content(path, "x");
	free(path);
	/* and the 250-character name of the issue */
	name[246] = '\0';
	strcat(name, ".svg");
	assert_int_equal(strlen(name), 250);
	path = in_dir(f, name);
	assert_true(file_write_all(path, "y", 1, &err));
	assert_content(path, "y");
	assert_no_temp(f->dir);
	free(path);
}

static void test_missing_directory(void **state)
{
	Fixture *f = *state;
	char *path = in_dir(f, "no/such/file.svg"), *err = NULL, *expected;
	assert_false(file_write_all(path, "x", 1, &err));
	expected = xasprintf("cannot write '%s': No such file or directory", path);
	assert_string_equal(err, expected);
	free(expected);
	free(err);
	free(path);
}

/* A failed write or sync: the error names the file, the old content stays,
 * no temporary file. */
static void test_injected_failures(void **state)
{
	Fixture *f = *state;
	char *path = in_dir(f, "data.bin"), *err = NULL, *expected;
	FileWriter *w;
	if (!have_fault_injection())
		skip();
	write_text(path, "old\n");
	expected = xasprintf("cannot write '%s': No space left on device", path);
	setenv("DEVPLAN_FAIL_WRITE", "2", 1);
	w = file_begin(path, &err);
	assert_non_null(w);
	assert_true(file_write(w, "first\n", 6, &err));
	assert_false(file_write(w, "second\n", 7, &err));
	assert_string_equal(err, expected);
	free(err);
	file_abort(w);
	assert_content(path, "old\n");
	assert_no_temp(f->dir);

	setenv("DEVPLAN_FAIL_WRITE", "sync", 1);
	assert_false(file_write_all(path, "new\n", 4, &err));
	assert_non_null(strstr(err, "Input/output error"));
	free(err);
	assert_content(path, "old\n");
	assert_no_temp(f->dir);
	free(expected);
	free(path);
}

/* Partial writes are carried on until every byte is written. */
static void test_short_writes(void **state)
{
	Fixture *f = *state;
	char *path, *err = NULL, text[1001];
	if (!have_fault_injection())
		skip();
	path = in_dir(f, "long.txt");
	for (size_t i = 0; i < 1000; i++)
		text[i] = (char)('a' + i % 26);
	text[1000] = '\0';
	setenv("DEVPLAN_FAIL_WRITE", "short", 1);
	assert_true(file_write_all(path, text, 1000, &err));
	assert_content(path, text);
	assert_no_temp(f->dir);
	free(path);
}

/* ---- the commands that write ---- */

/* Injects ENOSPC into the first write of `command` (whose %s is replaced by
 * the file's path) over an existing file: the command fails naming it, the
 * old file is kept, no temporary file, the session goes on. */
static void check_command_fails(Fixture *f, const char *command, const char *name)
{
	char *path, *line;
	if (!have_fault_injection())
		skip();
	path = in_dir(f, name);
	line = xasprintf(command, path);
	load_and_plan(f);
	write_text(path, "old\n");
	setenv("DEVPLAN_FAIL_WRITE", "1", 1);
	assert_int_equal(run(f, line), 1);
	unsetenv("DEVPLAN_FAIL_WRITE");
	if (!strstr(f->err, "No space left on device") || !strstr(f->err, name))
		fail_msg("'%s' said: %s", line, f->err);
	assert_content(path, "old\n");
	assert_no_temp(f->dir);
	assert_alive(f);
	/* and without the fault the same command writes the file */
	assert_int_equal(run(f, line), 0);
	{
		char *text = read_text(path);
		assert_non_null(text);
		assert_string_not_equal(text, "old\n");
		free(text);
	}
	assert_no_temp(f->dir);
	free(line);
	free(path);
}

static void test_render_png_full_disk(void **state)
{
	check_command_fails(*state, "render %s", "graph.png");
}

static void test_render_svg_full_disk(void **state)
{
	check_command_fails(*state, "render %s", "graph.svg");
}

static void test_render_dot_full_disk(void **state)
{
	check_command_fails(*state, "render %s", "graph.dot");
}

static void test_render_html_full_disk(void **state)
{
	check_command_fails(*state, "render --html %s", "graph.html");
}

static void test_run_output_full_disk(void **state)
{
	check_command_fails(*state, "run --output %s", "out.npy");
}

static void test_run_dump_full_disk(void **state)
{
	Fixture *f = *state;
	char *dump, *line;
	if (!have_fault_injection())
		skip();
	dump = in_dir(f, "dump");
	line = xasprintf("run --dump %s", dump);
	load_and_plan(f);
	setenv("DEVPLAN_FAIL_WRITE", "1", 1);
	assert_int_equal(run(f, line), 1);
	unsetenv("DEVPLAN_FAIL_WRITE");
	assert_non_null(strstr(f->err, "run --dump: cannot write '"));
	assert_non_null(strstr(f->err, "No space left on device"));
	assert_no_temp(dump);
	assert_alive(f);
	assert_int_equal(run(f, line), 0);
	assert_non_null(strstr(f->out, "manifest.json lists them"));
	assert_no_temp(dump);
	free(line);
	free(dump);
}

static void test_render_refuses_device(void **state)
{
	Fixture *f = *state;
	char *full = full_device(f), *link, *line;
	struct stat st;
	if (!full)
		skip();
	load_and_plan(f);
	/* the extension names a format; the destination is still a device */
	link = in_dir(f, "full.svg");
	line = xasprintf("render %s", link);
	assert_int_equal(symlink(full, link), 0);
	assert_int_equal(run(f, line), 1);
	assert_non_null(strstr(f->err, "not a regular file"));
	assert_int_equal(stat(full, &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	free(line);
	line = xasprintf("run --output %s", full);
	assert_int_equal(run(f, line), 1);
	assert_non_null(strstr(f->err, "not a regular file"));
	/* refused before the run */
	assert_null(strstr(f->out, "result"));
	assert_int_equal(stat(full, &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	assert_no_temp(f->dir);
	assert_alive(f);
	free(line);
	free(link);
	free(full);
}

/* A recording whose disk fills up stops at once with an error, and the
 * record file keeps what it held: never a cut-off line. */
static void test_record_full_disk(void **state)
{
	Fixture *f = *state;
	char *path, *line;
	if (!have_fault_injection())
		skip();
	path = in_dir(f, "session.dp");
	line = xasprintf("record %s", path);
	write_text(path, "echo old\n");
	/* write 1 is the header, 2 the first command, 3 the second */
	setenv("DEVPLAN_FAIL_WRITE", "3", 1);
	assert_int_equal(run(f, line), 0);
	unsetenv("DEVPLAN_FAIL_WRITE");
	assert_int_equal(run(f, "echo one"), 0);
	assert_int_equal(run(f, "echo two"), 1);
	assert_non_null(strstr(f->err, "No space left on device; recording stopped"));
	assert_content(path, "echo old\n");
	assert_no_temp(f->dir);
	assert_int_equal(run(f, "record"), 0);
	assert_string_equal(f->out, "not recording\n");
	/* a later recording works, and `record off` keeps it */
	assert_int_equal(run(f, line), 0);
	assert_int_equal(run(f, "echo three"), 0);
	assert_int_equal(run(f, "record off"), 0);
	{
		char *text = read_text(path);
		assert_non_null(strstr(text, "\necho three\n"));
		assert_null(strstr(text, "echo old"));
		free(text);
	}
	assert_no_temp(f->dir);
	free(line);
	free(path);
}

static void test_record_refuses_device_and_keeps_old_file_on_sync_error(void **state)
{
	Fixture *f = *state;
	char *path = in_dir(f, "session.dp"), *line = xasprintf("record %s", path);
	char *full = full_device(f);
	if (full) {
		char *record = xasprintf("record %s", full);
		assert_int_equal(run(f, record), 1);
		assert_non_null(strstr(f->err, "not a regular file"));
		free(record);
		free(full);
	}
	if (!have_fault_injection()) {
		free(line);
		free(path);
		skip();
		return; /* skip() does not return, which GCC cannot see */
	}
	write_text(path, "echo old\n");
	setenv("DEVPLAN_FAIL_WRITE", "sync", 1);
	assert_int_equal(run(f, line), 0);
	unsetenv("DEVPLAN_FAIL_WRITE");
	assert_int_equal(run(f, "echo one"), 0);
	assert_int_equal(run(f, "record off"), 1);
	assert_non_null(strstr(f->err, "is left as it was"));
	assert_content(path, "echo old\n");
	assert_no_temp(f->dir);
	free(line);
	free(path);
}

/* Output that cannot be written fails the command. */
static void test_output_to_full_device(void **state)
{
	Fixture *f = *state;
	size_t err_len;
	char *device = full_device(f);
	FILE *full = device ? fopen(device, "w") : NULL;
	int status;
	free(device);
	if (!full)
		skip();
	free(f->err);
	f->ctx.out = full;
	f->ctx.err = open_memstream(&f->err, &err_len);
	status = commands_execute_line(&f->ctx, "echo hello");
	fclose(f->ctx.err);
	f->ctx.err = NULL;
	fclose(full);
	f->ctx.out = NULL;
	assert_int_equal(status, 1);
	assert_non_null(strstr(f->err, "cannot write the output: No space left on device"));
	assert_int_equal(run(f, "echo alive"), 0);
	assert_string_equal(f->out, "alive\n");
}

/* A link another user made (root can make one) is refused, not followed,
 * and its target kept; the user's own link is followed (above). */
static void test_link_of_another_user_is_refused(void **state)
{
	Fixture *f = *state;
	char *target = in_dir(f, "victim.txt"), *link = in_dir(f, "planted.svg"), *err = NULL;
	if (geteuid() != 0)
		skip(); /* only root can give a link away */
	write_text(target, "precious\n");
	assert_int_equal(symlink(target, link), 0);
	assert_int_equal(lchown(link, 65534, 65534), 0);
	assert_false(file_write_all(link, "new\n", 4, &err));
	assert_non_null(strstr(err, "a symbolic link that another user (uid 65534) made"));
	free(err);
	assert_content(target, "precious\n");
	assert_no_temp(f->dir);
	free(target);
	free(link);
}

/* The guarded file (the loaded module) is refused by any name, replaced
 * when allowed, and the guard follows the file that replaced it. */
static void test_guard_refuses_the_loaded_module(void **state)
{
	Fixture *f = *state;
	char *module = in_dir(f, "mine.relay"), *alias = in_dir(f, "alias.relay"), *err = NULL;
	write_text(module, "old\n");
	assert_int_equal(link(module, alias), 0);
	file_guard_set(module);
	assert_true(file_guarded(alias));
	assert_false(file_write_all(alias, "new\n", 4, &err));
	assert_non_null(strstr(err, "is the module this session loaded; add --force"));
	free(err);
	assert_content(module, "old\n");
	assert_false(file_guard_allow(true));
	assert_true(file_write_all(module, "new\n", 4, &err));
	assert_true(file_guard_allow(false));
	assert_content(module, "new\n");
	assert_false(file_write_all(module, "newer\n", 6, &err));
	free(err);
	assert_true(file_guarded(module));
	assert_false(file_guarded(alias)); /* the old file, now only the alias */
	file_guard_set(NULL);
	assert_true(file_write_all(module, "newer\n", 6, &err));
	assert_no_temp(f->dir);
	free(module);
	free(alias);
}

/* A FIFO no one writes: refused at once where a regular file is read; read
 * as a stream, the wait ends when the interrupt flag is set (Ctrl-C,
 * SIGTERM), within a poll. */
static void test_fifo_read_is_interruptible(void **state)
{
	Fixture *f = *state;
	char *fifo = in_dir(f, "f.relay"), *err = NULL, *data = NULL;
	size_t len;
	struct timespec t0, t1;
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_false(file_read_all(fifo, FILE_REGULAR, &data, &len, &err));
	assert_non_null(strstr(err, "a FIFO, not a regular file"));
	free(err);
	interrupt_request();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_false(file_read_all(fifo, FILE_STREAM, &data, &len, &err));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	interrupt_clear();
	assert_non_null(strstr(err, "interrupted"));
	assert_true(t1.tv_sec - t0.tv_sec < 2);
	free(err);
	assert_null(data);
	free(fifo);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_new_file_gets_umask_mode, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refuses_device, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refuses_fifo_and_directory, setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlink_stays_a_link, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mode_is_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(test_owner_is_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_only_file_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_long_name, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_directory, setup, teardown),
		cmocka_unit_test_setup_teardown(test_injected_failures, setup, teardown),
		cmocka_unit_test_setup_teardown(test_short_writes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_render_png_full_disk, setup, teardown),
		cmocka_unit_test_setup_teardown(test_render_svg_full_disk, setup, teardown),
		cmocka_unit_test_setup_teardown(test_render_dot_full_disk, setup, teardown),
		cmocka_unit_test_setup_teardown(test_render_html_full_disk, setup, teardown),
		cmocka_unit_test_setup_teardown(test_run_output_full_disk, setup, teardown),
		cmocka_unit_test_setup_teardown(test_run_dump_full_disk, setup, teardown),
		cmocka_unit_test_setup_teardown(test_render_refuses_device, setup, teardown),
		cmocka_unit_test_setup_teardown(test_record_full_disk, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_record_refuses_device_and_keeps_old_file_on_sync_error, setup,
			teardown),
		cmocka_unit_test_setup_teardown(test_output_to_full_device, setup, teardown),
		cmocka_unit_test_setup_teardown(test_link_of_another_user_is_refused, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_guard_refuses_the_loaded_module, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_fifo_read_is_interruptible, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
