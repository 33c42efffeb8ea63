#!/usr/bin/env python3
"""Memory of `portolan` against `lua5.4`, side by side in one run (issue 24's two memory rows).

    python3 Benchmarks/scripts/memory.py PORTOLAN [PORTOLAN...] [--runs N] [--nodes N] [--every-node-handled]

1. An app of 100,000 nodes (`--nodes`), peak: the maximum RSS (`getrusage` of the child, through
   `os.wait4`) of `portolan repl APP < /dev/null`, which loads the app, declares its graph and
   leaves at the end of its input; against `lua5.4` running the same file with a `portolan.app`
   that only keeps the root table: the same tables, held by plain Lua. The app is ScaleBenchmark's
   (`luaApp`): a switch node that keeps its stacks, three screens with Lua `enter`/`leave`, and the
   rest more tabs. With `--every-node-handled`, every tab has Lua `enter`/`leave` too (issue 36's
   row: a Lua handler on every node).
2. The REPL at its prompt: the RSS (`VmRSS` in /proc/PID/status) of `portolan repl` on the
   built-in demo app once `portolan> ` has been written, against `lua5.4 -i` once `> ` has been,
   each on a pseudo-terminal of its own (as startup.py starts them) and read 0.3 s after the
   prompt, when the work left to a second core is done.

Several binaries (before and after a change) are measured in the same rounds, alternately; the
figures are medians of `--runs` rounds (memory moves little from run to run).
"""

import argparse
import os
import pty
import select
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from startup import ESCAPES  # noqa: E402  (the terminal's escapes, stripped the same way)

MIB = 1 << 20


def app_source(nodes, every_node_handled=False):
    """ScaleBenchmark's `luaApp(size:)`, as a file; `every_node_handled`: the other tabs have handlers too."""
    tab_handlers = ", enter = h, leave = h" if every_node_handled else ""
    return f"""n = 0
h = function() n = n + 1 end
local tabs = {{ {{ id = 'a', enter = h, leave = h, children = {{ {{ id = 'b', enter = h, leave = h,
  children = {{ {{ id = 'c', enter = h, leave = h }} }} }} }} }}, {{ id = 'z', enter = h, leave = h }} }}
for i = 0, {nodes - 7} do tabs[#tabs + 1] = {{ id = 'f' .. i{tab_handlers} }} end
portolan.app {{ id = 'root', children = {{ {{ id = 'tabs', kind = 'switch', active = 'a', keep = true, children = tabs }} }} }}
"""


def peak_rss(argv):
    """The child's maximum RSS in bytes, and its exit status."""
    with open(os.devnull, "rb") as stdin, open(os.devnull, "wb") as sink:
        child = subprocess.Popen(argv, stdin=stdin, stdout=sink, stderr=sink)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        # On a loaded machine an old build may pass AppLoadLimits' 10 s (it took 4-17 s here).
        print(f"{' '.join(argv)}: exit status {child.returncode}; run left out", file=sys.stderr)
        return None
    return usage.ru_maxrss * 1024  # kilobytes on Linux


def rss_at_prompt(argv, marker, env, settle=0.3, limit=20.0):
    """VmRSS in bytes of a program started on a pseudo-terminal, `settle` s after `marker`."""
    master, slave = pty.openpty()
    child = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                             start_new_session=True, close_fds=True)
    os.close(slave)
    seen, start = b"", time.monotonic()
    try:
        while marker not in ESCAPES.sub(b"", seen):
            remaining = limit - (time.monotonic() - start)
            if remaining <= 0:
                raise RuntimeError(f"{argv[0]}: no {marker!r} within {limit} s; output: {seen[-200:]!r}")
            ready, _, _ = select.select([master], [], [], remaining)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    raise RuntimeError(f"{argv[0]}: exited before {marker!r}; output: {seen[-200:]!r}")
                seen += chunk
        time.sleep(settle)
        with open(f"/proc/{child.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        raise RuntimeError("no VmRSS in /proc")
    finally:
        child.kill()
        child.wait()
        os.close(master)


def report(title, rows, anchor):
    print(title)
    width = max(len(name) for name in rows)
    print(f"  {'program':<{width}} {'median MiB':>10} {'MB':>7} {'min MiB':>8} {'x anchor':>9}")
    floor = statistics.median(rows[anchor])
    for name, values in rows.items():
        if not values:
            print(f"  {name:<{width}} {'no run succeeded':>10}")
            continue
        median = statistics.median(values)
        print(f"  {name:<{width}} {median / MIB:10.1f} {median / 1e6:7.1f} {min(values) / MIB:8.1f}"
              f" {median / floor:8.2f}x")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("portolan", nargs="+", help="the portolan binaries to measure")
    parser.add_argument("--runs", type=int, default=5, help="rounds (default 5)")
    parser.add_argument("--nodes", type=int, default=100_000, help="the big app's nodes (default 100,000)")
    parser.add_argument("--every-node-handled", action="store_true", help="Lua enter/leave on every node of the big app")
    options = parser.parse_args()

    work = tempfile.mkdtemp(prefix="portolan-memory-")
    app, stub = os.path.join(work, "app.lua"), os.path.join(work, "stub.lua")
    with open(app, "w") as file:
        file.write(app_source(options.nodes, options.every_node_handled))
    with open(stub, "w") as file:
        file.write("portolan = { app = function(spec) kept = spec return spec end }\ndofile(arg[1])\n")
    env = dict(os.environ, PORTOLAN_HISTORY=os.path.join(work, "history"), TERM=os.environ.get("TERM", "xterm"))

    big = {"lua5.4, the same tables": ["lua5.4", stub, app]}
    big.update({f"{binary} repl APP": [binary, "repl", app] for binary in options.portolan})
    prompt = {"lua5.4 -i": (["lua5.4", "-i"], b"> ")}
    prompt.update({f"{binary} repl": ([binary, "repl"], b"portolan> ") for binary in options.portolan})
    big_rows = {name: [] for name in big}
    prompt_rows = {name: [] for name in prompt}
    for _ in range(options.runs):
        for name, argv in big.items():
            peak = peak_rss(argv)
            if peak is not None:
                big_rows[name].append(peak)
        for name, (argv, marker) in prompt.items():
            prompt_rows[name].append(rss_at_prompt(argv, marker, env))
    for path in (app, stub, env["PORTOLAN_HISTORY"]):
        if os.path.exists(path):
            os.unlink(path)
    os.rmdir(work)

    print(f"{options.runs} alternating runs each; load average {os.getloadavg()[0]:.2f}")
    handled = ", a Lua handler on every node" if options.every_node_handled else ""
    report(f"App of {options.nodes:,} nodes{handled}, peak (max RSS):", big_rows, "lua5.4, the same tables")
    report("REPL at its prompt (RSS):", prompt_rows, "lua5.4 -i")


if __name__ == "__main__":
    sys.exit(main())
