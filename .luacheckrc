-- luacheck's settings for the Lua compiled into the host; scripts/test.sh runs it.
std = "lua54"
max_line_length = 120

-- The module replaces the global `print` on purpose: a script's output goes through the host,
-- which may capture it (the scenario runner does).
files["Sources/PortolanLua/Module/portolan.lua"] = { globals = { "print" } }
