-- Compiles the host's own Lua to bytecode for it to load at start-up instead of parsing it (issue
-- 24; Sources/PortolanLua/Module/PrecompiledModule.swift): the `portolan` module's parts, and the
-- chunks the bundle gate, `portolan test` and `portolan check` run (Sources/PortolanShipping/
-- ShippingBytecode.swift), and the REPL's (Sources/PortolanTools/ToolBytecode.swift). Run it
-- after any change to one of them, with the lua5.4 of the same release as the liblua5.4 the host
-- links:
--
--     lua5.4 scripts/compile-module.lua
--
-- For each target it writes DIR/Bytecode/NAME.luac for each chunk and DIR/Bytecode/manifest.txt:
-- the Lua release, then per chunk its name and the FNV-1a hash of its source. The host uses a
-- chunk's bytecode only when both match what it runs (otherwise it parses the source, as before),
-- and ModuleBytecodeTests and BuiltInChunkTests fail until this has been run again.
-- Per target: its directory, and its chunks as the Swift names them (path under it, chunk name).
local targets = {
  {
    dir = "Sources/PortolanLua/Module/",
    parts = {
      { "ValuePrinter", "=portolan.printer" }, { "NodeDescription", "=portolan.nodes" },
      { "portolan", "=portolan" }, { "URLRules", "=portolan.urls" }, { "Flows", "=portolan.flows" },
      { "AppState", "=portolan.state" }, { "Decisions", "=portolan.decisions" },
      { "Snapshots", "=portolan.snapshots" }, { "Stack", "=portolan.stack" },
    },
  },
  {
    dir = "Sources/PortolanShipping/",
    parts = { { "Scenarios/ExpectLibrary", "=expect" }, { "Check/CheckPrelude", "=portolan check" } },
  },
  {
    dir = "Sources/PortolanTools/",
    parts = { { "REPL/DemoApp", "Examples/movies/app.lua" }, { "REPL/ReplKeys", "=complete" } },
  },
}

local function fnv1a(text)
  local hash = -3750763034362895579 -- 0xcbf29ce484222325
  for index = 1, #text do
    hash = (hash ~ text:byte(index)) * 1099511628211
  end
  return string.format("%016x", hash)
end

local function read(path)
  local file = assert(io.open(path, "rb"))
  local text = file:read("a")
  file:close()
  return text
end

local function write(path, text)
  local file = assert(io.open(path, "wb"))
  file:write(text)
  file:close()
end

-- `lua5.4 -v` names the release ("Lua 5.4.4"); _VERSION only "Lua 5.4".
local release = assert(io.popen("lua5.4 -v")):read("l"):match("^(Lua %d+%.%d+%.%d+)")
assert(release, "cannot read the release of lua5.4")
for _, target in ipairs(targets) do
  local manifest = { release }
  for _, part in ipairs(target.parts) do
    local file, chunkName = part[1], part[2]
    local source = read(target.dir .. file .. ".lua")
    -- As the host names a chunk (LuaState.luaChunkName): "=" before a name without "=" or "@".
    local luaName = chunkName:match("^[=@]") and chunkName or "=" .. chunkName
    local chunk = assert(load(source, luaName, "t"))
    write(target.dir .. "Bytecode/" .. file:match("[^/]+$") .. ".luac", string.dump(chunk, false))
    manifest[#manifest + 1] = chunkName .. " " .. fnv1a(source)
  end
  write(target.dir .. "Bytecode/manifest.txt", table.concat(manifest, "\n") .. "\n")
end
