-- luacheck's settings for the Lua compiled into the host and the tools; scripts/test.sh runs it.
std = "lua54"
max_line_length = 120

-- The module replaces the global `print` on purpose: a script's output goes through the host,
-- which may capture it (the scenario runner does).
files["Sources/PortolanLua/Module/portolan.lua"] = { globals = { "print" } }

-- The linter's prelude wraps the `portolan` module's functions, and defines the function that
-- the rewritten app calls to say on which line each node table stands, and the one the checker
-- calls at the end.
files["Sources/PortolanShipping/Check/CheckPrelude.lua"] = {
  globals = { "__portolan_at", "__portolan_check_collect" },
}

-- The editor definitions (`portolan types`) only describe: their functions have empty bodies, and
-- a field's description may run past the line length; the request's methods are declared on a
-- table nothing reads.
files["Sources/PortolanTools/Editor/EditorDefinitions.lua"] = {
  globals = { "portolan", "expect", "expect_match", "expect_events", "expect_restore", "exhaustive", "scenario", "skip",
    "before_each", "after_each" },
  unused_args = false,
  ignore = { "241" },
  max_comment_line_length = false,
}
