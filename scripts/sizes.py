#!/usr/bin/env python3
"""Reports files and functions that grew past the size the style allows.

    scripts/sizes.py [PATH ...]        (default: Sources and Tests)

Prints `path:line: name is N lines` for every file over 400 lines and every function over 60
lines, and exits 1 when there is any. A function counts from the line of its declaration to the
line that closes its body. Functions are:

- Swift: `func`, `init`, `deinit`, and closures assigned with `let`/`var` (`let f = { … }`);
- C (.c, .h): every function definition;
- Lua: every `function … end`, named or not.

Bodies are found by matching braces (Swift, C) or block keywords (Lua) in the text left once
comments and string literals are blanked out, so a brace or an `end` in a string or a comment
does not count. Symbolic links are skipped: what they point at is checked where it lives.
"""

import argparse
import os
import re
import sys

FILE_LIMIT = 400
FUNCTION_LIMIT = 60
# The tests are code read and changed like any other, so they keep the same sizes.
DEFAULT_ROOTS = ["Sources", "Tests"]
# Files the file limit does not hold, each with why. Functions in them are still held.
FILE_LIMIT_EXEMPTIONS = {
    # The LuaLS definitions: declarations only, no logic, and one file on purpose: `portolan types`
    # prints it, Examples/types/portolan.lua links to it, and an editor's library reads one
    # `---@meta portolan` file that ends in `return portolan` after the scenario globals.
    "Sources/PortolanTools/Editor/EditorDefinitions.lua",
    # The peers' semantics and test cases, one reference page per concept (a strategy or a
    # pattern form a section), read as a table of cases, not as code.
    "Tests/PeerCases/StackStrategies.md",
    "Tests/PeerCases/URLPatterns.md",
}
# Folders not checked at all: files that are not ours and are kept byte for byte as they came.
UNCHECKED_FOLDERS = {
    # Lua.org's own test files of Lua 5.4.4, unmodified (Tests/LuaTestSuite/cuts.json runs them).
    "Tests/LuaTestSuite/lua-5.4.4",
}


def quoted_end(text, start):
    """Where the one-line string literal opened at `start` ends (after its closing quote)."""
    quote, end, n = text[start], start + 1, len(text)
    while end < n and text[end] != quote and text[end] != "\n":
        end += 2 if text[end] == "\\" else 1
    return min(end + 1, n)


def blank(chars, start, end):
    """Replaces chars[start:end] with spaces, keeping newlines so that line numbers stay."""
    for k in range(start, end):
        if chars[k] != "\n":
            chars[k] = " "


def line_of(text, index):
    return text.count("\n", 0, index) + 1


def matching_brace(code, open_index):
    """The index of the `}` closing the `{` at open_index, or None."""
    depth = 0
    for k in range(open_index, len(code)):
        if code[k] == "{":
            depth += 1
        elif code[k] == "}":
            depth -= 1
            if depth == 0:
                return k
    return None


# MARK: - Swift


