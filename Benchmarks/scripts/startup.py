#!/usr/bin/env python3
"""Start-up of `portolan` to its first prompt, against `lua5.4 -e ''`, side by side in one run.

    python3 Benchmarks/scripts/startup.py PORTOLAN [PORTOLAN...] [--runs N] [--app APP.lua]

Several binaries (a build before a change and after it) are timed in the same rounds.

Each run starts the program on a pseudo-terminal of its own (as a person at a terminal starts
it: libedit, colours, the banner) and times it from just before the spawn to the moment the
prompt `portolan> ` has been written (what the person waits for), then ends it. The floor,
`lua5.4 -e ''`, is timed from just before the spawn to its exit, on the same kind of
pseudo-terminal; `lua5.4 -i` to its `> ` prompt is timed too, as the nearest peer: a Lua REPL
ready for a line. The programs alternate within each round, so that load on the machine falls
on all of them alike; the figures are medians, and the ratios are taken between medians of the
same run.

The REPL runs with `PORTOLAN_HISTORY` set to a temporary file of 1,000 lines (a full history, as
a user who has used it for a while has), so reading history is part of what is timed, and the
user's own history is not touched.
"""

import argparse
import os
import pty
import re
import select
import statistics
import subprocess
import sys
import tempfile
import time

ESCAPES = re.compile(rb"\x1b\[[0-9;]*[A-Za-z]|[\x01\x02]")


def time_to_marker(argv, marker, env, limit=20.0):
    """Seconds from before the spawn until `marker` appears on the terminal, or until exit when
    `marker` is None. The child gets the terminal as its standard streams in a session of its
    own; it is spawned with posix_spawn (vfork), not Python's fork, so that the harness adds as
    little as it can to both sides."""
    master, slave = pty.openpty()
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                             start_new_session=True, close_fds=True)
    os.close(slave)
    seen = b""
    try:
        if marker is None:
            status = child.wait()  # a blocking waitpid (with a timeout, Popen polls and sleeps)
            elapsed = time.perf_counter() - start
            if status != 0:
                raise RuntimeError(f"{argv[0]}: exit status {status}")
            return elapsed
        while True:
            remaining = limit - (time.perf_counter() - start)
            if remaining <= 0:
                raise RuntimeError(f"{argv[0]}: no {marker!r} within {limit} s; output: {seen[-200:]!r}")
            ready, _, _ = select.select([master], [], [], remaining)
            if not ready:
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal (it exited)
                chunk = b""
            if not chunk:
                raise RuntimeError(f"{argv[0]}: exited before {marker!r}; output: {seen[-200:]!r}")
            seen += chunk
            if marker in ESCAPES.sub(b"", seen):
                return time.perf_counter() - start
    finally:
        if child.poll() is None:
            child.kill()
        child.wait()
        os.close(master)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("portolan", nargs="+", help="the portolan binaries to time")
    parser.add_argument("--runs", type=int, default=100, help="rounds (default 100)")
    parser.add_argument("--app", help="an app script for the REPL (default: the built-in demo)")
    options = parser.parse_args()

    work = tempfile.mkdtemp(prefix="portolan-startup-")
    history = os.path.join(work, "history")
    with open(history, "w") as file:
        file.writelines(f"portolan.route {{ \"root\", \"dashboard\" }} -- {i}\n" for i in range(1000))
    env = dict(os.environ, PORTOLAN_HISTORY=history, TERM=os.environ.get("TERM", "xterm"))
    env.pop("NO_COLOR", None)

    app = [options.app] if options.app else []
    programs = [
        ("lua5.4 -e ''", ["lua5.4", "-e", ""], None),
        ("lua5.4 -i, to its prompt", ["lua5.4", "-i"], b"> "),
    ] + [(f"{binary} repl, to its prompt", [binary, "repl"] + app, b"portolan> ") for binary in options.portolan]
    for _, argv, marker in programs:  # a warm-up each: the page cache, and a check that it works
        time_to_marker(argv, marker, env)
    times = {name: [] for name, _, _ in programs}
    for _ in range(options.runs):
        for name, argv, marker in programs:
            times[name].append(time_to_marker(argv, marker, env))
    os.unlink(history)
    os.rmdir(work)

    floor = statistics.median(times[programs[0][0]])
    print(f"{options.runs} alternating runs each; load average {os.getloadavg()[0]:.2f}")
    width = max(len(name) for name, _, _ in programs)
    print(f"{'program':<{width}} {'median ms':>9} {'min ms':>7} {'max ms':>7} {'x floor':>8}")
    for name, _, _ in programs:
        values = times[name]
        median = statistics.median(values)
        print(f"{name:<{width}} {median * 1000:9.2f} {min(values) * 1000:7.2f} {max(values) * 1000:7.2f} {median / floor:7.2f}x")


if __name__ == "__main__":
    sys.exit(main())
