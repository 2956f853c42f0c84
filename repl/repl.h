/*
 * repl.h - line editing for the interactive shell, behind a few functions.
 *
 * Like Lua's lua.c, readline lives behind repl_open / repl_read_line /
 * repl_add_history / repl_close, with a plain getline fallback when standard
 * input is not a terminal; nothing outside repl/ includes readline. SIGINT
 * only sets the interrupt flag (interrupt.h): at the prompt it discards the
 * line being typed, during a command the command stops at its next safe
 * point.
 *
 * Ownership: repl_read_line returns a line the caller frees; everything else
 * is released by repl_close.
 */
#ifndef DEVPLAN_REPL_H
#define DEVPLAN_REPL_H

#include <stdbool.h>

#include "dispatch.h"

/* Starts line editing for session (completion reads it). With use_readline
 * false, lines are read with getline from stdin and prompts are printed
 * only when stdin is a terminal. The history file is DEVPLAN_HISTORY if set
 * (empty: none), else ~/.devplan_history. */
void repl_open(Session *session, bool use_readline);
/* The next line without its newline, or NULL at end of input (Ctrl-D). A
 * Ctrl-C at the prompt discards the line and prompts again. */
char *repl_read_line(const char *prompt);
/* Remembers a line in the history (not blank, not a repeat of the last). */
void repl_add_history(const char *line);
/* Appends this session's lines to the history file and frees readline's
 * state. */
void repl_close(void);

/* Makes SIGINT set the interrupt flag (interrupt_request) and nothing else. */
void repl_install_sigint(void);
/* Makes SIGTERM and SIGHUP end the session at the next safe point instead
 * of at once, for the scripted commands before the prompt (or without
 * one): they set the interrupt flag, so the running command stops (its
 * temporary file removed, its layout child ended), and
 * repl_terminating_signal says which came. Not restarted: a read of
 * standard input that waits for a line stops too. */
void repl_install_terminate(void);

/* Reads and runs commands until quit, end of input, SIGTERM or SIGHUP;
 * returns 0. */
int repl_run(CmdContext *ctx);
/* SIGTERM or SIGHUP when one ended the session (after
 * repl_install_terminate, or between repl_open and repl_close, they only
 * set a flag), else 0. main exits with 128 + it. */
int repl_terminating_signal(void);

#endif