class SwiftBlanker:
    """Blanks Swift comments (nested /* */ too), string literals of every kind (raw, multi-line,
    with interpolations that hold strings of their own) and regex literals."""

    def __init__(self, text):
        self.src = text
        self.out = list(text)

    def run(self):
        self.code(0, in_interpolation=False)
        return "".join(self.out)

    def code(self, i, in_interpolation):
        """Scans code from i; inside an interpolation, returns the index after its closing `)`."""
        src, n, depth = self.src, len(self.src), 0
        while i < n:
            c = src[i]
            if src.startswith("//", i):
                end = src.find("\n", i)
                end = n if end < 0 else end
                blank(self.out, i, end)
                i = end
            elif src.startswith("/*", i):
                end = self.block_comment(i)
                blank(self.out, i, end)
                i = end
            elif c in '#"' and re.match(r'#*"', src[i:i + 64]):
                end = self.string(i)
                blank(self.out, i, end)
                i = end
            elif c == "#" and re.match(r"#+/", src[i:i + 64]):
                end = self.extended_regex(i)
                blank(self.out, i, end)
                i = end
            elif c == "/" and self.starts_bare_regex(i):
                end = src.index("/", i + 1) + 1
                blank(self.out, i, end)
                i = end
            else:
                if in_interpolation and c == "(":
                    depth += 1
                elif in_interpolation and c == ")":
                    if depth == 0:
                        return i + 1
                    depth -= 1
                i += 1
        return n

    def block_comment(self, i):
        depth, k, n = 0, i, len(self.src)
        while k < n:
            if self.src.startswith("/*", k):
                depth += 1
                k += 2
            elif self.src.startswith("*/", k):
                depth -= 1
                k += 2
                if depth == 0:
                    return k
            else:
                k += 1
        return n

    def string(self, i):
        """The index after the string literal starting at i (`"`, `#"`, `\"\"\"`, `#\"\"\"`…)."""
        src, n = self.src, len(self.src)
        hashes = len(src[i:]) - len(src[i:].lstrip("#"))
        k = i + hashes
        delimiter = '"""' if src.startswith('"""', k) else '"'
        k += len(delimiter)
        closing = delimiter + "#" * hashes
        escape = "\\" + "#" * hashes
        while k < n:
            if src.startswith(escape, k):
                k += len(escape)
                if k < n and src[k] == "(":
                    k = self.code(k + 1, in_interpolation=True)
                else:
                    k += 1
            elif src.startswith(closing, k):
                return k + len(closing)
            elif delimiter == '"' and src[k] == "\n":
                return k   # unterminated: never swallow the rest of the file
            else:
                k += 1
        return n

    def extended_regex(self, i):
        hashes = len(self.src[i:]) - len(self.src[i:].lstrip("#"))
        end = self.src.find("/" + "#" * hashes, i + hashes + 1)
        return len(self.src) if end < 0 else end + 1 + hashes

    def starts_bare_regex(self, i):
        """A `/…/` literal: after an opening bracket, a comma, `=`, `:` or `return`, not followed by
        a space, and closed on the same line. Division never follows those."""
        src = self.src
        if i + 1 >= len(src) or src[i + 1] in " \t\n/*=":
            return False
        before = src[:i].rstrip(" \t")
        if not (before.endswith(("(", "[", ",", "=", ":", "{", ";", "!", "&", "|", "?")) or re.search(r"\breturn$", before)):
            return False
        end = src.find("/", i + 1)
        newline = src.find("\n", i + 1)
        return end >= 0 and (newline < 0 or end < newline)


SWIFT_DECLARATION = re.compile(
    r"(?<![\w.])(?:func\s+(?P<func>[^\s(<]+)"
    r"|(?P<init>init)\s*[?!]?\s*[<(]"
    r"|(?P<deinit>deinit)\s*\{"
    r"|(?:let|var)\s+(?P<closure>\w+)\s*(?::[^=\n{]+)?=\s*\{)"
)
# A declaration without a body (a protocol requirement) ends where another declaration starts.
SWIFT_STOP_WORDS = {"func", "init", "deinit", "var", "let", "case", "subscript", "typealias", "associatedtype"}


def swift_body_start(code, index):
    """The index of the `{` opening the body of the declaration whose signature starts at index."""
    depth, k, n = 0, index, len(code)
    while k < n:
        c = code[k]
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif depth == 0 and c == "{":
            return k
        elif depth == 0 and c in "};":
            return None
        elif depth == 0 and (c.isalpha() or c == "_") and (k == 0 or not (code[k - 1].isalnum() or code[k - 1] in "_.")):
            word = re.match(r"\w+", code[k:]).group(0)
            if word in SWIFT_STOP_WORDS:
                return None
            k += len(word)
            continue
        k += 1
    return None


def swift_functions(text):
    code = SwiftBlanker(text).run()
    for match in SWIFT_DECLARATION.finditer(code):
        name = match.group("func") or match.group("init") or match.group("deinit") or match.group("closure")
        if match.group("closure") or match.group("deinit"):
            start = match.end() - 1   # the `{` the pattern ends with
        elif match.group("init"):
            start = swift_body_start(code, match.end() - 1)   # from its `(` or `<`
        else:
            start = swift_body_start(code, match.end())
        if start is None:
            continue
        end = matching_brace(code, start)
        if end is not None:
            yield name, line_of(code, match.start()), line_of(code, end)


# MARK: - C


def c_blanked(text):
    """Blanks C comments, string and character literals, and preprocessor lines."""
    out, n, i = list(text), len(text), 0
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c == "#":
            end = i
            while True:   # a directive continues over lines ending in a backslash
                end = text.find("\n", end)
                if end < 0:
                    end = n
                    break
                if text[end - 1] != "\\":
                    break
                end += 1
            blank(out, i, end)
            i = end
            continue
        if c == "\n":
            at_line_start = True
            i += 1
            continue
        if not c.isspace():
            at_line_start = False
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
        elif c in "\"'":
            end = quoted_end(text, i)
        else:
            i += 1
            continue
        blank(out, i, end)
        i = end
    return "".join(out)


def c_functions(text):
    code = c_blanked(text)
    depth, k = 0, 0
    while k < len(code):
        c = code[k]
        if c == "}":
            depth -= 1
        elif c == "{":
            if depth == 0:
                found = c_function_name(code, k)
                end = matching_brace(code, k)
                if found and end is not None:
                    name, name_index = found
                    yield name, line_of(code, name_index), line_of(code, end)
                    k = end + 1
                    continue
            depth += 1
        k += 1


