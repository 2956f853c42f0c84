/*
 * report_files.h - the folder `files/` of a bug report: the files the
 * session's replayed commands read and the folders they ran in and wrote
 * into, rebuilt at their places relative to one another.
 *
 * The replay runs in files/ as the session ran in its folders, so a
 * command that named a file relatively is replayed as typed and prints
 * what it printed; a file named absolutely, or found only through a
 * script's second place (commands_input_path), is named by its path
 * inside files/. Files the commands read are copied (as they are when the
 * report is written; scripts they source are copied with their own paths
 * rewritten the same way, and so are the files those read), files they
 * write are written inside files/ by the replay, never where the session
 * wrote them, and a file a replayed command wrote before another read it
 * is not copied: the replay reads its own.
 *
 * Ownership: report_files_collect returns a ReportFiles the caller frees
 * with report_files_free; strings returned are the caller's to free().
 */
#ifndef DEVPLAN_REPORT_FILES_H
#define DEVPLAN_REPORT_FILES_H

#include <stdbool.h>

#include "dispatch.h"

typedef struct ReportFiles ReportFiles;

/* The files and folders of lines[0..n-1] (history lines the replay runs),
 * and of the scripts they run, as they are on disk now. */
ReportFiles *report_files_collect(const CmdHistoryLine *const *lines, size_t n);

/* Line h as the replay runs it in files/: NULL when it is run as typed.
 * *cd is set to the `cd` command that must come before it (the replay
 * starts in the report's folder and follows the folders the session's
 * lines ran in), or NULL when the replay is there already. */
char *report_files_line(ReportFiles *rf, const CmdHistoryLine *h, char **cd);

/* Writes DIR/files/: the copies, the rewritten scripts, and the folders
 * the replay runs and writes in. False with *err set (the caller frees)
 * when a file cannot be read or written. */
bool report_files_write(const ReportFiles *rf, const char *dir, char **err);

void report_files_free(ReportFiles *rf);

#endif
