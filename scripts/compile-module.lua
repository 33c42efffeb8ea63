-- Compiles the `portolan` module's Lua parts to bytecode for the host to load at start-up instead
-- of parsing them (issue 24; Sources/PortolanLua/Module/PrecompiledModule.swift). Run it after any
-- change to a part, with the lua5.4 of the same release as the liblua5.4 the host links:
--
--     lua5.4 scripts/compile-module.lua
--
-- It writes Sources/PortolanLua/Module/Bytecode/NAME.luac for each part and manifest.txt: the Lua
-- release, then per part its chunk name and the FNV-1a hash of its source. The host uses a part's
-- bytecode only when both match what it runs (otherwise it parses the source, as before), and
-- ModuleBytecodeTests fails until this has been run again.
local dir = "Sources/PortolanLua/Module/"
-- The parts, as PortolanModule names them: file, chunk name.
local parts = {
  { "ValuePrinter", "=portolan.printer" }, { "NodeDescription", "=portolan.nodes" },
  { "portolan", "=portolan" }, { "URLRules", "=portolan.urls" }, { "Flows", "=portolan.flows" },
  { "AppState", "=portolan.state" }, { "Decisions", "=portolan.decisions" },
  { "Snapshots", "=portolan.snapshots" },
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
local manifest = { release }
for _, part in ipairs(parts) do
  local file, chunkName = part[1], part[2]
  local source = read(dir .. file .. ".lua")
  local chunk = assert(load(source, chunkName, "t"))
  write(dir .. "Bytecode/" .. file .. ".luac", string.dump(chunk, false))
  manifest[#manifest + 1] = chunkName .. " " .. fnv1a(source)
end
write(dir .. "Bytecode/manifest.txt", table.concat(manifest, "\n") .. "\n")
