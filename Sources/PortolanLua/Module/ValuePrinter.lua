-- The one printer of Lua values, for the REPL's results and the expect library's messages. The
-- host runs this chunk once per state; it returns the printer and the key order it uses (which the
-- expect library's comparison shares).
-- The builtins the printer calls, captured before any app runs: the expect library's messages use
-- this printer, and an app that redefines `type` must not garble them.
-- `metatable_of` sees through a locked metatable (`__metatable`), as `getmetatable` does not.
local metatable_of = ...
local type, tostring, pairs, ipairs, rawget = type, tostring, pairs, ipairs, rawget
local format, concat, sort = string.format, table.concat, table.sort

local function sorted_keys(t)
  local keys = {}
  for key in pairs(t) do keys[#keys + 1] = key end
  sort(keys, function(a, b)
    local ta, tb = type(a), type(b)
    if ta ~= tb then return ta < tb end
    if ta == "number" or ta == "string" then return a < b end
    return tostring(a) < tostring(b)
  end)
  return keys
end

-- Tables with sorted keys and cycles marked; `indent` nil is the compact form.
local function show(value, indent, seen)
  if type(value) == "string" then return format("%q", value) end
  if type(value) ~= "table" then return tostring(value) end
  local mt = metatable_of(value)
  if mt and rawget(mt, "__tostring") then return tostring(value) end
  if seen[value] then return "<cycle>" end
  seen[value] = true
  local keys = sorted_keys(value)
  local inner = indent and indent .. "  "
  local parts, is_list = {}, #value == #keys
  for _, key in ipairs(keys) do
    local shown = show(value[key], inner, seen)
    if is_list then
      parts[#parts + 1] = shown
    elseif type(key) == "string" and key:match("^[%a_][%w_]*$") then
      parts[#parts + 1] = key .. " = " .. shown
    else
      parts[#parts + 1] = "[" .. show(key, inner, seen) .. "] = " .. shown
    end
  end
  seen[value] = nil
  if #parts == 0 then return "{}" end
  if not indent then return "{" .. concat(parts, ", ") .. "}" end
  local flat = "{ " .. concat(parts, ", ") .. " }"
  if #flat <= 72 and not flat:find("\n") then return flat end
  return "{\n" .. inner .. concat(parts, ",\n" .. inner) .. "\n" .. indent .. "}"
end

-- show(value, compact): the compact form is one line, {"a", b = 1}; otherwise { "a", b = 1 },
-- split over indented lines past 72 characters.
return function(value, compact) return show(value, not compact and "" or nil, {}) end, sorted_keys
