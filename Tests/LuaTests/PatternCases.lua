-- Random cases for the differential test of the bounded pattern functions (BoundedPatternTests.swift):
-- each case calls one of find, match, gmatch and gsub of liblua5.4 (`stock`) and of the bounded set
-- (`bounded`) with the same subject, pattern and arguments, and compares what they return or raise.
--
-- Patterns come from a grammar covering the whole pattern language, with malformed pieces mixed in, and
-- from families that reach the limits (32 captures, 200 nested continuations). Subjects are short, over
-- an alphabet that hits the pattern's own special characters, '\0' and a byte above 127.
--
-- Arguments: seed, case count, stock, bounded. Returns the case count, the mismatches (a string, one a
-- line, at most 10) and the outcomes seen (a string, one "outcome<TAB>times" a line).
local seed, caseCount, stock, bounded = ...
math.randomseed(seed)
local random = math.random

local function pick(list) return list[random(#list)] end

local subjectBytes = { "a", "a", "b", "b", "c", "(", ")", "[", "]", "%", "-", ".", "^", "$", " ", "\0", "1", "9",
  "Z", "\n", "x", "\255", "_", "," }
local classLetters = { "a", "c", "d", "g", "l", "p", "s", "u", "w", "x", "z", "A", "C", "D", "G", "L", "P", "S",
  "U", "W", "X", "Z" }
local literals = { "a", "b", "c", "1", "Z", " ", "x", "\0", "\255", "_", ",", "]" }
local punctuation = { "(", ")", "[", "]", "%", "-", ".", "^", "$", "*", "+", "?" }
local malformedPieces = { "%", "[", "[^", "[a", "[%", "[]", "%f", "%fa", "%b", "%ba", "(", ")", "((", "%1", "%0",
  "%9", "[a-", "[%a", "a%" }

local function randomSubject()
  local bytes = {}
  for i = 1, random(0, 14) do bytes[i] = pick(subjectBytes) end
  return table.concat(bytes)
end

local function setMember()
  local kind = random(6)
  if kind == 1 then return "%" .. pick(classLetters) end
  if kind == 2 then return "%" .. pick(punctuation) end
  if kind == 3 then return pick(literals) .. "-" .. pick(literals) end
  if kind == 4 then return pick({ "-", "^", "]", "[" }) end
  return pick(literals)
end

local function randomSet()
  local parts = { "[" }
  if random(3) == 1 then parts[#parts + 1] = "^" end
  for _ = 1, random(1, 4) do parts[#parts + 1] = setMember() end
  parts[#parts + 1] = "]"
  return table.concat(parts)
end

local function singleClass()
  local kind = random(10)
  if kind <= 3 then return pick(literals) end
  if kind == 4 then return "." end
  if kind == 5 then return "%" .. pick(classLetters) end
  if kind == 6 then return "%" .. pick(punctuation) end
  return randomSet()
end

local function piece(depth)
  local kind = random(20)
  if kind <= 10 then return singleClass() .. (random(2) == 1 and "" or pick({ "*", "+", "-", "?" })) end
  if kind <= 12 and depth < 3 then
    local inner = {}
    for i = 1, random(0, 3) do inner[i] = piece(depth + 1) end
    return "(" .. table.concat(inner) .. ")"
  end
  if kind == 13 then return "()" end
  if kind == 14 then return "%b" .. pick(literals) .. pick({ ")", "]", "a", "b" }) end
  if kind == 15 then return "%b()" end
  if kind == 16 then return "%f" .. randomSet() end
  if kind == 17 then return "%" .. random(0, 9) end
  if kind == 18 then return pick({ "$", "^", "%%" }) end
  return singleClass()
end

--- A subject and a pattern; some reach the nesting or capture limits, some are malformed.
local function randomCase()
  local family = random(30)
  if family == 1 then
    -- Each of these nests one continuation per repetition while it matches: 199 fit, 200 are too complex.
    local unit = pick({ "a?", "a-", ".-", "a*", "(a)", "()" })
    return string.rep("a", random(150, 260)), string.rep(unit, random(190, 210))
  end
  if family == 2 then return randomSubject(), string.rep("()", random(30, 34)) .. pick({ "", "a", "$" }) end
  if family == 3 then return string.rep("a", random(30, 34)), string.rep("(a)", random(30, 34)) end
  local parts = {}
  if random(3) == 1 then parts[#parts + 1] = "^" end
  for _ = 1, random(0, 6) do parts[#parts + 1] = piece(0) end
  if random(4) == 1 then parts[#parts + 1] = "$" end
  if random(8) == 1 then table.insert(parts, random(#parts + 1), pick(malformedPieces)) end
  return randomSubject(), table.concat(parts)
end

local function randomInit(subject)
  local kind = random(6)
  if kind == 2 then return random(-#subject - 3, #subject + 3) end
  if kind == 3 then return pick({ math.mininteger, math.maxinteger, 0, -1 }) end
  return nil
end

local function replacementTemplate()
  local parts = {}
  for i = 1, random(0, 4) do
    local kind = random(6)
    if kind <= 2 then parts[i] = pick({ "x", "-", "<", ">" })
    elseif kind <= 4 then parts[i] = "%" .. random(0, 9)
    elseif kind == 5 then parts[i] = "%%"
    else parts[i] = "%" .. pick({ "x", "", "a", "(" }) end
  end
  return table.concat(parts)
end

-- Strings, a number, false (keep the match), a table (an error) and an __index for the rest.
local replacementTable = setmetatable({ a = "A", b = false, ["1"] = 7, c = {}, [""] = "E" }, {
  __index = function(_, key) if key == "(" then return "P" end end })

--- A replacement function and the log of the arguments it is called with; what it returns depends only
--- on the calls so far, so two of them given the same calls return the same things.
local function loggingReplacement()
  local log = {}
  return function(...)
    local arguments = table.pack(...)
    for i = 1, arguments.n do log[#log + 1] = tostring(arguments[i]) end
    local kind = #log % 5
    if kind == 0 then return nil end
    if kind == 1 then return false end
    if kind == 2 then return #log end
    if kind == 3 and #log > 6 then return {} end
    return "<" .. tostring(arguments[1]) .. ">"
  end, log
end

local function describe(ok, ...)
  local values = { ok and "ok" or "error", tostring(select("#", ...)) }
  for i = 1, select("#", ...) do
    local value = select(i, ...)
    values[#values + 1] = type(value) .. ":" .. tostring(value)
  end
  return table.concat(values, "|")
end

local function everyMatch(gmatch, subject, pattern, init)
  local found = {}
  local iterator = gmatch(subject, pattern, init)
  for _ = 1, 50 do
    local values = table.pack(iterator())
    if values[1] == nil then break end
    for i = 1, values.n do found[#found + 1] = type(values[i]) .. ":" .. tostring(values[i]) end
    found[#found + 1] = ";"
  end
  return table.concat(found, ",")
end

--- Half the calls come straight from pcall, half from a Lua function, whose line errors then name.
local function outcome(f, ...)
  if random(2) == 1 then return describe(pcall(f, ...)) end
  local arguments = table.pack(...)
  return describe(pcall(function() return f(table.unpack(arguments, 1, arguments.n)) end))
end

--- The outcome of one random case through `library`, the random choices replayed by `replay` (a seed).
local function runCase(library, name, subject, pattern, replay)
  math.randomseed(replay)
  if name == "gmatch" then return outcome(everyMatch, library.gmatch, subject, pattern, randomInit(subject)) end
  if name ~= "gsub" then
    local plain = name == "find" and random(5) == 1 or nil
    return outcome(library[name], subject, pattern, randomInit(subject), plain)
  end
  local limit = random(4) == 1 and random(-1, 3) or nil
  local kind = random(4)
  if kind == 1 then return outcome(library.gsub, subject, pattern, replacementTemplate(), limit) end
  if kind == 2 then return outcome(library.gsub, subject, pattern, replacementTable, limit) end
  if kind == 3 then return outcome(library.gsub, subject, pattern, random(0, 99), limit) end
  local replacement, log = loggingReplacement()
  return outcome(library.gsub, subject, pattern, replacement, limit) .. "#" .. table.concat(log, ",")
end

local mismatches, outcomes = {}, {}
local names = { "find", "find", "match", "gmatch", "gsub", "gsub" }
for case = 1, caseCount do
  local subject, pattern = randomCase()
  local name, replay = pick(names), random(1, 1 << 40)
  local expected = runCase(stock, name, subject, pattern, replay)
  local actual = runCase(bounded, name, subject, pattern, replay)
  math.randomseed(seed + case)
  if expected ~= actual and #mismatches < 10 then
    mismatches[#mismatches + 1] = string.format("case %d: %s(%q, %q): liblua5.4 %s, bounded %s", case, name,
      subject, pattern, expected, actual)
  end
  local message = expected:match("^error|1|string:[^|]-:%d+: ([^|#]*)") or expected:match("^error|1|string:([^|#]*)")
  local kind = message and "error: " .. message or expected:match("^ok|1|nil") and "no match" or "match"
  outcomes[kind] = (outcomes[kind] or 0) + 1
end

local lines = {}
for kind, times in pairs(outcomes) do lines[#lines + 1] = kind .. "\t" .. times end
table.sort(lines)
return caseCount, table.concat(mismatches, "\n"), table.concat(lines, "\n")
