/*
 * words.h - a command line's words (words.c), read and written by one
 * grammar, so that what record and bugreport write splits into itself
 * again.
 *
 * Ownership: the words commands_split makes are the caller's, freed with
 * commands_free_words; every returned string is the caller's to free.
 */
#ifndef DEVPLAN_WORDS_H
#define DEVPLAN_WORDS_H

#include <stdbool.h>

#include "util.h"

/*
 * Splits a line into words (words.c): blanks separate words, "double
 * quotes" group, with the escapes \" \\ \n \t \r and \xNN inside; outside
 * quotes a backslash keeps the next quote, backslash or blank as it is;
 * `#` at the start of a word begins a comment.
 * Returns false with *err (caller frees), which says the column, on an
 * unterminated quote, an unknown escape, or a control character a script
 * line could not hold (any but tab inside quotes, any but the blanks
 * outside). The caller frees the words with commands_free_words.
 */
bool commands_split(const char *line, int *argc, char ***argv, char **err);
void commands_free_words(int argc, char **argv);
/* Appends word as commands_split reads it back: quoted when it must be,
 * with its control characters, and bytes that are not UTF-8, escaped. */
void commands_put_word(StrBuf *sb, const char *word);
/* The words put with commands_put_word, separated by blanks. The caller
 * frees the result. */
char *commands_join_words(int argc, char **argv);
/* line as one script line that reads back as the same words: line itself
 * when it holds no control character but tab, else its words requoted (a
 * trailing comment dropped); NULL when it then does not split. The caller
 * frees the result. */
char *commands_script_line(const char *line);
/* The text record and bugreport write for a command line (with its
 * newline): mapped (commands_map_paths's line) when not NULL, else
 * commands_script_line's, marked `-` when it failed; a line that does
 * not split and could not be written as it is becomes a comment with its
 * control characters escaped. The caller frees the result. */
char *commands_recorded_line(const char *line, const char *mapped, bool failed);

#endif
