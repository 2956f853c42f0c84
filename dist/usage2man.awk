# usage2man.awk - the manual page devplan(1), made from USAGE.md.
#
#   awk -v version=0.1.0 -f dist/usage2man.awk USAGE.md USAGE.md >devplan.1
#
# USAGE.md is the one description of devplan's command line, commands and
# settings; the build turns it into roff (man(7) macros) whenever it changes,
# so the page and the file cannot disagree, and tests/man-test checks that
# the page has every command's section. The file is read twice: the first
# pass takes the synopsis (the `devplan ...` lines of the first code block
# under "## Command line"), the second converts.
#
# What of Markdown it reads, which is what USAGE.md writes:
#   # TITLE                 the page's NAME line comes from the first paragraph
#                           after it, which opens DESCRIPTION
#   ## Section              .SH SECTION
#   ### name                .SS name (one per command)
#   paragraphs              .PP; lines joined as roff fills them
#   4-space indented block  an example: .nf, kept as written
#   - item, 1. item         .IP with a bullet or the number; lines indented
#                           under the item continue it
#   | a | b | c |           a table: each row a .TP tagged with its first
#                           cell; in a table of three or more columns each
#                           further cell is prefixed with its column's name
#   `code`, **bold**, *em*  \fB, \fB, \fI
#   [text](url)             text; ![alt](image) is dropped
# Backslashes are escaped, a line that would start with . or ' is guarded,
# and a - inside code is \- (a minus, so that options are searchable).
# POSIX awk (mawk as well as gawk).

# ---- inline markup ----------------------------------------------------

# esc(s): s as roff text (no markup read)
function esc(s, code) {
	gsub(/\\/, "\\e", s)
	if (code)
		gsub(/-/, "\\-", s)
	return utf8(s)
}

# utf8(s): each UTF-8 sequence of s as roff's \[uXXXX] (bytes read one by
# one: the build runs awk with LC_ALL=C)
function utf8(s,    out, i, b, n, cp) {
	if (s !~ /[\200-\377]/)
		return s
	out = ""
	for (i = 1; i <= length(s); i++) {
		b = ord[substr(s, i, 1)]
		if (b < 192) {
			out = out substr(s, i, 1)
			continue
		}
		n = b >= 240 ? 3 : b >= 224 ? 2 : 1
		cp = b % (b >= 240 ? 8 : b >= 224 ? 16 : 32)
		for (; n > 0; n--)
			cp = cp * 64 + ord[substr(s, ++i, 1)] % 64
		out = out sprintf("\\[u%04X]", cp)
	}
	return out
}

# inline(s): Markdown's inline markup in s as roff font changes
function inline(s,    out, i, c, j, rest, bold, em, mid, text) {
	out = ""
	bold = em = 0
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		rest = substr(s, i)
		if (c == "`") {
			j = index(substr(s, i + 1), "`")
			if (j > 0) {
				out = out "\\fB" esc(substr(s, i + 1, j - 1), 1) "\\fR"
				i += j
				continue
			}
		} else if (substr(rest, 1, 2) == "**") {
			out = out (bold ? "\\fR" : "\\fB")
			bold = !bold
			i++
			continue
		} else if (c == "*" && (em || (substr(rest, 2, 1) ~ /[A-Za-z0-9]/ && index(substr(rest, 2), "*") > 0))) {
			out = out (em ? "\\fR" : "\\fI")
			em = !em
			continue
		} else if (substr(rest, 1, 2) == "![" && (mid = index(rest, "](")) > 0 && index(substr(rest, mid), ")") > 0) {
			i += mid + index(substr(rest, mid + 2), ")")
			continue
		} else if (c == "[" && (mid = index(rest, "](")) > 0 && index(substr(rest, mid + 2), ")") > 0) {
			text = substr(rest, 2, mid - 2)
			if (index(text, "]") == 0) {
				out = out inline(text)
				i += mid + index(substr(rest, mid + 2), ")")
				continue
			}
		}
		# a UTF-8 sequence whole
		j = ord[c] >= 240 ? 4 : ord[c] >= 224 ? 3 : ord[c] >= 192 ? 2 : 1
		out = out esc(substr(s, i, j), 0)
		i += j - 1
	}
	if (bold || em)
		out = out "\\fR"
	return out
}

