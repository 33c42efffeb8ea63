-- A fixture for `portolan explore` (docs/explore.md): an app with 25 planted faults, at least three
-- of each kind of finding from 1 to 8. Each fault is marked `-- FAULT <kind>.<letter>` where it is
-- planted; the faults that depend on a context fail only with { id = 2 }, so that the node itself
-- stays reachable with { id = 1 }. Tests/CLITests/ExploreFaultsTests.swift checks that the explorer
-- finds every one, and that each repro scenario it writes fails for the planted reason.
--
-- Run: portolan explore Examples/explore-faults/app.lua --repro-dir /tmp/repros

local portolan = require "portolan"

local function id_of(entry)
  if type(entry) == "table" then return entry.id end
  return entry
end

local function context_of(entry)
  if type(entry) == "table" then return entry.context or {} end
  return {}
end

-- The last entry of a destination, and the top of the path a route starts from.
local function last(list)
  list = list or {}
  return list[#list]
end

-- The entry of `id` in a request's destination, or nil.
local function entry_in(request, id)
  for _, entry in ipairs(request.destination or {}) do
    if id_of(entry) == id then return entry end
  end
  return nil
end

local function same_path(a, b)
  a, b = a or {}, b or {}
  if #a ~= #b then return false end
  for index = 1, #a do
    if id_of(a[index]) ~= id_of(b[index]) then return false end
  end
  return true
end

local LANDING = { "root", "home", "landing" }
local rollback_trap = false   -- FAULT 7.c: set by uf_child's failing enter, read by uf_parent's leave
-- The hidden toggles of the faults of kind 8: Lua state the app does not declare.
local mood_flip, toss_flip, roll_flip = false, false, false

-- A screen below home; `extra` adds handlers and children.
local function screen(id, extra)
  local node = { id = id }
  for key, value in pairs(extra or {}) do node[key] = value end
  return node
end

local function with_id(entry, value) return context_of(entry).id == value end

portolan.app {
  id = "root", kind = "switch",
  explore = {
    contexts = {
      raise_enter = { { id = 1 }, { id = 2 } }, raise_guard = { { id = 1 }, { id = 2 } },
      spin_enter = { { id = 1 }, { id = 2 } }, loop_a = { { id = 1 }, { id = 2 } },
      loop_b = { { id = 1 }, { id = 2 } }, mirror = { { id = 1 }, { id = 2 } },
      dry_gate = { { id = 1 }, { id = 2 } }, dry_redirect = { { id = 1 }, { id = 2 } },
      plan_shy = { { id = 1 }, { id = 2 } }, queue_fail = { { id = 1 }, { id = 2 } },
      guard_queue = { { id = 1 }, { id = 2 } }, uf_child = { { id = 1 }, { id = 2 } },
    },
    urls = { "/crash/now", "/ping/1" },
    -- Back from a trap does nothing: that is the dead end, not a second finding.
    back = { "trap_leave", "trap_deny", "trap_stay" },
  },
  children = {
    { id = "home", children = {
      screen("landing"),
      screen("other"),
      -- FAULT 1.a: an enter handler that raises.
      screen("raise_enter", { enter = function(_, entry)
        if with_id(entry, 2) then error("planted 1.a: the screen cannot load") end
      end }),
      -- FAULT 1.b: a guard that raises.
      screen("raise_guard", { guard = function(_, request)
        if with_id(entry_in(request, "raise_guard"), 2) then error("planted 1.b: the guard crashed") end
      end }),
      -- FAULT 1.c: an enter handler that never ends (its instruction budget stops it).
      screen("spin_enter", { enter = function(_, entry)
        if with_id(entry, 2) then while true do end end
      end }),
      -- FAULT 2.a: two guards that send each other's routes back and forth.
      screen("loop_a", { guard = function(_, request)
        if with_id(entry_in(request, "loop_a"), 2) then
          return portolan.redirect { "root", "home", { id = "loop_b", context = { id = 2 } } }
        end
      end }),
      screen("loop_b", { guard = function(_, request)
        if with_id(entry_in(request, "loop_b"), 2) then
          return portolan.redirect { "root", "home", { id = "loop_a", context = { id = 2 } } }
        end
      end }),
      screen("mirror"),
      -- FAULT 3.a: a screen that never lets the user leave.
      screen("trap_leave", { can_leave = function() return false end }),
      screen("trap_deny"),
      screen("trap_stay"),
      -- FAULT 4.a: a screen whose guard turns every route away.
      screen("vault", { guard = function() return portolan.deny("planted 4.a: the vault is shut") end }),
      -- FAULT 4.b: a screen that only opens with a code no one gives it.
      screen("hidden", { enter = function(_, entry)
        if context_of(entry).code ~= "xyzzy" then return false, "planted 4.b: no code" end
      end }),
      screen("moved_away"),
      -- FAULT 5.a: leaving the screen sends the user elsewhere.
      screen("sticky", { leave = function() portolan.route(LANDING) end }),
      screen("bounce"),
      screen("hop"),
      -- FAULT 6.a: a guard that denies routes but lets plans through.
      screen("dry_gate", { guard = function(_, request)
        if not request.dry_run and with_id(entry_in(request, "dry_gate"), 2) then return portolan.deny("planted 6.a") end
      end }),
      -- FAULT 6.b: a guard that redirects routes but not plans.
      screen("dry_redirect", { guard = function(_, request)
        if not request.dry_run and with_id(entry_in(request, "dry_redirect"), 2) then return portolan.redirect(LANDING) end
      end }),
      -- FAULT 6.c: a guard that denies plans but lets routes through.
      screen("plan_shy", { guard = function(_, request)
        if request.dry_run and with_id(entry_in(request, "plan_shy"), 2) then return portolan.deny("planted 6.c") end
      end }),
      -- FAULT 7.a: a handler that asks for a route, then fails: its rollback is undone by that route.
      screen("queue_fail", { enter = function(_, entry)
        if with_id(entry, 2) then
          portolan.route(LANDING)
          return false, "planted 7.a: failed after asking for a route"
        end
      end }),
      screen("guard_queue"),
      screen("uf_parent", {
        leave = function()
          if rollback_trap then return false, "planted 7.c: cannot be left while its child fails" end
        end,
        children = { screen("uf_child", { enter = function(_, entry)
          if with_id(entry, 2) then
            rollback_trap = true
            return false, "planted 7.c: the child fails"
          end
        end }) },
      }),
      -- FAULT 8.a: a screen opened by a link writes the app's state from a hidden toggle.
      screen("mood", { route = "/mood/:id<int>", enter = function(_, _, info)
        if info.url ~= nil then
          mood_flip = not mood_flip
          portolan.state.mood = mood_flip and "sunny" or "rainy"
        end
      end }),
    } },
    { id = "tab2" },
  },
}

portolan.initial_state { mood = "calm" }

-- FAULT 1.d: a redirect rule written as a function that raises.
portolan.redirect_rule(function(url)
  if url:find("^/crash") then error("planted 1.d: the rule crashed") end
end)

-- FAULT 2.c: two redirect rules that rewrite each other's URLs.
portolan.redirect_rule("/ping/:x", "/pong/:x")
portolan.redirect_rule("/pong/:x", "/ping/:x")

portolan.intercept(function(request)
  local top, from = last(request.destination), last(request.from)
  local changes = not same_path(request.destination, request.from)
  -- FAULT 2.b: an interceptor that sends a route on to the next copy of its screen, without end:
  -- no location comes back, and the chain goes past max_redirects.
  local copy = id_of(top) == "mirror" and tonumber(context_of(top).id)
  if copy and copy >= 2 then
    return portolan.redirect { "root", "home", { id = "mirror", context = { id = copy + 1 } } }
  end
  -- FAULT 3.b: an interceptor that denies every route away from a screen.
  if id_of(from) == "trap_deny" and changes then return portolan.deny("planted 3.b: you shall not pass") end
  -- FAULT 3.c: an interceptor that sends every route away from a screen back to it.
  if id_of(from) == "trap_stay" and changes then return portolan.redirect(request.from) end
  -- FAULT 4.c: an interceptor that sends every route to a screen elsewhere.
  if id_of(top) == "moved_away" then return portolan.redirect { "root", "home" } end
  -- FAULT 5.b: back from a screen is turned elsewhere.
  if id_of(from) == "bounce" and #request.destination == #request.from - 1 and changes then
    return portolan.redirect(LANDING)
  end
  -- FAULT 7.b: an interceptor that asks for a route, then denies: the route it asked for runs after.
  if id_of(top) == "guard_queue" and with_id(top, 2) then
    if not request.dry_run then portolan.route(LANDING) end
    return portolan.deny("planted 7.b")
  end
end)

-- FAULT 7.c (its other half): the trap is cleared once the failed route has ended.
portolan.on("failed", function() rollback_trap = false end)

-- FAULT 5.c: an observer that sends the user elsewhere whenever a route leaves `hop`.
portolan.on("did_route", function(executed)
  for _, instruction in ipairs(executed or {}) do
    if instruction == "leave hop" then portolan.route(LANDING) end
  end
end)

-- FAULT 8.b: a step whose flow picks its destination from a hidden toggle.
portolan.flow {
  name = "coins",
  steps = { toss = function()
    toss_flip = not toss_flip
    return toss_flip and LANDING or { "root", "home", "other" }
  end },
}

-- FAULT 8.c: a flow whose adapt refuses every other step.
portolan.flow {
  name = "dice",
  steps = { roll = function() return LANDING end },
  adapt = function(step)
    if step == "roll" then
      roll_flip = not roll_flip
      if roll_flip then return false end
    end
  end,
}
