#!/usr/bin/env python3
"""pty_test.py - drives the real REPL through a pseudo-terminal.

usage: python3 tests/pty_test.py DEVPLAN

Checks what only a terminal shows: Tab completes a command prefix, a
device after `pin %b` and `reduce`'s predicates, the
history file written by one session is recalled (Ctrl-P) in the next,
Ctrl-C at the prompt discards the line and prompts again, and Ctrl-D at an
empty prompt quits with status 0. Then the faults: Ctrl-C stops `copies`
on a big module within a second and the session goes on, Ctrl-C stops
`reduce` (on a Relay and on a Relax module) with the smallest module so
far written; SIGTERM and SIGHUP at the prompt save the history, give the terminal back and exit
with 128 + the signal; two sessions that ran side by side both keep their
lines in one history file, and eight that quit at once lose none of a
full history's lines; a relative history file stays where devplan
started after `cd`; a history file that cannot be read is left as it is,
with a warning; a FIFO no one writes, named to load, source or run, ends
on Ctrl-C or SIGTERM; save over the loaded module asks first. Every wait
has a deadline, so a broken REPL fails
the test instead of hanging it. Prints one line per check and exits 1 when
any failed.
"""
import os
import pty
import select
import signal
import sys
import stat
import tempfile
import termios
import time

PROMPT = b"(devplan) "


