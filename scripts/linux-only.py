#!/usr/bin/env python3
"""Lists every use of an interface only Linux has in Sources, and fails on one outside the seams.

    python3 scripts/linux-only.py [--root DIR]

Portolan's users ship iOS and macOS apps, which these machines cannot build. So each Linux-only
interface is used only in a seam: a file listed in SEAMS below, where the use sits behind the
build's choice of paths (`PORTOLAN_LINUX_PATHS` in C, `os(Linux) && !PORTOLAN_PORTABLE` in Swift)
beside a portable path that uses only what Darwin also has (docs/embedding.md, "Platforms"). A
use anywhere else, or one a seam is not listed for, fails the check with its file and line, as
does an `import Glibc` that is not the Linux branch of `#if canImport(Glibc)`.

It is a text search, not a compiler: comments are skipped, and the list of names is short on
purpose (what Linux has and Darwin lacks, or has under another name). A name added to the list,
or a seam, is a change to this file.
"""

import argparse
import os
import re
import sys

# A name or header only Linux has, and what Darwin has instead (or why it has nothing).
LINUX_ONLY = {
    "sem_init": "unnamed POSIX semaphores: Darwin's sem_init fails with ENOSYS",
    "sem_destroy": "unnamed POSIX semaphores, which Darwin does not have",
    "sem_timedwait": "Darwin has no sem_timedwait",
    "sem_clockwait": "a glibc extension",
    "strchrnul": "a GNU extension; search for the byte and the end instead",
    "openat2": "Linux 5.6's system call; Darwin opens one component at a time",
    "<linux/": "Linux's kernel headers",
    "<sys/syscall.h>": "Linux's system call numbers",
    "syscall(": "a raw system call",
    "SYS_": "a Linux system call number",
    "O_PATH": "Linux's descriptor that only names a file",
    "/proc/": "Linux's proc file system",
    "epoll_": "Linux's event polling; Darwin has kqueue",
    "inotify_": "Linux's file watching; Darwin has FSEvents and kqueue",
    "eventfd": "Linux's event descriptor",
    "timerfd_": "Linux's timer descriptor",
    "signalfd": "Linux's signal descriptor",
    "memfd_create": "Linux's anonymous file",
    "prctl(": "Linux's process control",
    "gettid": "Linux's thread id",
    "pipe2(": "Linux's pipe with flags; Darwin sets them with fcntl",
    "accept4(": "Linux's accept with flags",
    "dup3(": "Linux's dup with flags",
    "sched_getaffinity": "Linux's CPU affinity",
    "sched_setaffinity": "Linux's CPU affinity",
    "malloc_usable_size": "glibc's allocator",
    "malloc_trim": "glibc's allocator",
    "mallinfo": "glibc's allocator",
    "MSG_NOSIGNAL": "Darwin has SO_NOSIGPIPE instead",
    "F_SETPIPE_SZ": "Linux's pipe size",
    "CLOCK_BOOTTIME": "Linux's clock; Darwin's is CLOCK_MONOTONIC",
    "RUSAGE_THREAD": "Linux's per-thread usage",
    "_GNU_SOURCE": "glibc's GNU extensions",
    "Glibc.": "a name qualified by Linux's C module",
}

# The seams: each file, and the names it may use behind the build's choice of paths.
SEAMS = {
    "Sources/CPlatform/Wakeup.c": {"sem_init", "sem_destroy", "sem_clockwait", "_GNU_SOURCE"},
    "Sources/CLuaShim/Sandbox/ConfinedFile.c": {"_GNU_SOURCE", "O_PATH", "<linux/", "openat2", "<sys/syscall.h>", "syscall(", "SYS_"},
    "Sources/CLuaShim/CLuaShim.c": {"<sys/syscall.h>", "syscall(", "SYS_", "gettid"},
    "Sources/Portolan/Concurrency/SerialThread.swift": {"/proc/"},
    "Sources/portolan/InspectorProcess.swift": {"/proc/"},
}

# The condition a seam's Linux branch must sit under, by language.
GUARDS = {".c": "PORTOLAN_LINUX_PATHS", ".h": "PORTOLAN_LINUX_PATHS", ".swift": ("!PORTOLAN_PORTABLE", "canImport(Glibc)")}

EXTENSIONS = (".swift", ".c", ".h")


def code_lines(text):
    """Each line with its comments blanked: `//` to the end of the line, `/* ... */` across lines."""
    in_block = False
    for line in text.splitlines():
        code, position = [], 0
        while position < len(line):
            if in_block:
                end = line.find("*/", position)
                if end < 0:
                    position = len(line)
                else:
                    in_block, position = False, end + 2
                continue
            start_line, start_block = line.find("//", position), line.find("/*", position)
            starts = [s for s in (start_line, start_block) if s >= 0]
            if not starts:
                code.append(line[position:])
                break
            first = min(starts)
            code.append(line[position:first])
            if first == start_line:
                break
            in_block, position = True, first + 2
        yield "".join(code)


def uses_in(path):
    """(line number, name) for each Linux-only name in the file's code, and each bare `import Glibc`."""
    with open(path, encoding="utf-8", errors="replace") as file:
        lines = list(code_lines(file.read()))
    found = []
    for number, line in enumerate(lines, start=1):
        for name in LINUX_ONLY:
            if name in line:
                found.append((number, name))
        if re.match(r"\s*import\s+Glibc\b", line):
            previous = next((l.strip() for l in reversed(lines[: number - 1]) if l.strip()), "")
            if previous != "#if canImport(Glibc)":
                found.append((number, "import Glibc"))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."),
                        help="the repository to check (default: this one)")
    root = os.path.abspath(parser.parse_args().root)

    seam_uses, problems = [], []
    for directory, folders, files in os.walk(os.path.join(root, "Sources")):
        folders.sort()
        for name in sorted(files):
            if not name.endswith(EXTENSIONS):
                continue
            path = os.path.join(directory, name)
            relative = os.path.relpath(path, root)
            allowed = SEAMS.get(relative, set())
            for number, used in uses_in(path):
                where = f"{relative}:{number}: {used}"
                if used in allowed:
                    seam_uses.append(where)
                elif used == "import Glibc":
                    problems.append(f"{where} outside `#if canImport(Glibc)`: Darwin has no Glibc module")
                else:
                    problems.append(f"{where}: Linux only ({LINUX_ONLY[used]})")
    for relative in sorted(SEAMS):
        path = os.path.join(root, relative)
        if not os.path.exists(path):
            problems.append(f"{relative}: listed as a seam in scripts/linux-only.py, but there is no such file")
            continue
        with open(path, encoding="utf-8") as file:
            text = file.read()
        guards = GUARDS[os.path.splitext(relative)[1]]
        if not any(guard in text for guard in (guards if isinstance(guards, tuple) else (guards,))):
            problems.append(f"{relative}: a seam with no portable path (it never tests {guards})")

    print(f"Linux-only uses in the seams ({len(seam_uses)}), each behind the build's choice of paths:")
    for where in seam_uses:
        print(f"  {where}")
    if problems:
        print(f"\n{len(problems)} Linux-only use(s) outside the seams (docs/embedding.md, \"Platforms\"):")
        for problem in problems:
            print(f"  {problem}")
        print("Give each a portable path behind the build's choice of paths, and list its file in SEAMS"
              " in scripts/linux-only.py.")
        return 1
    print("No Linux-only use outside them.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
