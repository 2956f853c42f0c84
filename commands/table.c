/*
 * table.c - the command table and finding a name in it.
 *
 * The table is the single source of truth (STYLE.md §7): a command is one
 * row here, kept in alphabetical order, plus a handler in its cmd_*.c file
 * and a `### name` section in USAGE.md (tests/test_commands.c checks all
 * three agree). Names resolve gdb-style: an exact name or alias first, then
 * any unique prefix of a name; an ambiguous prefix lists the candidates,
 * and an unknown one the nearest names. This file depends on the handlers
 * (commands.h) and nothing above them: dispatch.c reads the table.
 */
#include "commands.h"

#include <string.h>

/* ---- the table ---- */

const Command commands_table[] = {
	{
		.name = "apropos",
		.min_args = 1,
		.max_args = -1,
		.usage = "apropos WORD...",
		.summary = "list the commands whose name, summary or help mentions WORD",
		.help = "Searches every command's name, aliases, usage, summary and help text for\n"
			"WORD (several words are searched as one phrase), ignoring case, and\n"
			"lists the commands that mention it with their summaries.",
		.handler = cmd_apropos,
	},
	{
		.name = "break",
		.aliases = {"b"},
		.min_args = 1,
		.max_args = 1,
		.usage = "break PHASE|%x|@f|conflict|copy",
		.summary = "stop before a phase, at a domain change, a conflict or a copy",
		.help = "Sets a breakpoint, numbered like gdb's. `break PHASE` stops before that\n"
			"phase runs. `break %x` stops after each core event that changes the\n"
			"domain of %x: its class merges with another or its device is bound.\n"
			"`break conflict` stops after check when it reports conflicts (under\n"
			"every policy) and at a conflict event in core. `break copy` stops after\n"
			"check when it inserts device_copy calls and at each device_copy that\n"
			"core inserts. `step`, `stepi` and `continue` honour breakpoints; `plan`\n"
			"ignores them. Locations accept unique prefixes.",
		.handler = cmd_break,
		.completer = cmd_complete_break,
	},
	{
		.name = "breaks",
		.min_args = 0,
		.max_args = 0,
		.usage = "breaks",
		.summary = "list the breakpoints and watchpoints",
		.help = "Lists every breakpoint and watchpoint: its number, its kind (phase,\n"
			"value, conflict, copy or watch), what it watches, and how many times it\n"
			"stopped a run (for a watchpoint: how many changes it reported).",
		.handler = cmd_breaks,
	},
	{
		.name = "bugreport",
		.min_args = 1,
		.max_args = 1,
		.flags = CMD_NEEDS_MODULE | CMD_WRITES_DIR | CMD_WRITES | CMD_RELAX,
		.usage = "bugreport DIR",
		.summary = "write the module, settings, commands and plan to a new directory",
		.help = "Creates DIR (which must not exist, or be empty) and writes what it takes\n"
			"to see and replay this session: module.relay (the module as loaded),\n"
			"settings.dp (the devices and settings the module was loaded under),\n"
			"transcript.txt (the commands), placement.json, conflicts.txt,\n"
			"version.txt, files/ (copies of the files the commands read, at their\n"
			"places relative to one another) and replay.dp, which `devplan -b -x\n"
			"DIR/replay.dp` runs from any directory: it loads module.relay under\n"
			"settings.dp and runs the commands the session ran after that load\n"
			"again, in files/ (a path typed absolute made relative), those that\n"
			"failed marked `-` so that they do not stop it. The replay reads and\n"
			"writes only inside DIR.",
		.handler = cmd_bugreport,
		.completer = cmd_complete_files,
	},
	{
		.name = "cd",
		.min_args = 0,
		.max_args = 1,
		.flags = CMD_DIR_ARG,
		.usage = "cd [DIR]",
		.summary = "change the folder relative file names start from",
		.help = "Makes DIR (the home folder without one) the folder that relative file\n"
			"names start from, for reading and for writing. At the prompt it is\n"
			"devplan's working folder; inside a script, which runs in its own folder,\n"
			"it lasts until the script ends. Prints nothing; `pwd` shows the folder.",
		.handler = cmd_cd,
		.completer = cmd_complete_files,
	},
	{
		.name = "compare",
		.min_args = 0,
		.max_args = -1,
		.flags = CMD_NEEDS_MODULE | CMD_NEEDS_PLAN | CMD_INPUT_ARGS | CMD_RELAX_LOWERED,
		.usage = "compare [--each [--all | --top N] | --expect FILE.npy...] [--allow-nan] "
			 "[NAME=FILE.npy | NAME=random[:SEED[:(SHAPE)]]]...",
		.summary = "run the plan and the same program on the cpu alone and compare results",
		.help = "Runs the planned @main, then the same program (as typed by `infer`) with\n"
			"every op on the cpu, on the same inputs (as for `run`; random when not\n"
			"given), and prints each result's largest absolute and relative error.\n"
			"An element passes when |planned - cpu| <= tolerance * max(1, |cpu|)\n"
			"(`set tolerance`, default 1e-05). A NaN or infinity in the reference\n"
			"fails it, unless --allow-nan accepts those the planned run shares. The\n"
			"last line starts `compare: PASS` or `compare: FAIL`; a failure fails the\n"
			"command. With --each every intermediate value is compared too, in\n"
			"execution order: the first past its tolerance is shown with its op,\n"
			"device, operands and why it is on its device, the first NaN or infinity\n"
			"of the reference with its op and operands, then the worst N (--top N,\n"
			"default 5) or every value (--all).\n"
			"--expect FILE.npy (one a result, in order) compares with results made\n"
			"elsewhere (PyTorch, ONNX Runtime, TVM) instead of the cpu run.",
		.handler = cmd_compare,
		.completer = cmd_complete_run,
	},
	{
		.name = "conflicts",
		.min_args = 0,
		.max_args = 0,
		.flags = CMD_NEEDS_MODULE | CMD_RELAX,
		.usage = "conflicts",
		.summary = "list every value demanded on two devices and its resolution",
		.help = "After the check phase, lists each conflict: the value, the two devices,\n"
			"the annotations that forced them (file:line:col), the uses that joined\n"
			"them, and how the current policy resolves it (set policy error|copy|\n"
			"replicate). When check stopped planning (policy error, or a value\n"
			"pinned to two devices), it lists what check found, after a note.",
		.handler = cmd_conflicts,
	},
	{
		.name = "constraints",
		.min_args = 0,
		.max_args = 2,
		.flags = CMD_NEEDS_MODULE | CMD_RELAX,
		.usage = "constraints [%x] [--all]",
		.summary = "show the device equivalence classes and what bound them",
		.help = "Prints the current equivalence classes of device domains: the device\n"
			"each is bound to (or free), the constraint that bound it, and its named\n"
			"members (up to 40, wrapped; --all lists every one). With %x, only the\n"
			"class holding %x. After a phase failed, the classes of the last\n"
			"analysis, check's or core's, after a note.",
		.handler = cmd_constraints,
		.completer = cmd_complete_values,
	},
	{
		.name = "continue",
		.aliases = {"c", "cont"},
		.min_args = 0,
		.max_args = 0,
		.flags = CMD_NEEDS_MODULE | CMD_RELAX,
		.usage = "continue",
		.summary = "run to the next breakpoint or to the end of the pipeline",
		.help = "Runs the remaining phases, and the remaining events of a phase in\n"
			"progress, until a breakpoint stops it or every phase has run.\n"
			"Watchpoints report on the way. Events are replayed one by one only\n"
			"when a breakpoint or watchpoint needs them.",
		.handler = cmd_continue,
	},
	{
		.name = "copies",
		.min_args = 0,
		.max_args = 0,
		.flags = CMD_NEEDS_MODULE | CMD_RELAX_LOWERED,
		.usage = "copies",
		.summary = "list every device_copy: value, direction, bytes and reason",
		.help = "Lists each distinct transfer of the planned module with its bytes (from\n"
			"the static type) and why it exists: written by the user, required at an\n"
			"on_device boundary, or inserted for a conflict. After a phase failed,\n"
			"the copies so far, and when check stopped planning the ones the copy\n"
			"policy would insert for its conflicts.",
		.handler = cmd_copies,
	},
	{
		.name = "delete",
		.aliases = {"d"},
		.min_args = 0,
		.max_args = -1,
		.usage = "delete [N]...",
		.summary = "delete breakpoints and watchpoints, all or by number",
		.help = "Without arguments deletes every breakpoint and watchpoint; with\n"
			"numbers (see `breaks`), only those. An unknown number deletes nothing.\n"
			"Numbers are not reused.",
		.handler = cmd_delete,
		.completer = cmd_complete_delete,
	},
	{
		.name = "diff",
		.min_args = 0,
		.max_args = 4,
		.flags = CMD_NEEDS_MODULE | CMD_RELAX,
		.usage = "diff [PHASE] [--devices] | diff --plan A B | diff --module FILE [--phase "
			 "P]",
		.summary = "show what the last phase (or PHASE) changed, or compare two plans or "
			   "modules",
		.help = "Prints the module before and after the last phase that ran (or phase\n"
			"PHASE, which must have run), as `ir` prints them, and compares the two\n"
			"as a unified diff with 3 lines of context. --devices prints each\n"
			"binding's device as a comment on both sides. A phase in progress\n"
			"under `stepi` has not changed the module yet.\n"
			"\n"
			"`diff --plan A B` plans the loaded module twice, each time with the\n"
			"session's settings and pins changed as A (then B) says, without\n"
			"touching the session, and prints the values that move (device under A\n"
			"-> device under B), the copies that appear and vanish, and the bytes\n"
			"moved in each direction under each. A side is `current`, `default` or\n"
			"`min-transfer` (placement), a setting that changes the plan as `NAME\n"
			"VALUE` or `NAME=VALUE` (\"policy replicate\", fallback=cuda:0), \"pin %x\n"
			"DEVICE\" or \"unpin %x\", or several of them separated by `;`. A side\n"
			"that does not plan is reported with its first error.\n"
			"\n"
			"`diff --module FILE` compares the current module (A; or the one after\n"
			"phase P, `parse` for the module as loaded) with the module in FILE (B),\n"
			"loaded with the session's device table, as TVM's structural_equal\n"
			"does, and the device TVM reads off the text for every node too: the\n"
			"same graphs (operators, attributes, constants, sharing, what binds\n"
			"each variable) on the same devices, names, types and comments aside.\n"
			"It prints `same module` or the first difference with its place in both;\n"
			"a difference fails the command (exit status 1 in batch).",
		.handler = cmd_diff,
		.completer = cmd_complete_diff,
	},
	{
		.name = "echo",
		.min_args = 0,
		.max_args = -1,
		.usage = "echo TEXT...",
		.summary = "print TEXT",
		.help = "Prints its arguments separated by single spaces, then a newline. Use\n"
			"\"double quotes\" to keep several blanks or a leading '#'.",
		.handler = cmd_echo,
	},
	{
		.name = "estimate",
		.min_args = 0,
		.max_args = 0,
		.flags = CMD_NEEDS_MODULE | CMD_NEEDS_PLAN | CMD_RELAX_LOWERED,
		.usage = "estimate",
		.summary = "predict copy bytes and time, peak memory and FLOPs per device",
		.help = "Predicts what the plan costs before it runs, from static types and the\n"
			"devices' cost model (`targets`, `target set`): each copy's bytes and\n"
			"time (the link's latency + bytes / its bandwidth) with totals per\n"
			"direction; each\n"
			"device's peak live memory in the planned order of execution (a tensor\n"
			"lives from its definition to its last use, parameters from the\n"
			"start), its FLOPs (2*M*N*K for dense and matmuls, 2*K per output of a\n"
			"convolution, one per output element of an elementwise op, one per\n"
			"input element of a reduction) and its compute time (FLOPs / peak +\n"
			"operators x launch).\n"
			"`profile` prints the estimate beside what it measures.",
		.handler = cmd_estimate,
	},
	{
		.name = "help",
		.aliases = {"h"},
		.min_args = 0,
		.max_args = 1,
		.usage = "help [CMD]",
		.summary = "list the commands, or show one command's usage and help",
		.help = "Without an argument, lists every command with a one-line summary. With\n"
			"a command name (or alias, or unique prefix), prints its usage, what it\n"
			"does and its aliases.",
		.handler = cmd_help,
		.completer = cmd_complete_commands,
	},
	{
		.name = "history",
		.min_args = 0,
		.max_args = 1,
		.usage = "history [N]",
		.summary = "list the commands run so far, or the last N",
		.help = "Lists the command lines of this session, numbered: those typed at the\n"
			"prompt, given with -c, and read from -x scripts or standard input\n"
			"(lines of a sourced file are not listed; its `source` line is). The\n"
			"line-editing history kept across sessions is in DEVPLAN_HISTORY.",
		.handler = cmd_history,
	},
	{
		.name = "ignore",
		.min_args = 2,
		.max_args = 2,
		.usage = "ignore N COUNT",
		.summary = "let breakpoint N pass by its next COUNT stops",
		.help = "As in gdb: breakpoint N is reached as before (`breaks` counts each\n"
			"hit) but does not stop a run the next COUNT times; 0 makes it stop\n"
			"again the next time. `breaks` shows the stops left to ignore. A\n"
			"watchpoint never stops, so it has nothing to ignore. gdb's\n"
			"`condition` has no counterpart: there are no expressions to test, so\n"
			"narrow the location instead (`break %x`, `break conflict`).",
		.handler = cmd_ignore,
		.completer = cmd_complete_ignore,
	},
	{
		.name = "info",
		.aliases = {"i"},
		.min_args = 0,
		.max_args = -1,
		.usage = "info [breakpoints|watchpoints|pins|devices|targets|settings|phases|"
			 "conflicts|contract|copies|regions] [ARG...]",
		.summary = "gdb's `info SUBJECT`: breakpoints, pins, devices, settings and more",
		.help = "Runs the command that shows SUBJECT, as gdb's `info` does; SUBJECT\n"
			"accepts unique prefixes (`i b` is `info breakpoints`) and the words\n"
			"after it go to that command:\n"
			"  breakpoints  breaks (breakpoints and watchpoints)\n"
			"  watchpoints  the watchpoints only\n"
			"  pins         pin (the pins)\n"
			"  devices      targets (the device table)\n"
			"  targets      targets\n"
			"  settings     show\n"
			"  phases       phases\n"
			"  conflicts    conflicts\n"
			"  contract     placement --contract (parameters and results)\n"
			"  copies       copies\n"
			"  regions      regions\n"
			"`info pins` and `info watchpoints` take no words: info only asks.\n"
			"Without SUBJECT, lists them.",
		.handler = cmd_info,
		.completer = cmd_complete_info,
	},
	{
		.name = "ir",
		.min_args = 0,
		.max_args = -1,
		.flags = CMD_NEEDS_MODULE | CMD_RELAX,
		.usage = "ir [@f] [--devices] [--types|--no-types] [--metadata] [--phase P]",
		.summary = "print the module as of the current phase",
		.help = "Prints the module in the Relay text format as of the last phase that\n"
			"ran (the parsed module before any `step`). @f prints only that global\n"
			"function. --devices adds each binding's device as a comment. Types are\n"
			"shown as /* ty=... */ comments once the module is typed (after\n"
			"`infer`); --types and --no-types force them on or off. --metadata\n"
			"appends the #[metadata] section when the module has constants.\n"
			"--phase P prints the module as of after phase P (which must have run;\n"
			"`--phase parse` is the module as loaded); for the phase where planning\n"
			"stopped, the module it analysed, after a note. While core is stepped\n"
			"with `stepi`, --devices shows the devices bound so far, or `free`.",
		.handler = cmd_ir,
		.completer = cmd_complete_ir,
	},
	{
		.name = "load",
		.aliases = {"file"},
		.min_args = 1,
		.max_args = 3,
		.flags = CMD_READS_FILES,
		.usage = "load FILE [--as NAME]",
		.summary = "load a module in the Relay text format",
		.help = "Parses FILE and makes it the current module, with planning reset to the\n"
			"start. Errors are printed with file:line:col and the source line; when\n"
			"loading fails, the module loaded before (if any) stays loaded. Inside a\n"
			"script, a relative FILE is the one beside the script, else the one in\n"
			"the folder devplan runs in. --as NAME names the module NAME in messages\n"
			"and positions (a bug report's replay.dp loads its copy as the original).",
		.handler = cmd_load,
		.completer = cmd_complete_files,
	},
	{
		.name = "phases",
		.min_args = 0,
		.max_args = 0,
		.usage = "phases",
		.summary = "list the planning phases and their state",
		.help = "Lists the phases of the planning pipeline in order, each as done (it\n"
			"has run), current (the one `step` runs next), failed (it ran and\n"
			"failed: planning stopped there, and `step` runs it again) or pending.",
		.handler = cmd_phases,
	},
	{
		.name = "pin",
		.min_args = 0,
		.max_args = 5,
		.flags = CMD_NEEDS_MODULE,
		.usage = "pin [[--body] %x|--op OPS DEVICE] [--all]",
		.summary = "what-if: plan as if %x (or every call of OPS) were annotated on DEVICE",
		.help = "Pins every value named %x to DEVICE without editing the module, plans\n"
			"again and shows what changed: devices that moved, copies that appeared\n"
			"or went away (the first 8 and counts of the rest; --all lists every\n"
			"one), and the totals of copies and bytes. --op nn.conv2d,nn.dense (or\n"
			"a glob, nn.conv*) pins every call of those operators. A pin means\n"
			"on_device(..., constrain_result=True): the value lives on DEVICE and\n"
			"is read there; with --body it means a plain on_device, as TVM's\n"
			"frontends write it: computed on DEVICE, its result read anywhere\n"
			"(through a copy when elsewhere). A pin that makes planning fail\n"
			"changes nothing. Without arguments, lists the pins. See also unpin\n"
			"and undo.",
		.handler = cmd_pin,
		.completer = cmd_complete_pin,
	},
	{
		.name = "placement",
		.min_args = 0,
		.max_args = 2,
		.flags = CMD_NEEDS_MODULE | CMD_NEEDS_PLAN | CMD_RELAX,
		.usage = "placement [--json] [--contract] [@fn]",
		.summary = "print the machine-readable placement of the planned module",
		.help = "One line per fact: `FUNC param %x DEV`, `FUNC bind %x DEV`, `FUNC result\n"
			"DEV` and `FUNC copy %x SRC -> DST BYTES`, functions in definition order.\n"
			"With --json, the same facts as one JSON document. --contract keeps the\n"
			"parameters and results (`info contract`), @fn one function's lines; on a\n"
			"Relax module a vdevice RealizeVDevice inferred is marked (inferred).",
		.handler = cmd_placement,
	},
	{
		.name = "plan",
		.min_args = 0,
		.max_args = 0,
		.flags = CMD_NEEDS_MODULE | CMD_RELAX,
		.usage = "plan",
		.summary = "run every remaining phase, ignoring breakpoints",
		.help = "Runs the remaining phases of the pipeline in order (and finishes a\n"
			"phase in progress), stopping at the first one that fails. Unlike\n"
			"`continue`, it ignores breakpoints and watchpoints.",
		.handler = cmd_plan,
	},
	{
		.name = "print",
		.aliases = {"p"},
		.min_args = 1,
		.max_args = -1,
		.flags = CMD_NEEDS_MODULE,
		.usage = "print %x[SLICE] | result[.I][SLICE]",
		.summary = "show a value the last run kept: type, device, range and elements",
		.help = "Shows a value of the last `run`, gdb-style: its type, the device it was\n"
			"computed on, its range (min, max, mean, NaN and inf counts) and its\n"
			"elements. `run` keeps every value while they fit in a quarter of the\n"
			"free memory (`set keep-values off`: the inputs and results only);\n"
			"`result` (or `result.0`, `result.1`, ...) is the final value as `run`\n"
			"printed it. A slice selects elements as in NumPy: `print %x[0, :8]`\n"
			"(integers, negative from the end, and start:stop); `%x.1` is a field of\n"
			"a tuple.",
		.handler = cmd_print,
	},
	{
		.name = "profile",
		.min_args = 0,
		.max_args = -1,
		.flags = CMD_NEEDS_MODULE | CMD_NEEDS_PLAN | CMD_INPUT_ARGS | CMD_RELAX_LOWERED,
		.usage = "profile [NAME=FILE.npy | NAME=random[:SEED[:(SHAPE)]]]...",
		.summary = "run the planned module and time each op and copy",
		.help = "Runs the planned @main like `run` (same inputs), waiting for each\n"
			"device after every op, and prints the time per op kind and device,\n"
			"then every device_copy of the plan with its count, bytes, time and GB/s\n"
			"next to the bytes `copies` predicted, the inputs' transfers, each\n"
			"device's peak memory and the wall time. On the host emulator the times\n"
			"are the cpu kernels', which a note says.",
		.handler = cmd_profile,
		.completer = cmd_complete_run,
	},
	{
		.name = "pwd",
		.min_args = 0,
		.max_args = 0,
		.usage = "pwd",
		.summary = "print the folder relative file names start from",
		.help = "Prints the folder that relative file names start from: devplan's\n"
			"working folder at the prompt, the script's own folder (or where `cd`\n"
			"went) inside a script.",
		.handler = cmd_pwd,
	},
	{
		.name = "quit",
		.aliases = {"q", "exit"},
		.min_args = 0,
		.max_args = 0,
		.usage = "quit",
		.summary = "leave devplan",
		.help = "Stops reading commands and exits, from the prompt or from a script.\n"
			"The exit status is 1 if a scripted command failed, else 0. Ctrl-D at\n"
			"the prompt does the same.",
		.handler = cmd_quit,
	},
	{
		.name = "record",
		.min_args = 0,
		.max_args = 1,
		.flags = CMD_WRITES_FILES | CMD_WRITES,
		.usage = "record [FILE|off]",
		.summary = "write the commands that follow to a script, or stop",
		.help = "Starts writing every command run from now on at the top level (as\n"
			"`history` lists them; not `record` itself or `cd`) to FILE, which is\n"
			"replaced, after a comment that says how to replay it. The recording\n"
			"replays in its own folder: a file in it is written relative to it, a\n"
			"file read from elsewhere absolute, and a file written elsewhere under\n"
			"its own name in that folder, so that a replay writes only there (a\n"
			"load so rewritten gets --as, to keep the module's name). A command\n"
			"that fails is written too, marked `-` (`-load x.relay`): a replay runs\n"
			"it and goes on. `record off` (or the end of the session) stops and\n"
			"replaces FILE with the recording, which until then goes to a temporary\n"
			"file beside it; a write that fails stops the recording at once and\n"
			"leaves FILE as it was. `record` alone says whether recording is on.",
		.handler = cmd_record,
		.completer = cmd_complete_record,
	},
	{
		.name = "reduce",
		.min_args = 1,
		.max_args = -1,
		.flags = CMD_NEEDS_MODULE | CMD_WRITES,
		.usage = "reduce PREDICATE [-o FILE]",
		.summary = "shrink the module to the smallest one that still shows a problem",
		.help = "Searches for the smallest module that still shows PREDICATE and writes "
			"it\n"
			"to FILE (or prints it), leaving the session as it is. PREDICATE is one "
			"of:\n"
			"  conflict [%x]      check finds a conflict (on %x)\n"
			"  error TEXT         a phase fails with an error containing TEXT\n"
			"  compare-fail       compare reports FAIL after planning\n"
			"  copies >= N        the planned module has N or more device_copy calls\n"
			"  script FILE        the devplan script FILE, run in batch on the\n"
			"                     candidate (loaded, not planned), succeeds\n"
			"Each candidate is loaded and planned in a scratch session with the\n"
			"session's devices and settings; pins are written into the module as\n"
			"annotations first, so the result shows PREDICATE without them. The "
			"search, delta debugging as in\n"
			"llvm-reduce, deletes bindings of @main (their uses read a new parameter\n"
			"of the same type), unwraps on_device and device_copy calls and drops\n"
			"virtual devices, inlines functions called once, shrinks @main's\n"
			"parameters to shape (1, ..., 1) where the types still check, and renames\n"
			"to short names, in rounds until nothing more goes. It reports each pass\n"
			"that shrank the module, is deterministic, and Ctrl-C stops it with the\n"
			"smallest module found so far (written or printed all the same).",
		.handler = cmd_reduce,
		.completer = cmd_complete_reduce,
	},
	{
		.name = "regions",
		.min_args = 0,
		.max_args = 1,
		.flags = CMD_NEEDS_MODULE | CMD_NEEDS_PLAN,
		.usage = "regions [--all]",
		.summary = "show the device regions in execution order and the copies between",
		.help = "For each function, the runs of operators on one device in execution\n"
			"order, with the device_copy calls that move data between them. Only a\n"
			"call on another device ends a region; a copy between two calls of a\n"
			"region is listed before it when it brings data to the region's device,\n"
			"else after it. A region's operators are listed up to 40, wrapped;\n"
			"--all lists every one.",
		.handler = cmd_regions,
	},
	{
		.name = "reload",
		.min_args = 0,
		.max_args = 0,
		.flags = CMD_NEEDS_MODULE,
		.usage = "reload",
		.summary = "load the current module's file again",
		.help = "Parses the loaded file again (after you edited it), with planning reset.\n"
			"If it no longer parses, the previous version stays loaded.",
		.handler = cmd_reload,
	},
	{
		.name = "render",
		.min_args = 1,
		.max_args = -1,
		.flags = CMD_NEEDS_MODULE | CMD_WRITES_FILES | CMD_WRITES | CMD_OWN_FORCE |
			 CMD_RELAX_LOWERED,
		.usage = "render FILE [--phase P] [--focus %x] [--depth N] [--regions] [--params] "
			 "[--overview] [--force] [--html PAGE]",
		.summary = "draw the module as a device-coloured graph (png, svg, pdf, dot)",
		.help = "Draws the current module version with Graphviz into FILE, in the format\n"
			"of its extension: .png, .svg, .pdf, or .dot for the graph source (`-`\n"
			"writes the source to the output). Nodes are parameters, constants and\n"
			"calls, filled with their device's colour (see the legend); device_copy\n"
			"nodes show direction and bytes; nodes without a device are white and\n"
			"dashed; uses in conflict are red edges. Weights (parameters after a\n"
			"function's first, constants, and what is computed from them alone)\n"
			"fold into their operators' `weights:` line; --params draws them.\n"
			"One cluster per function, or per device region with --regions;\n"
			"--overview draws one node per device region and per copy instead.\n"
			"--phase P draws the version after P (`parse`: as loaded; the phase\n"
			"where planning stopped: the module it analysed). While core is stepped\n"
			"with `stepi`, nodes show the devices bound so far. --focus %x draws\n"
			"the values within --depth N edges of %x (default 2), %x highlighted.\n"
			"Graphs over 5000 nodes are drawn as the overview, with a warning,\n"
			"unless --force. The file is written whole or not at all. --html PAGE\n"
			"(or a FILE ending in .html) writes one self-contained page to browse:\n"
			"the SVG with pan, zoom and search, and a panel showing each node's\n"
			"type, device, `why` chain, uses and copies.",
		.handler = cmd_render,
		.completer = cmd_complete_render,
	},
	{
		.name = "restart",
		.min_args = 0,
		.max_args = 0,
		.flags = CMD_NEEDS_MODULE | CMD_RELAX,
		.usage = "restart",
		.summary = "go back to the module as loaded",
		.help = "Drops the output of every phase that ran, so that `step` starts again\n"
			"from the first phase. The file is not read again (see `reload`).",
		.handler = cmd_restart,
	},
	{
		.name = "run",
		.aliases = {"r"},
		.min_args = 0,
		.max_args = -1,
		.flags = CMD_NEEDS_MODULE | CMD_NEEDS_PLAN | CMD_INPUT_ARGS | CMD_WRITES |
			 CMD_RELAX_LOWERED,
		.usage =
			"run [NAME=FILE.npy | NAME=random[:SEED[:(SHAPE)]]]... [--output FILE.npy] "
			"[--dump DIR] [--profile]",
		.summary = "execute the planned module on its devices",
		.help = "Executes the planned @main: each op on its device (cuda devices on the "
			"GPU,\n"
			"or on the host emulator without one; see `set gpu`), each device_copy\n"
			"as a transfer. Inputs are NumPy .npy files (NAME=FILE.npy) or seeded\n"
			"random values (NAME=random[:SEED]), in the shape given after the seed\n"
			"(NAME=random:SEED:(3,4)) where the input's type has `?` dimensions; an\n"
			"input not given is random with its index as the seed, drawn like an\n"
			"initialised model's (`set inputs random`: uniform in [-1, 1)). Prints\n"
			"each result's type, device, first values and checksum (sum, FNV-1a of\n"
			"the bytes). --output saves the first result as .npy; --dump DIR writes\n"
			"every value as DIR/NAME.npy with DIR/manifest.json; --profile adds the\n"
			"`profile` report. Every value is kept for `print` while they fit in a\n"
			"quarter of the free memory (`set keep-values off`: inputs and results).",
		.handler = cmd_run,
		.completer = cmd_complete_run,
	},
	{
		.name = "save",
		.min_args = 1,
		.max_args = 3,
		.flags = CMD_NEEDS_MODULE | CMD_WRITES_FILES | CMD_WRITES | CMD_RELAX,
		.usage = "save FILE [--phase P]",
		.summary = "write a module version as Relay text that TVM loads again",
		.help = "Writes the module as of phase P (parse, rewrite, check, infer or core;\n"
			"by default the latest phase that ran, so after `core` the planned\n"
			"module) to FILE, which is replaced, in the text `ir` prints, with the\n"
			"#[metadata] section its constants and devices need. Pins are written\n"
			"into a version before `check` as the annotations they stand for (a\n"
			"parameter's virtual_device, an on_device around the value), so that\n"
			"the file loaded without pins plans as the pinned session does.",
		.handler = cmd_save,
		.completer = cmd_complete_save,
	},
	{
		.name = "set",
		.min_args = 2,
		.max_args = 2,
		.flags = CMD_LISTS_SETTINGS,
		.usage = "set NAME VALUE",
		.summary = "change a setting",
		.help = "Changes a setting (see below; `show` prints them). Names and values\n"
			"accept unique prefixes. Changing fallback, policy or placement after a\n"
			"phase ran takes planning back to the module as loaded, and says so.",
		.handler = cmd_set,
		.completer = cmd_complete_set,
	},
	{
		.name = "show",
		.min_args = 0,
		.max_args = 1,
		.flags = CMD_LISTS_SETTINGS,
		.usage = "show [NAME | --changed]",
		.summary = "print the settings, or one of them",
		.help = "Prints every setting with its value, or only the setting NAME. A value\n"
			"that is not the default is followed by `(default: X)`; `--changed`\n"
			"prints only those settings.",
		.handler = cmd_show,
		.completer = cmd_complete_show,
	},
	{
		.name = "source",
		.min_args = 1,
		.max_args = 1,
		.flags = CMD_READS_FILES,
		.usage = "source FILE",
		.summary = "run the commands in a script",
		.help = "Runs FILE one line at a time as if typed at the prompt; `#` starts a\n"
			"comment. Errors name FILE:LINE. FILE runs in its own folder: its\n"
			"relative file names start from there (a file it reads that is not there\n"
			"is looked for in the folder devplan runs in), and devplan comes back\n"
			"when it ends. Scripts may source other scripts. A failing command stops\n"
			"the script in batch mode (-b) or with `set errexit on`; otherwise the\n"
			"script goes on and `source` fails at the end.",
		.handler = cmd_source,
		.completer = cmd_complete_files,
	},
	{
		.name = "step",
		.aliases = {"s", "n", "next"},
		.min_args = 0,
		.max_args = 1,
		.flags = CMD_NEEDS_MODULE | CMD_RELAX,
		.usage = "step [N]",
		.summary = "run the next phase, or the next N",
		.help = "Runs the next planning phase (N phases with a count) and prints one\n"
			"line per phase, with any diagnostics. A phase in progress under\n"
			"`stepi` counts as the next one: its remaining events run and its\n"
			"version is committed. When a phase fails, its errors are printed and\n"
			"the session stays before it. Stops early at a breakpoint. After the\n"
			"last phase, prints `all phases done`. A phase is devplan's line of\n"
			"source and its events its instructions, with no calls to step into:\n"
			"gdb's `step` and `next` (s, n) both run a phase here, and `stepi` and\n"
			"`nexti` (si, ni) both an event.",
		.handler = cmd_step,
	},
	{
		.name = "stepi",
		.aliases = {"si", "ni", "nexti"},
		.min_args = 0,
		.max_args = 1,
		.flags = CMD_NEEDS_MODULE | CMD_RELAX,
		.usage = "stepi [N]",
		.summary = "replay the next solver event, or the next N",
		.help = "Moves by one event of the planner: in `core`, one unification (analyze),\n"
			"one defaulted domain (default) or one inserted copy or fixed annotation\n"
			"(capture), printed with its position and its cause; a phase without\n"
			"events counts as one event. The first stepi into core runs it into a\n"
			"pending version; `phases` then shows `current (event K of N)`, and\n"
			"`constraints` and `why` answer for that point. After the last event, or\n"
			"at `step`, the version is committed. Stops early at a breakpoint.",
		.handler = cmd_stepi,
	},
	{
		.name = "target",
		.min_args = 1,
		.max_args = -1,
		.usage = "target add KIND:ID[:SCOPE] [TARGET] | target set DEVICE NAME=VALUE... | "
			 "target calibrate",
		.summary = "add a device, set its cost model, or calibrate the cpu on "
			   "this machine",
		.help = "Appends the device KIND:ID (e.g. cuda:1) to the device table, with the\n"
			"given TVM target or the kind's default (llvm for cpu, cuda for cuda).\n"
			"The new device gets the next index, so meta[VirtualDevice][i] of a\n"
			"module without its own #[metadata] can refer to it.\n"
			"KIND:ID:SCOPE (e.g. cuda:0:global.texture) is that device in a memory\n"
			"scope: the planner copies between two scopes of one device, and a\n"
			"device without a scope joins any of its scopes. It takes the target,\n"
			"host and cost model of KIND:ID when the table has it.\n"
			"\n"
			"`target set DEVICE NAME=VALUE...` sets what `estimate` assumes of the\n"
			"device: bandwidth=GB/s of its link to the host (for a cpu, of a copy in\n"
			"memory), latency=US that every copy over it costs besides its bytes,\n"
			"memory=GB/s of its own memory (bytes read plus written), peak=GFLOP/s\n"
			"of float32 arithmetic (an sgemm's) and launch=US that every operator\n"
			"costs besides its arithmetic. Defaults: 25 GB/s (PCIe gen4 x16), 10 us,\n"
			"3000 GB/s (HBM3), 50000 GFLOP/s (an H100/H200-class GPU without tensor\n"
			"cores) and 5 us for an accelerator; 10 GB/s (one core's memcpy), 0,\n"
			"10 GB/s, 1000 GFLOP/s and 0 for a cpu. `targets` shows them.\n"
			"\n"
			"`target calibrate` measures this machine with the cpu kernels' threads\n"
			"(DEVPLAN_THREADS): memcpy's bandwidth and OpenBLAS sgemm's rate, in a\n"
			"few tenths of a second, and makes them every cpu device's bandwidth,\n"
			"memory and peak. `profile` measures once per session by itself.",
		.handler = cmd_target,
		.completer = cmd_complete_target,
	},
	{
		.name = "targets",
		.min_args = 0,
		.max_args = 0,
		.usage = "targets",
		.summary = "list the device table",
		.help = "Lists the device table: the index that meta[VirtualDevice][i] refers\n"
			"to, the device name, its target and its host target, and marks the\n"
			"fallback device.",
		.handler = cmd_targets,
	},
	{
		.name = "tbreak",
		.min_args = 1,
		.max_args = 1,
		.usage = "tbreak PHASE|%x|@f|conflict|copy",
		.summary = "set a breakpoint that is deleted once it stops a run",
		.help = "Sets a temporary breakpoint, as gdb's `tbreak` does: the same\n"
			"locations as `break`, and it stops a run once (it says `temporary\n"
			"breakpoint N, ...`), after which it is deleted. `breaks` marks it\n"
			"temporary until then.",
		.handler = cmd_tbreak,
		.completer = cmd_complete_break,
	},
	{
		.name = "undo",
		.min_args = 0,
		.max_args = 1,
		.flags = CMD_NEEDS_MODULE,
		.usage = "undo [--all]",
		.summary = "undo the last pin or unpin and show what changed",
		.help = "Restores the pins as they were before the last pin or unpin, plans\n"
			"again and shows the change, like pin does.",
		.handler = cmd_undo,
	},
	{
		.name = "unpin",
		.min_args = 1,
		.max_args = 3,
		.flags = CMD_NEEDS_MODULE,
		.usage = "unpin %x|--op OPS [--all]",
		.summary = "what-if: remove the pin of %x (or of --op OPS) and show what changed",
		.help = "Removes a pin made with pin (--op OPS as it was written), plans again\n"
			"and shows the change.",
		.handler = cmd_unpin,
		.completer = cmd_complete_values,
	},
	{
		.name = "verify",
		.min_args = 0,
		.max_args = 0,
		.flags = CMD_NEEDS_MODULE | CMD_NEEDS_PLAN,
		.usage = "verify",
		.summary = "check that every node has a device and cross-device edges copy",
		.help = "Checks the current module version: every expression carries a device,\n"
			"and every edge between expressions on different devices goes through a\n"
			"device_copy. Each violation is reported with its position.",
		.handler = cmd_verify,
	},
	{
		.name = "watch",
		.min_args = 1,
		.max_args = 1,
		.usage = "watch %x",
		.summary = "report each change of %x's domain without stopping",
		.help = "Sets a watchpoint: while `step`, `stepi` or `continue` replay core's\n"
			"events, every event that changes the domain of %x (its class merges\n"
			"with another, or its device is bound) prints a line like\n"
			"`watch %b: free -> cpu:0 (unify: ...)`. `plan` ignores watchpoints.",
		.handler = cmd_watch,
		.completer = cmd_complete_break,
	},
	{
		.name = "why",
		.min_args = 1,
		.max_args = 1,
		.flags = CMD_NEEDS_MODULE | CMD_RELAX,
		.usage = "why %x",
		.summary = "explain the chain of constraints that decided %x's device",
		.help = "Prints the constraints, each with its source position, that join %x to\n"
			"the annotation or default that bound its device. After a phase failed,\n"
			"from the last analysis, check's or core's, after a note.",
		.handler = cmd_why,
		.completer = cmd_complete_values,
	},
};
const size_t commands_count = DP_COUNT(commands_table);