class Repl:
    """One devplan process on a pseudo-terminal."""

    def __init__(self, devplan, home, history, args=()):
        env = dict(os.environ)
        env.update(TERM="dumb", NO_COLOR="1", HOME=home, DEVPLAN_HISTORY=history)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            try:
                os.chdir(home)
                os.execve(devplan, [devplan, "-n", "-q"] + list(args), env)
            finally:
                os._exit(127)
        self.output = b""
        self.status = None

    def expect(self, needle, timeout=5.0):
        """Reads until needle appears after what was consumed; returns the
        text up to and including it, or None on timeout or end of file."""
        deadline = time.time() + timeout
        while needle not in self.output:
            left = deadline - time.time()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                continue
            try:
                data = os.read(self.fd, 4096)
            except OSError:
                data = b""
            if not data:
                return None
            self.output += data
        end = self.output.index(needle) + len(needle)
        seen, self.output = self.output[:end], self.output[end:]
        return seen

    def send(self, data):
        os.write(self.fd, data)

    def wait(self, timeout=5.0):
        """The exit status, or None if it is still running at the deadline."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                self.expect(b"\0never\0", 0.1)  # drain output
            except OSError:
                pass
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = status
                if os.WIFEXITED(status):
                    return os.WEXITSTATUS(status)
                return -os.WTERMSIG(status)
        return None

    def close(self):
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except OSError:
                pass
        os.close(self.fd)


failures = 0


def check(name, ok, detail=""):
    global failures
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else ": " + detail))
    if not ok:
        failures += 1


def read_file(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return b""


def write_big_module(path, n):
    """A chain of n adds alternating between the CPU and the GPU: about n
    copies once planned."""
    with open(path, "w") as f:
        f.write('#[version = "0.0.5"]\n')
        f.write("def @main(%x: Tensor[(4), float32]) -> Tensor[(4), float32] {\n")
        prev = "%x"
        for i in range(n):
            dev = '"cuda:0"' if i % 2 else '"cpu:0"'
            f.write("  %%%d = on_device(add(%s, %s), virtual_device=%s, "
                    "constrain_result=True);\n" % (i, prev, prev, dev))
            prev = "%%%d" % i
        f.write("  %s\n}\n" % prev)


def check_pager(devplan, home):
    """gdb's pagination: `help` (over 40 lines) stops after each page of
    `set height 6`; space shows another page, q stops the command and the
    session goes on, c shows the rest, and `set pagination off` never
    stops."""
    stop = b"--Type <RET> for more, q to quit, c to continue without paging--"
    r = Repl(devplan, home, "")
    try:
        r.expect(PROMPT)
        r.send(b"set height 6\r")
        r.expect(PROMPT)
        r.send(b"help\r")
        seen = r.expect(stop)
        lines = seen.count(b"\n") if seen else -1
        # the echoed command line, then five lines of output
        check("the pager stops after a page of 'set height 6'",
              seen is not None and lines == 6, repr(seen or r.output))
        r.send(b" ")
        seen = r.expect(stop)
        check("space shows one more page", seen is not None and seen.count(b"\n") == 5,
              repr(seen or r.output))
        r.send(b"q")
        seen = r.expect(PROMPT)
        check("q stops the command and prompts again",
              seen is not None and b"Quit" in seen and stop not in seen,
              repr(seen or r.output))
        r.send(b"echo after-quit\r")
        seen = r.expect(PROMPT)
        check("the session goes on after q", seen is not None and b"after-quit" in seen,
              repr(seen or r.output))
        r.send(b"help\r")
        r.expect(stop)
        r.send(b"c")
        seen = r.expect(PROMPT)
        check("c shows the rest without stopping",
              seen is not None and stop not in seen and b"why" in seen,
              repr(seen or r.output))
        r.send(b"set pagination off\r")
        r.expect(PROMPT)
        r.send(b"help\r")
        seen = r.expect(PROMPT)
        check("set pagination off never stops",
              seen is not None and stop not in seen and b"why" in seen,
              repr(seen or r.output))
    finally:
        r.close()


def check_completion(devplan, home):
    """Tab after a value completes a device (`pin %b cu` -> `cuda:0`), and
    a double Tab after `reduce ` lists its predicates; `i` is info."""
    r = Repl(devplan, home, os.path.join(home, "history-completion"))
    try:
        r.expect(PROMPT)
        r.send(b"pin %b cu\t")
        check("tab completes a device after a value",
              r.expect(b"pin %b cuda:0 ") is not None, repr(r.output))
        r.send(b"\x15reduce \t\t")  # Ctrl-U empties the line first
        seen = r.expect(b"script")
        check("double tab after reduce lists its predicates",
              seen is not None and b"compare-fail" in seen and b"conflict" in seen
              and b"copies" in seen, repr(seen or r.output))
        r.expect(PROMPT)  # the line, drawn again under the list
        r.send(b"\x15i b\r")
        seen = r.expect(PROMPT)
        check("i b is info breakpoints",
              seen is not None and b"no breakpoints or watchpoints" in seen,
              repr(seen or r.output))
        r.send(b"quit\r")
        check("quit after completion", r.wait() == 0, "status %r" % (r.status,))
    finally:
        r.close()


def check_ctrl_c(devplan, home):
    """Ctrl-C while `copies` prints 100,000 lines to the terminal."""
    module = os.path.join(home, "big.relay")
    write_big_module(module, 100000)
    r = Repl(devplan, home, "", ["-c", "load big.relay", "-c", "plan"])
    try:
        seen = r.expect(PROMPT, 120)
        check("a big module loads and plans", seen is not None and b"error" not in seen,
              repr(seen or r.output)[-300:])
        r.send(b"copies\r")
        check("copies starts", r.expect(b"bytes (") is not None, repr(r.output)[-300:])
        start = time.time()
        r.send(b"\x03")
        seen = r.expect(PROMPT, 1.0)
        took = time.time() - start
        check("Ctrl-C stops copies within a second and the prompt comes back",
              seen is not None and b"error: interrupted" in seen,
              "%.1f s: %r" % (took, (seen or r.output)[-300:]))
        if seen is None:
            r.expect(PROMPT, 120)
        r.send(b"echo still-alive\r")
        seen = r.expect(PROMPT, 5)
        check("the session goes on after the interrupted copies",
              seen is not None and b"\r\nstill-alive\r\n" in seen, repr(seen or r.output))
        r.send(b"quit\r")
        r.wait()
    finally:
        r.close()
        os.unlink(module)


def check_ctrl_c_render(devplan, home):
    """Ctrl-C while Graphviz lays out a 4,400-node graph (seconds): the
    layout, run in a child process, is abandoned within a second, the file
    that was there is untouched and no temporary file is left."""
    module = os.path.join(home, "fan.relay")
    with open(module, "w") as f:
        f.write("def @main(%x: Tensor[(4), float32], %y: Tensor[(4), float32]) {\n")
        prev, k = "%x", 0
        while k < 4400:
            f.write("  %%%d = add(%s, %%y);\n" % (k, prev))
            f.write("  %%%d = multiply(%%%d, %s);\n" % (k + 1, k, prev))
            prev, k = "%%%d" % (k + 1), k + 2
        f.write("  %s\n}\n" % prev)
    out = os.path.join(home, "fan.svg")
    with open(out, "w") as f:
        f.write("old picture\n")
    r = Repl(devplan, home, "", ["-c", "load fan.relay", "-c", "plan"])
    try:
        r.expect(PROMPT, 120)
        r.send(b"render fan.svg\r")
        time.sleep(0.5)
        start = time.time()
        r.send(b"\x03")
        seen = r.expect(PROMPT, 1.0)
        took = time.time() - start
        check("Ctrl-C abandons render's layout within a second",
              seen is not None and b"interrupted" in seen,
              "%.1f s: %r" % (took, (seen or r.output)[-300:]))
        if seen is None:
            r.expect(PROMPT, 120)
        with open(out) as f:
            kept = f.read()
        left = [n for n in os.listdir(home) if n.startswith(".dp")]
        check("the interrupted render left the old file and no temporary file",
              kept == "old picture\n" and not left, "%r %r" % (kept[:80], left))
        r.send(b"echo still-alive\r")
        seen = r.expect(PROMPT, 5)
        check("the session goes on after the interrupted render",
              seen is not None and b"\r\nstill-alive\r\n" in seen, repr(seen or r.output))
        r.send(b"quit\r")
        r.wait()
    finally:
        r.close()
        os.unlink(module)


def check_ctrl_c_reduce(devplan, home):
    """Ctrl-C while `reduce` searches a 20,000-binding module (many
    seconds): it stops within a second and writes the smallest module found
    so far, which loads."""
    module = os.path.join(home, "chain.relay")
    write_big_module(module, 20000)
    out = os.path.join(home, "small.relay")
    r = Repl(devplan, home, "", ["-c", "load chain.relay"])
    try:
        r.expect(PROMPT, 120)
        r.send(b"reduce copies >= 100 -o small.relay\r")
        check("reduce starts", r.expect(b"reducing", 10) is not None, repr(r.output)[-300:])
        # past the first test (the module as loaded, planned again: seconds
        # under the sanitizers) and one pass, so a smaller module exists
        check("reduce makes progress",
              r.expect(b"tests so far)", 120) is not None, repr(r.output)[-300:])
        start = time.time()
        r.send(b"\x03")
        seen = r.expect(b"interrupted: the smallest module so far", 1.5)
        took = time.time() - start
        check("Ctrl-C stops reduce within a second",
              seen is not None, "%.1f s: %r" % (took, (seen or r.output)[-300:]))
        # writing it is a file_write (fsync, rename): not part of the second,
        # and seconds under the sanitizers on a busy disk
        seen = r.expect(PROMPT, 300)
        check("the module so far is written when reduce is interrupted",
              seen is not None and b"wrote 'small.relay'" in seen,
              repr((seen or r.output)[-300:]))
        r.send(b"load small.relay\r")
        seen = r.expect(PROMPT, 30)
        check("the module written when interrupted loads",
              seen is not None and b"loaded 'small.relay'" in seen, repr(seen or r.output))
        r.send(b"quit\r")
        r.wait()
    finally:
        r.close()
        os.unlink(module)
        if os.path.exists(out):
            os.unlink(out)


def write_big_relax_module(path, n):
    """The Relax form: n exps, each hinted to the CPU and the GPU in turn,
    about n R.to_vdevice copies once planned under the copy policy."""
    vdevices = ('I.module_global_infos({"vdevice": [I.vdevice({"keys": ["cpu"], '
                '"kind": "llvm", "mtriple": "x86_64-unknown-linux-gnu", "tag": ""}, 0, '
                '"global"), I.vdevice({"arch": "sm_80", "keys": ["cuda", "gpu"], '
                '"kind": "cuda", "max_num_threads": 1024, "tag": "", '
                '"thread_warp_size": 32}, 0, "global")]})')
    t = 'R.Tensor((2, 2), dtype="float32")'
    with open(path, "w") as f:
        f.write("# from tvm.script import ir as I\n# from tvm.script import relax as R\n\n")
        f.write("@I.ir_module\nclass Module:\n    %s\n    @R.function\n" % vdevices)
        f.write("    def main(x: %s) -> %s:\n" % (t, t))
        prev = "x"
        for i in range(n):
            f.write("        a%d: %s = R.exp(%s)\n" % (i, t, prev))
            f.write('        h%d: %s = R.hint_on_device(a%d, R.device(device_type=%d, '
                    'index=0), "global")\n' % (i, t, i, 1 + i % 2))
            prev = "h%d" % i
        f.write("        return %s\n" % prev)


def check_ctrl_c_reduce_relax(devplan, home):
    """Ctrl-C while `reduce` searches a 1,000-binding Relax module (its
    first pass takes some 400 tests: about 35 s under the sanitizers, and
    the rest of the search seconds more): it stops within a second and
    writes the smallest module so far as a .py, which loads as Relax."""
    module = os.path.join(home, "chain.py")
    write_big_relax_module(module, 500)
    out = os.path.join(home, "small.py")
    r = Repl(devplan, home, "", ["-c", "load chain.py"])
    try:
        r.expect(PROMPT, 120)
        r.send(b"reduce copies >= 100 -o small.py\r")
        check("Relax reduce starts", r.expect(b"reducing", 10) is not None,
              repr(r.output)[-300:])
        check("Relax reduce makes progress",
              r.expect(b"tests so far)", 120) is not None, repr(r.output)[-300:])
        start = time.time()
        r.send(b"\x03")
        seen = r.expect(b"interrupted: the smallest module so far", 1.5)
        took = time.time() - start
        check("Ctrl-C stops Relax reduce within a second",
              seen is not None, "%.1f s: %r" % (took, (seen or r.output)[-300:]))
        seen = r.expect(PROMPT, 300)
        check("the Relax module so far is written when reduce is interrupted",
              seen is not None and b"wrote 'small.py'" in seen,
              repr((seen or r.output)[-300:]))
        r.send(b"load small.py\r")
        seen = r.expect(PROMPT, 30)
        check("the Relax module written when interrupted loads",
              seen is not None and b"loaded 'small.py' (Relax)" in seen,
              repr(seen or r.output))
        r.send(b"quit\r")
        r.wait()
    finally:
        r.close()
        os.unlink(module)
        if os.path.exists(out):
            os.unlink(out)


def check_terminate(devplan, home, sig):
    """A signal at the prompt: history saved, terminal restored, 128 + N."""
    name = signal.Signals(sig).name
    history = os.path.join(home, "history-" + name)
    r = Repl(devplan, home, history)
    try:
        r.expect(PROMPT)
        r.send(b"echo before-" + name.encode() + b"\r")
        r.expect(PROMPT)
        r.send(b"echo half-typed")
        r.expect(b"half-typed")
        raw = termios.tcgetattr(r.fd)
        check(name + ": readline has the terminal at the prompt",
              raw[3] & termios.ICANON == 0, "lflag %#x" % raw[3])
        # the terminal stays open, so that the test can read its modes
        # afterwards (a real hangup closes it as well)
        os.kill(r.pid, sig)
        status = r.wait()
        check(name + " at the prompt exits with 128 + %d" % sig,
              status == 128 + sig, "status %r" % (status,))
        after = termios.tcgetattr(r.fd)
        check(name + " gives the terminal back in its cooked mode",
              after[3] & termios.ICANON and after[3] & termios.ECHO, "lflag %#x" % after[3])
    finally:
        r.close()
    saved = read_file(history)
    check(name + " saves the history",
          b"echo before-" + name.encode() in saved and b"half-typed" not in saved,
          repr(saved))


def check_concurrent_histories(devplan, home):
    """Two sessions on one history file, the first to start ends first."""
    history = os.path.join(home, "history-shared")
    with open(history, "wb") as f:
        f.write(b"echo from-an-older-session\n")
    a = Repl(devplan, home, history)
    b = Repl(devplan, home, history)
    try:
        a.expect(PROMPT)
        b.expect(PROMPT)
        a.send(b"echo session-a\r")
        a.expect(PROMPT)
        b.send(b"echo session-b\r")
        b.expect(PROMPT)
        a.send(b"quit\r")
        a.wait()
        b.send(b"quit\r")
        b.wait()
    finally:
        a.close()
        b.close()
    saved = read_file(history)
    check("two sessions side by side both keep their lines",
          all(x in saved for x in (b"echo from-an-older-session\n", b"echo session-a\n",
                                   b"echo session-b\n")), repr(saved))


def check_sessions_quitting_together(devplan, home, sessions=8, lines=25):
    """Eight sessions on a full (1,000-line) history, quitting at once:
    every one of their 200 lines is kept (issue 27 item 8: 25-125 were
    lost when each appended and cut the file unlocked), and their lines
    and 8 quits push out the oldest 208."""
    history = os.path.join(home, "history-eight")
    with open(history, "wb") as f:
        for i in range(1000):
            f.write(b"echo old-%d\n" % i)
    mode = stat.S_IMODE(os.stat(history).st_mode)
    repls = [Repl(devplan, home, history) for _ in range(sessions)]
    try:
        for k, r in enumerate(repls):
            r.expect(PROMPT)
            for j in range(lines):
                r.send(b"echo s%d-l%d\r" % (k, j))
                r.expect(PROMPT)
        for r in repls:
            r.send(b"quit\r")
        statuses = [r.wait(20.0) for r in repls]
    finally:
        for r in repls:
            r.close()
    saved = read_file(history).split(b"\n")
    lost = [b"echo s%d-l%d" % (k, j) for k in range(sessions) for j in range(lines)
            if b"echo s%d-l%d" % (k, j) not in saved]
    check("%d sessions quitting together lose none of their %d lines" %
          (sessions, sessions * lines), not lost and statuses == [0] * sessions,
          "statuses %r, %d lost, e.g. %r" % (statuses, len(lost), lost[:3]))
    check("the merged history keeps its last 1000 lines",
          len(saved) == 1001 and saved[-1] == b"" and saved[0] == b"echo old-208",
          "%d lines, first %r" % (len(saved) - 1, saved[0]))
    after = stat.S_IMODE(os.stat(history).st_mode)
    check("the history keeps its mode", after == mode, "mode %o -> %o" % (mode, after))


def check_history_after_cd(devplan, home):
    """A relative DEVPLAN_HISTORY names a file of the folder devplan started
    in, even after `cd` moved it."""
    os.mkdir(os.path.join(home, "elsewhere"))
    r = Repl(devplan, home, "history-relative")
    try:
        r.expect(PROMPT)
        r.send(b"cd elsewhere\r")
        r.expect(PROMPT)
        r.send(b"echo after-cd\r")
        r.expect(PROMPT)
        r.send(b"quit\r")
        status = r.wait()
    finally:
        r.close()
    saved = read_file(os.path.join(home, "history-relative"))
    check("a relative history file stays where devplan started after cd",
          status == 0 and b"echo after-cd" in saved
          and not os.path.exists(os.path.join(home, "elsewhere", "history-relative")),
          "status %r, %r" % (status, saved))


def check_unreadable_history(devplan, home):
    """A history file that is a directory, or that cannot be read, stays."""
    cases = [("a directory", os.path.join(home, "history-dir"))]
    if os.geteuid() != 0:  # root reads a mode-000 file all the same
        cases.append(("an unreadable file", os.path.join(home, "history-000")))
    os.mkdir(cases[0][1])
    if len(cases) > 1:
        with open(cases[1][1], "wb") as f:
            f.write(b"echo secret\n")
        os.chmod(cases[1][1], 0)
    for what, path in cases:
        before = os.stat(path)
        r = Repl(devplan, home, path)
        try:
            seen = r.expect(PROMPT)
            check("a history file that is %s: a warning" % what,
                  seen is not None and b"warning: cannot read the history file" in seen,
                  repr(seen or r.output))
            r.send(b"echo typed\r")
            r.expect(PROMPT)
            r.send(b"quit\r")
            status = r.wait()
        finally:
            r.close()
        after = os.stat(path)
        check("a history file that is %s is left as it is" % what,
              status == 0 and stat.S_IFMT(after.st_mode) == stat.S_IFMT(before.st_mode)
              and after.st_mode == before.st_mode and after.st_size == before.st_size
              and after.st_mtime_ns == before.st_mtime_ns,
              "status %r, mode %o -> %o" % (status, before.st_mode, after.st_mode))
        os.chmod(path, 0o700)


def check_fifo(devplan, home):
    """A FIFO no one writes, named to load, source and run: Ctrl-C ends the
    wait within a second and the session goes on; SIGTERM ends it with 143."""
    fifo = os.path.join(home, "fifo.relay")
    os.mkfifo(fifo)
    module = os.path.join(home, "exp.relay")
    with open(module, "w") as f:
        f.write("def @main(%a: Tensor[(1), float32]) { exp(%a) }\n")
    r = Repl(devplan, home, "", ["-c", "load exp.relay", "-c", "plan"])
    try:
        r.expect(PROMPT, 30)
        for command in (b"load fifo.relay", b"source fifo.relay"):
            r.send(command + b"\r")
            time.sleep(0.3)
            start = time.time()
            r.send(b"\x03")
            seen = r.expect(PROMPT, 1.5)
            check("Ctrl-C ends '%s' of a FIFO no one writes" % command.decode(),
                  seen is not None and b"interrupted" in seen,
                  "%.1f s: %r" % (time.time() - start, (seen or r.output)[-300:]))
        r.send(b"run a=fifo.relay\r")
        seen = r.expect(PROMPT, 2)
        check("run refuses a FIFO as an input file at once",
              seen is not None and b"a FIFO, not a regular file" in seen,
              repr((seen or r.output)[-300:]))
        r.send(b"load fifo.relay\r")
        time.sleep(0.3)
        os.kill(r.pid, signal.SIGTERM)
        status = r.wait(2)
        check("SIGTERM ends 'load' of a FIFO with 143", status == 143, "status %r" % (status,))
    finally:
        r.close()
    # a history file that is a FIFO: read by readline, it would never end
    r = Repl(devplan, home, fifo)
    try:
        seen = r.expect(PROMPT, 3)
        check("a history file that is a FIFO: a warning, and the prompt",
              seen is not None and b"a FIFO, not a regular file" in seen, repr(r.output[-300:]))
        r.send(b"quit\r")
        status = r.wait(3)
        check("a history file that is a FIFO: quit does not wait for it", status == 0,
              "status %r" % (status,))
    finally:
        r.close()
        os.unlink(fifo)
        os.unlink(module)


def check_replace_loaded(devplan, home):
    """save over the module the session loaded asks first: no keeps it,
    yes replaces it."""
    module = os.path.join(home, "mine.relay")
    text = "def @main(%a: Tensor[(1), float32]) {\n  exp(%a)\n}\n"
    with open(module, "w") as f:
        f.write(text)
    r = Repl(devplan, home, "", ["-c", "load mine.relay", "-c", "plan"])
    try:
        r.expect(PROMPT, 30)
        r.send(b"save mine.relay\r")
        seen = r.expect(b"replace it? [y/N] ", 5)
        check("save over the loaded module asks first", seen is not None,
              repr(r.output[-300:]))
        r.send(b"n\r")
        seen = r.expect(PROMPT, 5)
        check("answering no keeps the module",
              seen is not None and b"left as it is" in seen and read_file(module) == text.encode(),
              repr((seen or r.output)[-300:]))
        r.send(b"save mine.relay\r")
        r.expect(b"replace it? [y/N] ", 5)
        r.send(b"y\r")
        seen = r.expect(PROMPT, 5)
        check("answering yes replaces it",
              seen is not None and b"error" not in seen and read_file(module) != text.encode(),
              repr((seen or r.output)[-300:]))
        r.send(b"quit\r")
        r.wait()
    finally:
        r.close()
        os.unlink(module)


def main():
    if len(sys.argv) != 2:
        print("usage: pty_test.py DEVPLAN", file=sys.stderr)
        return 2
    devplan = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as home:
        history = os.path.join(home, "history")

        # first session: completion, Ctrl-C, a command for the history, Ctrl-D
        r = Repl(devplan, home, history)
        try:
            check("prompt", r.expect(PROMPT) is not None, repr(r.output))
            r.send(b"phas\t")
            check("tab completes a command prefix", r.expect(b"phases ") is not None,
                  repr(r.output))
            r.send(b"\r")
            seen = r.expect(PROMPT)
            check("the completed command runs",
                  seen is not None and b"rewrite  pending" in seen, repr(seen or r.output))
            r.send(b"echo discarded")
            r.expect(b"discarded")
            r.send(b"\x03")
            seen = r.expect(PROMPT)
            check("Ctrl-C at the prompt prompts again",
                  seen is not None and b"^C" in seen, repr(seen or r.output))
            r.send(b"echo pty-marker\r")
            seen = r.expect(PROMPT)
            check("after Ctrl-C the next line runs, the discarded one did not",
                  seen is not None and b"\r\npty-marker\r\n" in seen
                  and b"\r\ndiscarded\r\n" not in seen, repr(seen or r.output))
            r.send(b"\x04")
            status = r.wait()
            check("Ctrl-D at an empty prompt quits with status 0", status == 0,
                  "status %r" % (status,))
        finally:
            r.close()
        try:
            with open(history, "rb") as f:
                saved = f.read()
        except OSError:
            saved = b""
        check("the history file is written", b"echo pty-marker" in saved, repr(saved))
        check_pager(devplan, home)
        check_completion(devplan, home)

        # second session: Ctrl-P recalls the last line of the first
        r = Repl(devplan, home, history)
        try:
            r.expect(PROMPT)
            r.send(b"\x10")
            check("Ctrl-P recalls the previous session's line",
                  r.expect(b"echo pty-marker") is not None, repr(r.output))
            r.send(b"\r")
            seen = r.expect(PROMPT)
            check("the recalled line runs", seen is not None and b"\r\npty-marker\r\n" in seen,
                  repr(seen or r.output))
            r.send(b"quit\r")
            status = r.wait()
            check("quit leaves with status 0", status == 0, "status %r" % (status,))
        finally:
            r.close()
        check_ctrl_c(devplan, home)
        check_ctrl_c_render(devplan, home)
        check_ctrl_c_reduce(devplan, home)
        check_ctrl_c_reduce_relax(devplan, home)
        check_terminate(devplan, home, signal.SIGTERM)
        check_terminate(devplan, home, signal.SIGHUP)
        check_concurrent_histories(devplan, home)
        check_sessions_quitting_together(devplan, home)
        check_history_after_cd(devplan, home)
        check_unreadable_history(devplan, home)
        check_fifo(devplan, home)
        check_replace_loaded(devplan, home)
    print("%d failed" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