def c_function_name(code, brace):
    """For a top-level `{` that follows `name(…)`, the name and where it stands; else None."""
    k = brace - 1
    while k >= 0 and code[k].isspace():
        k -= 1
    if k < 0 or code[k] != ")":
        return None
    depth = 0
    while k >= 0:
        if code[k] == ")":
            depth += 1
        elif code[k] == "(":
            depth -= 1
            if depth == 0:
                break
        k -= 1
    match = re.search(r"(\w+)\s*$", code[:k])
    return (match.group(1), match.start(1)) if match else None


# MARK: - Lua


def lua_long_bracket(text, i):
    """The level of a long bracket `[==[` opening at i, or None."""
    match = re.match(r"\[(=*)\[", text[i:i + 64])
    return len(match.group(1)) if match else None


def lua_blanked(text):
    """Blanks Lua comments (`--`, `--[[ ]]`) and strings ('…', "…", `[[…]]`, `[==[…]==]`)."""
    out, n, i = list(text), len(text), 0
    while i < n:
        c = text[i]
        if text.startswith("--", i):
            level = lua_long_bracket(text, i + 2)
            if level is not None:
                end = text.find("]" + "=" * level + "]", i)
                end = n if end < 0 else end + level + 2
            else:
                end = text.find("\n", i)
                end = n if end < 0 else end
        elif c == "[" and lua_long_bracket(text, i) is not None:
            level = lua_long_bracket(text, i)
            end = text.find("]" + "=" * level + "]", i)
            end = n if end < 0 else end + level + 2
        elif c in "\"'":
            end = quoted_end(text, i)
        else:
            i += 1
            continue
        blank(out, i, end)
        i = end
    return "".join(out)


def lua_function_name(code, index, end_of_keyword):
    """`M.f`, `obj:method`, `f` for `local function f`, or the field or variable an anonymous
    function is assigned to; `anonymous function` otherwise."""
    named = re.match(r"\s*([A-Za-z_][\w.:]*)\s*\(", code[end_of_keyword:])
    if named:
        return named.group(1)
    assigned = re.search(r"([A-Za-z_][\w.]*)\s*=\s*$", code[:index])
    return assigned.group(1) if assigned else "anonymous function"


def lua_functions(text):
    code = lua_blanked(text)
    stack = []   # (keyword, index) of each open block
    for match in re.finditer(r"(?<![\w.:])(function|if|do|end)(?!\w)", code):
        word = match.group(1)
        if word != "end":
            stack.append((word, match.start(), match.end()))
            continue
        if not stack:
            continue   # unbalanced: the file does not parse; luacheck says so
        keyword, start, end_of_keyword = stack.pop()
        if keyword == "function":
            name = lua_function_name(code, start, end_of_keyword)
            yield name, line_of(code, start), line_of(code, match.start())


# MARK: - Reporting

FUNCTION_FINDERS = {".swift": swift_functions, ".c": c_functions, ".h": c_functions, ".lua": lua_functions}


def violations(path):
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read()
    except (UnicodeDecodeError, OSError):
        return
    lines = len(text.splitlines())
    if lines > FILE_LIMIT and os.path.normpath(path) not in FILE_LIMIT_EXEMPTIONS:
        yield 1, f"file is {lines} lines"
    finder = FUNCTION_FINDERS.get(os.path.splitext(path)[1])
    if finder is None:
        return
    for name, first, last in finder(text):
        length = last - first + 1
        if length > FUNCTION_LIMIT:
            yield first, f"{name} is {length} lines"


def files_under(roots):
    for root in roots:
        if os.path.isfile(root):
            yield root
            continue
        for directory, subdirectories, names in os.walk(root):
            if os.path.normpath(directory) in UNCHECKED_FOLDERS:
                subdirectories.clear()
                continue
            subdirectories.sort()
            for name in sorted(names):
                path = os.path.join(directory, name)
                if not os.path.islink(path):
                    yield path


def main():
    parser = argparse.ArgumentParser(description=f"Files over {FILE_LIMIT} lines, functions over {FUNCTION_LIMIT}.")
    parser.add_argument("paths", nargs="*", help="files or directories (default: Sources and Tests, from the repository root)")
    arguments = parser.parse_args()
    if not arguments.paths:
        os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    found = 0
    for path in files_under(arguments.paths or DEFAULT_ROOTS):
        for line, message in violations(path):
            print(f"{path}:{line}: {message}")
            found += 1
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
