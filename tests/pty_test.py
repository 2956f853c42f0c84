#!/usr/bin/env python3
"""pty_test.py - drives the real REPL through a pseudo-terminal.

usage: python3 tests/pty_test.py DEVPLAN

Checks what only a terminal shows: Tab completes a command prefix, the
history file written by one session is recalled (Ctrl-P) in the next,
Ctrl-C at the prompt discards the line and prompts again, and Ctrl-D at an
empty prompt quits with status 0. Every wait has a deadline, so a broken
REPL fails the test instead of hanging it. Prints one line per check and
exits 1 when any failed.
"""
import os
import pty
import select
import signal
import sys
import tempfile
import time

PROMPT = b"(devplan) "


class Repl:
    """One devplan process on a pseudo-terminal."""

    def __init__(self, devplan, home, history):
        env = dict(os.environ)
        env.update(TERM="dumb", NO_COLOR="1", HOME=home, DEVPLAN_HISTORY=history)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            try:
                os.execve(devplan, [devplan, "-n", "-q"], env)
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
    print("%d failed" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
