/*
 * file_read.h - the one way devplan opens a file to read it (a module,
 * a script, a .npy input or expected result, a reduce script).
 *
 * A file is opened with O_NONBLOCK and looked at (fstat) before anything
 * waits on it, so that naming a FIFO no one writes, a socket or a terminal
 * never blocks in open(2), where no signal would end the wait. What is
 * then accepted depends on what the caller reads:
 *
 *   FILE_REGULAR  a regular file only (a .npy, which is read by offset):
 *                 a FIFO, a socket, a device or a directory is refused
 *                 with an error that says what it is;
 *   FILE_STREAM   a regular file, or a FIFO, a pipe (/dev/stdin, `<(...)`)
 *                 or a character device (/dev/zero) read as a stream:
 *                 every wait for bytes is a poll(2) of 100 ms that then
 *                 tests the interrupt flag, so Ctrl-C, SIGTERM and SIGHUP
 *                 end it, and at most FILE_STREAM_MAX bytes are read.
 *
 * file_read_all reads a whole file within file_read_max(): a regular file
 * larger is refused before a byte is read, a stream is read up to it. Load
 * and scripts (-x, source) read through it, so /dev/zero stops at the same
 * limit wherever it is named.
 *
 * Ownership: the data and error strings are the caller's to free().
 */
#ifndef DEVPLAN_FILE_READ_H
#define DEVPLAN_FILE_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum FileKind { FILE_REGULAR, FILE_STREAM } FileKind;

/* Bytes read at most from a stream, whose size is not known ahead: some
 * six million bindings, so that /dev/zero is refused quickly. */
#define FILE_STREAM_MAX ((uint64_t)256 * 1024 * 1024)

/* The largest file read whole: a sixteenth of the machine's memory (a
 * module takes 10 to 20 times its text once parsed and planned), at most
 * 4 GiB. */
uint64_t file_read_max(void);

/* Opens path for reading as kind allows: a descriptor in blocking mode for
 * a regular file, non-blocking for a stream. -1 with *err set ("cannot open
 * 'PATH': REASON", "cannot read 'PATH': a FIFO, not a regular file") when
 * it cannot. *is_stream (may be NULL) says which. */
int file_open_read(const char *path, FileKind kind, bool *is_stream, char **err);

/* file_open_read as a stdio stream (FILE_REGULAR only: stdio's reads do
 * not poll the interrupt flag). NULL with *err set. */
FILE *file_fopen_read(const char *path, char **err);

/* Reads all of path into *data (NUL-terminated, *len bytes). False with
 * *err set when it cannot be opened or read, is larger than
 * file_read_max() (FILE_STREAM_MAX for a stream), or an interrupt came
 * while waiting for it. */
bool file_read_all(const char *path, FileKind kind, char **data, size_t *len, char **err);

#endif