# emit(s): lines of roff text, each guarded when it would read as a request
function emit(s,    n, lines, i) {
	n = split(s, lines, "\n")
	for (i = 1; i <= n; i++) {
		if (lines[i] ~ /^[.']/)
			lines[i] = "\\&" lines[i]
		print lines[i]
	}
}

# ---- blocks -----------------------------------------------------------

function flush_para() {
	if (para != "") {
		emit(inline(para))
		para = ""
	}
}

function end_blocks() {
	flush_para()
	if (in_code) {
		print ".fi"
		print ".RE"
		in_code = 0
	}
	if (in_list) {
		print ".RE"
		in_list = 0
	}
	in_table = 0
}

# cells(line, out): the cells of a table row into out[1..n]; a | inside
# `code` does not split
function cells(line, out,    n, i, c, cell, code) {
	sub(/^[ \t]*\|/, "", line)
	sub(/\|[ \t]*$/, "", line)
	n = 0
	cell = ""
	code = 0
	for (i = 1; i <= length(line); i++) {
		c = substr(line, i, 1)
		if (c == "`")
			code = !code
		if (c == "|" && !code) {
			out[++n] = trim(cell)
			cell = ""
		} else {
			cell = cell c
		}
	}
	out[++n] = trim(cell)
	return n
}

function trim(s) {
	sub(/^[ \t]+/, "", s)
	sub(/[ \t]+$/, "", s)
	return s
}

function table_row(line,    n, row, i) {
	n = cells(line, row)
	if (!in_table) {
		in_table = 1
		ncols = n
		for (i = 1; i <= n; i++)
			header[i] = row[i]
		return
	}
	if (line ~ /^[ \t]*\|[- :|]+\|[ \t]*$/)
		return
	print ".TP"
	emit(inline(row[1]))
	for (i = 2; i <= n; i++) {
		if (i > 2)
			print ".br"
		if (ncols > 2)
			emit(inline("*" header[i] ":* " row[i]))
		else
			emit(inline(row[i]))
	}
}

BEGIN {
	for (i = 0; i < 256; i++)
		ord[sprintf("%c", i)] = i
}

# ---- the first pass: the synopsis ------------------------------------

FNR == NR {
	if ($0 ~ /^## /)
		in_command_line = ($0 == "## Command line")
	else if (in_command_line && !synopsis_done && $0 ~ /^    devplan /)
		synopsis[++nsynopsis] = substr($0, 5)
	else if (nsynopsis > 0 && $0 !~ /^    /)
		synopsis_done = 1
	next
}

# ---- the second pass --------------------------------------------------

FNR == 1 {
	print ".\\\" devplan(1), generated from USAGE.md by dist/usage2man.awk: edit USAGE.md."
	print ".TH DEVPLAN 1 \"\" \"devplan " version "\" \"User Commands\""
	print ".SH NAME"
	print "devplan \\- an interactive debugger for heterogeneous device planning of TVM Relay programs"
	print ".SH SYNOPSIS"
	for (i = 1; i <= nsynopsis; i++) {
		if (i > 1)
			print ".br"
		emit(inline("`" synopsis[i] "`"))
	}
	print ".SH DESCRIPTION"
}

# the title: DESCRIPTION, opened above, holds what follows it
/^# / { next }

in_code {
	if ($0 ~ /^    / || $0 ~ /^[ \t]*$/) {
		if ($0 ~ /^[ \t]*$/) {
			blank_in_code++
			next
		}
		for (; blank_in_code > 0; blank_in_code--)
			print ""
		emit(esc(substr($0, 5), 1))
		next
	}
	blank_in_code = 0
	print ".fi"
	print ".RE"
	in_code = 0
}

/^[ \t]*$/ {
	flush_para()
	if (in_table)
		in_table = 0
	blank = 1
	next
}

/^## / {
	end_blocks()
	title = toupper(substr($0, 4))
	gsub(/"/, "", title)
	print ".SH \"" title "\""
	blank = 0
	next
}

/^### / {
	end_blocks()
	print ".SS " inline(substr($0, 5))
	blank = 0
	next
}

# an example: an indented block after a blank line, outside a list item
/^    / && blank && !in_list {
	end_blocks()
	print ".PP"
	print ".RS 4"
	print ".nf"
	in_code = 1
	blank_in_code = 0
	emit(esc(substr($0, 5), 1))
	blank = 0
	next
}

/^[ \t]*\|/ {
	if (!in_table)
		end_blocks()
	table_row($0)
	blank = 0
	next
}

/^- / || /^[0-9]+\. / {
	flush_para()
	if (in_table)
		in_table = 0
	if (!in_list) {
		print ".RS 2"
		in_list = 1
	}
	if ($0 ~ /^- /) {
		print ".IP \\(bu 2"
		para = substr($0, 3)
	} else {
		mark = $0
		sub(/ .*/, "", mark)
		print ".IP " mark " 4"
		para = substr($0, length(mark) + 2)
	}
	blank = 0
	next
}

# a line indented under a list item continues it; after a blank line, a
# new paragraph of the item
/^  +[^ ]/ && in_list {
	if (blank) {
		flush_para()
		print ".IP \"\" 4"
	}
	para = (para == "" ? "" : para " ") trim($0)
	blank = 0
	next
}

{
	if (blank || in_table) {
		end_blocks()
		print ".PP"
	} else if (in_list && para == "") {
		end_blocks()
		print ".PP"
	}
	para = (para == "" ? "" : para "\n") $0
	blank = 0
}

END {
	end_blocks()
	print ".SH FILES"
	print ".TP"
	print "\\fI~/.devplanrc\\fR"
	print "commands run at start, unless \\fB\\-n\\fR"
	print ".TP"
	print "\\fIPREFIX/share/devplan/examples/\\fR"
	print "example modules and the demonstration script \\fBdemo.dp\\fR, where"
	print "\\fBcmake \\-\\-install\\fR put them: \\fB../share/devplan/examples\\fR from the"
	print "directory of the \\fBdevplan\\fR binary"
	print ".SH \"SEE ALSO\""
	print "USAGE.md and README.md in devplan's sources, installed in"
	print "\\fIPREFIX/share/doc/devplan/\\fR."
}
