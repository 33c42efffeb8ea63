-- Values made by Lua code, for the conversion fuzzer (ConversionFuzzer.swift): what a script can hand
-- Swift, which Swift must copy or refuse with a clean error. The fuzzer runs this chunk once per
-- state and gets three functions:
--
--   build(seed, max_depth, memory_room)  makes a value from the seed and keeps it (it may fail
--                                        with a memory error when it asks for more than the room)
--   describe()                           what Swift must find in it, counted the way Swift counts
--   take()                               the value, for Swift to convert
local made

-- Strings and keys ---------------------------------------------------------------------------------

-- Keys are drawn from an alphabet in which no two distinct strings are the same text to Swift
-- (no combining marks), so that distinct Lua keys stay distinct Swift keys.
local KEY_PIECES = { "a", "b", "id", "\0", "\1", "\n", "\127", "\255", "\192\128", "\237\160\128", "é", "x y" }

local function random_key_string()
  local parts = {}
  for i = 1, math.random(0, 4) do parts[i] = KEY_PIECES[math.random(#KEY_PIECES)] end
  return table.concat(parts)
end

local function random_bytes(count)
  local bytes = {}
  for i = 1, count do bytes[i] = string.char(math.random(0, 255)) end
  return table.concat(bytes)
end

-- Code points past U+10FFFF and surrogates encode as bytes Swift must take as invalid UTF-8.
local CODE_POINTS = { 0, 1, 0x7F, 0x80, 0xE9, 0x301, 0x7FF, 0x800, 0xD800, 0xDFFF, 0xFFFD, 0xFFFF, 0x10000,
                      0x1D11E, 0x10FFFF, 0x110000, 0x7FFFFFFF }

local function random_text()
  local parts = {}
  for i = 1, math.random(0, 6) do
    if math.random(3) == 1 then
      parts[i] = utf8.char(CODE_POINTS[math.random(#CODE_POINTS)])
    else
      parts[i] = utf8.char(math.random(0, 0x10FFFF))
    end
  end
  return table.concat(parts)
end

-- Numbers ------------------------------------------------------------------------------------------

local FLOATS = { 0.0, -0.0, 0 / 0, -(0 / 0), math.huge, -math.huge, 2.0 ^ 53, 2.0 ^ 53 + 1, 2.0 ^ 63, -(2.0 ^ 63),
                 1.5, -2.5, 1e308, 5e-324, 0.1 }
local INTEGERS = { 0, 1, -1, math.mininteger, math.maxinteger, 1 << 53, (1 << 53) + 1 }

local function random_number()
  local pick = math.random(4)
  if pick == 1 then return FLOATS[math.random(#FLOATS)] end
  if pick == 2 then return INTEGERS[math.random(#INTEGERS)] end
  if pick == 3 then return math.random(math.mininteger, math.maxinteger) end
  return (math.random() - 0.5) * 10.0 ^ math.random(-20, 20)
end

-- Values -------------------------------------------------------------------------------------------

local next_uid = 0
local function uid()
  next_uid = next_uid + 1
  return next_uid
end

local function scalar()
  local pick = math.random(9)
  if pick == 1 then return math.random(2) == 1 end
  if pick <= 3 then return random_number() end
  if pick == 4 then return random_bytes(math.random(0, 12)) end
  if pick <= 6 then return random_text() end
  if pick == 7 then return random_key_string() end
  if pick == 8 then return function() return uid() end end
  return coroutine.create(function() end)
end

-- A key no other key of the same table equals once Lua has normalised it (the table keeps one).
local function random_key(index)
  local pick = math.random(12)
  if pick <= 4 then return index end                              -- a sequence, holes where skipped
  if pick <= 6 then return random_key_string() end
  if pick == 7 then return FLOATS[math.random(5, #FLOATS)] end   -- inf, 2^53, 2^63 …: never NaN
  if pick == 8 then return index + 0.5 end                        -- a float that is no integer
  if pick == 9 then return index + 0.0 end                        -- Lua makes this the integer index
  if pick == 10 then return math.random(2) == 1 end
  if pick == 11 then return { uid = uid() } end                   -- a table key, unique by content
  return function() end
end

-- Metatables whose every metamethod fails: converting must not run any of them.
local HOSTILE = {
  __index = function() error("__index ran") end,
  __newindex = function() error("__newindex ran") end,
  __pairs = function() error("__pairs ran") end,
  __len = function() error("__len ran") end,
  __eq = function() error("__eq ran") end,
  __tostring = function() error("__tostring ran") end,
  __name = "hostile",
}

local function random_table(depth, budget)
  local t = {}
  if depth <= 0 or budget.left <= 0 then return t end
  for index = 1, math.random(0, 7) do
    budget.left = budget.left - 1
    local key = random_key(index)
    if math.random(5) == 1 and depth > 1 then
      t[key] = random_table(depth - 1, budget)
    elseif math.random(12) == 1 then
      local key_table = random_table(1, budget)                  -- a table key with contents,
      rawset(key_table, "uid", uid())                            -- unique, as Swift compares them
      t[key_table] = scalar()
    elseif math.random(4) ~= 1 then                              -- else a hole
      t[key] = scalar()
    end
  end
  if math.random(10) == 1 then setmetatable(t, HOSTILE) end
  return t
end

-- `levels` tables, each inside the next, as a value or (about eight times) as a key. Not more
-- often: Swift hashes a table key whole, so a chain of keys costs the square of its length.
local function chain(levels)
  local inner = { "bottom" }
  for _ = 2, levels do
    if math.random(math.max(4, levels // 8)) == 1 then inner = { [inner] = true } else inner = { inner } end
  end
  return inner
end

local function build(seed, max_depth, memory_room)
  math.randomseed(seed)
  made = nil
  local pick = math.random(100)
  if pick <= 3 then
    made = chain(max_depth + math.random(-2, 2))
  elseif pick == 4 then
    made = { big = string.rep("\0x\255", math.random(1, 2 << 20)) }       -- several MiB
  elseif pick == 5 and math.random(4) == 1 then
    made = string.rep("m", memory_room + math.random(1, 1 << 20))          -- past the limit
  elseif pick <= 8 then
    local t = random_table(3, { left = 20 })
    rawset(t, "child", { back = t })                                      -- rawset: t may be hostile
    if math.random(2) == 1 then rawset(t, "self", t) end                   -- a cycle, one or two long
    made = t
  elseif pick <= 10 then
    local shared = random_table(2, { left = 8 })
    made = { shared, shared, { shared } }                                  -- shared, not cyclic
  elseif pick <= 20 then
    made = scalar()
  else
    made = random_table(math.random(1, 6), { left = 60 })
  end
end

-- Counting -----------------------------------------------------------------------------------------

local function is_negative_zero(x)
  return x == 0 and math.type(x) == "float" and 1 / x < 0
end

local function count(value, depth, path, totals)
  local kind = type(value)
  if kind == "table" then
    if path[value] then
      totals.cyclic = true
      return
    end
    totals.tables = totals.tables + 1
    if depth > totals.depth then totals.depth = depth end
    path[value] = true
    for key, item in next, value do
      totals.entries = totals.entries + 1
      count(key, depth + 1, path, totals)
      count(item, depth + 1, path, totals)
    end
    path[value] = nil
  elseif kind == "number" then
    if math.type(value) == "integer" then
      totals.integers = totals.integers + 1
    else
      totals.floats = totals.floats + 1
      if value ~= value then totals.nans = totals.nans + 1 end
      if is_negative_zero(value) then totals.negative_zeros = totals.negative_zeros + 1 end
    end
  elseif kind == "string" then
    totals.strings = totals.strings + 1
    totals.bytes = totals.bytes + #value
    if utf8.len(value) == nil then totals.invalid = totals.invalid + 1 end
  elseif kind == "boolean" then
    totals.booleans = totals.booleans + 1
  elseif kind == "function" then
    totals.functions = totals.functions + 1
  elseif kind == "thread" then
    totals.threads = totals.threads + 1
  end
end

local function describe()
  local totals = { tables = 0, entries = 0, integers = 0, floats = 0, nans = 0, negative_zeros = 0,
                   strings = 0, bytes = 0, invalid = 0, booleans = 0, functions = 0, threads = 0,
                   depth = -1, cyclic = false }
  count(made, 0, {}, totals)
  return totals
end

local function take()
  return made
end

return build, describe, take
