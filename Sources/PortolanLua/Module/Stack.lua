-- The active stack from Lua (docs/rules.md, "Screens that repeat"): `portolan.push` with a launch
-- mode and `pop_up_to`, `portolan.back` with a distance, `portolan.update` and `portolan.merge`,
-- which give the top screen another context in place, and `portolan.reset`, `portolan.remove` and
-- `portolan.replace`, which edit the stack below its top. The host runs this chunk once per
-- state and hands the function it returns to the module, which calls it with what they need
-- (the bridge, routing, the caller's errors, the coroutine's role, a yield's outcome and the mark
-- of a yield the host serves) and installs the functions it returns. The strategies themselves
-- are the engine's (LaunchMode, PopUpTo, BackDistance, Destination.update, .reset, .remove and
-- .replace): this only reads the arguments.

-- What the module hands over (see the returned function), set once before any function runs.
local bridge, route, error_at_caller, role, outcome, MARK

--- Pushes `entry` (an id or { id =, context = }) onto the active stack: a route to
-- { push = entry, launch =, pop_up_to =, inclusive = } with the options' fields. The launch mode
-- says what happens when the screen is already on the stack; pop_up_to goes back to that node
-- first, in the same route.
local function push(entry, options)
  if type(entry) ~= "string" and type(entry) ~= "table" then
    error_at_caller("portolan.push expects an id or an entry { id =, context = }, not a " .. type(entry))
  end
  if options ~= nil and type(options) ~= "table" then
    error_at_caller("portolan.push's options must be a table, as in { launch = \"single_top\" }")
  end
  local given = options or {}
  return route({ push = entry, launch = given.launch, pop_up_to = given.pop_up_to, inclusive = given.inclusive })
end

-- Whether `distance` is exactly { keep = n }: another field is a mistake to report, not ignore.
local function is_keep(distance)
  return type(distance) == "table" and math.type(distance.keep) == "integer" and next(distance, next(distance)) == nil
end

--- Goes back and returns the route's result (nil and an `unreachable` error when there is
-- nothing to leave). back() leaves the top screen, or switches a switch node with a `back` to
-- the child its behaviour names; back(n) leaves the top n screens in one route; back { keep = k } leaves
-- the screens above the first k; back(fn) leaves screens from the top while fn(entry) is true.
-- Only from a script's main flow or the REPL.
local function back(distance)
  if role() ~= "script" then error_at_caller("portolan.back can only be called from a script, not from a handler") end
  if math.type(distance) == "integer" then
    distance = { screens = distance }
  elseif type(distance) == "function" then
    -- The predicate is the script's; which screens back can leave is the engine's.
    local screens, leaving = bridge.back_screens(), 0
    while leaving < #screens and distance(screens[leaving + 1]) do leaving = leaving + 1 end
    distance = { keep = #screens - leaving }
  elseif distance ~= nil and not is_keep(distance) then
    error_at_caller("portolan.back expects nothing, a whole number of screens, { keep = n } or a function of an"
      .. " entry, not " .. (type(distance) == "table" and "that table" or tostring(distance)))
  end
  return outcome(coroutine.yield(MARK, "back", distance))
end

local function check_entry(name, entry, what)
  if type(entry) ~= "string" and type(entry) ~= "table" then
    error_at_caller(name .. " expects " .. what .. " { id =, context = }, not a " .. type(entry))
  end
end

--- Routes to `path`, a list from the root as portolan.route takes one, by an edit of the active
-- stack ({ reset = path }): the screens the live path and this one both hold stay (moved, or
-- updated if keyed), never left and entered again; the others are removed and inserted.
local function reset(path)
  if type(path) ~= "table" then
    error_at_caller("portolan.reset expects a list of ids or entries from the root, not a " .. type(path))
  end
  return route({ reset = path })
end

--- Takes `entry` out of the active stack from wherever it stands ({ remove = entry }); what
-- stood on it stands on what it stood on, neither left nor entered.
local function remove(entry)
  check_entry("portolan.remove", entry, "an entry of the active stack")
  return route({ remove = entry })
end

--- Puts `replacement` in the place of `entry` on the active stack, wherever it stands
-- ({ replace = entry, with = replacement }).
local function replace(entry, replacement)
  check_entry("portolan.replace", entry, "an entry of the active stack")
  check_entry("portolan.replace", replacement, "as its second argument an entry")
  return route({ replace = entry, with = replacement })
end

--- Gives the top screen, which must be `entry`'s node, `entry`'s context in place (a route to
-- { update = entry }), or with `merging` that context over its own ({ merge = entry }): its
-- `update` handler is told; it is neither left nor entered. With `memory` "remember", the screen
-- remembers the context it had, and back gives it back before leaving the screen.
local function in_place(name, field, memory)
  return function(entry)
    check_entry(name, entry, "the top screen's entry")
    return route({ [field] = entry, memory = memory })
  end
end

return function(...)
  bridge, route, error_at_caller, role, outcome, MARK = ...
  return push, back, in_place("portolan.update", "update"), in_place("portolan.merge", "merge"),
    in_place("portolan.push_context", "update", "remember"), reset, remove, replace
end