const Command *commands_find(const char *name, bool *ambiguous)
{
	int i = prefix_match(name, &commands_table[0].name, commands_count, sizeof(Command));
	*ambiguous = false;
	if (i >= 0 && strcmp(commands_table[i].name, name) == 0)
		return &commands_table[i];
	/* an alias is exact and beats a prefix of a name */
	for (size_t k = 0; k < commands_count; k++) {
		const Command *c = &commands_table[k];
		for (size_t a = 0; a < DP_COUNT(c->aliases) && c->aliases[a]; a++)
			if (strcmp(c->aliases[a], name) == 0)
				return c;
	}
	*ambiguous = i == PREFIX_AMBIGUOUS;
	return i >= 0 ? &commands_table[i] : NULL;
}

/* ---- unknown names ---- */

/* gdb commands devplan has no counterpart for, which a gdb user types by
 * reflex: an error that says so and what to use instead beats "unknown".
 * A word names one by any prefix of at least `min` letters. */
static const struct {
	const char *name;
	size_t min;
	const char *message;
} gdb_unsupported[] = {
	{"condition", 4,
	 "devplan's breakpoints take no conditions (gdb's 'condition'): there are no "
	 "expressions to test; narrow the location instead ('break %x' stops when %x's "
	 "domain changes, 'break conflict', 'break copy') or let a breakpoint pass by "
	 "its next stops with 'ignore N COUNT'"},
};

static const char *gdb_word_unsupported(const char *word)
{
	size_t len = strlen(word);
	for (size_t i = 0; i < DP_COUNT(gdb_unsupported); i++)
		if (len >= gdb_unsupported[i].min &&
		    strncmp(gdb_unsupported[i].name, word, len) == 0)
			return gdb_unsupported[i].message;
	return NULL;
}

void commands_suggest(const char *name, StrBuf *out)
{
	Suggestions s;
	suggest_init(&s, name);
	for (size_t i = 0; i < commands_count; i++) {
		const Command *c = &commands_table[i];
		suggest_consider(&s, c->name);
		/* the short aliases would be near any short typo */
		for (size_t a = 0; a < DP_COUNT(c->aliases) && c->aliases[a]; a++)
			if (strlen(c->aliases[a]) > 2)
				suggest_consider(&s, c->aliases[a]);
	}
	suggest_finish(&s, out);
}

int cmd_unknown_command(CmdContext *ctx, const char *name, bool ambiguous)
{
	StrBuf sb;
	if (!ambiguous) {
		const char *unsupported = gdb_word_unsupported(name);
		if (unsupported)
			return cmd_error(ctx, "%s", unsupported);
		strbuf_init(&sb);
		commands_suggest(name, &sb);
		if (sb.len)
			cmd_error(ctx, "unknown command '%s'%s", name, sb.data);
		else
			cmd_error(ctx, "unknown command '%s'; type 'help' for a list", name);
		strbuf_free(&sb);
		return 1;
	}
	strbuf_init(&sb);
	prefix_candidates(&sb, name, &commands_table[0].name, commands_count, sizeof(Command));
	cmd_error(ctx, "ambiguous command '%s': %s", name, sb.data);
	strbuf_free(&sb);
	return 1;
}

/* ---- completion of names ---- */

void cmd_complete_commands(const Session *s, int argc, char **argv, const char *word,
			   CmdCandidates *out)
{
	if (argc > 1)
		return;
	for (size_t i = 0; i < commands_count; i++) {
		const Command *c = &commands_table[i];
		cmd_candidates_add(out, word, c->name);
		for (size_t a = 0; a < DP_COUNT(c->aliases) && c->aliases[a]; a++)
			cmd_candidates_add(out, word, c->aliases[a]);
	}
}
