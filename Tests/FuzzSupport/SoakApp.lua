-- The soak's own app (Tests/FuzzSupport/SoakRunner.swift), beside the demo app and the Portus
-- tree: handlers that fail on purpose, so that routes through it are denied, redirected, refused,
-- fail and are rolled back, and some rollbacks fail in turn. Every failure is chosen by the route
-- itself, through its entries' contexts, so the soak's seed decides all of them:
--
--   fail = "enter" | "task"             that handler raises
--   fail = "leave"                      leave raises, every other time it runs (else the node
--                                       could never be left)
--   fail = "enter_false"                enter returns false and a message
--   fail = "leave_odd"                  leave returns something a handler may not, every other time
--   fail = "reenter"                    enter raises every second time the node is entered with
--                                       the same id, so an undo that enters it again may fail too
--   fail = "stay"                       can_leave refuses, every other time it is asked
--   mode = "deny" | "redirect" | "resume" | "open"   what the vault's guard does
local portolan = require "portolan"

local function context(entry)
  return entry.context or {}
end

-- Whether a leave that the context asks to fail fails this time: every other time, so that a node
-- whose leave fails is not there for good (each failed leave undoes its route).
local function leave_fails(node)
  node.leaves = (node.leaves or 0) + 1
  return node.leaves % 2 == 1
end

-- A handler for `phase` that fails as the entry's context asks.
local function act(phase)
  return function(node, entry)
    local fail = context(entry).fail
    if phase == "leave" and (fail == "leave" or fail == "leave_odd") and not leave_fails(node) then return end
    if fail == phase then error("soak: " .. phase .. " fails") end
    if phase == "enter" and fail == "enter_false" then return false, "soak: refused" end
    if phase == "leave" and fail == "leave_odd" then return 42 end
    if phase == "enter" and fail == "reenter" then
      node.entered = node.entered or {}
      local key = tostring(context(entry).id)
      if node.entered[key] then
        node.entered[key] = nil
        error("soak: entered again")
      end
      node.entered[key] = true
    end
  end
end

-- Refuses every other time it is asked, so that a node that stays does not stay for good.
local function stays(node, entry)
  if context(entry).fail ~= "stay" then return true end
  node.refusals = (node.refusals or 0) + 1
  return node.refusals % 2 == 0
end

-- The mode the route asks of the vault, from the vault's entry in its destination.
local function vault_mode(request)
  for _, entry in ipairs(request.destination or {}) do
    if type(entry) == "table" and entry.id == "vault" then return context(entry).mode end
  end
end

portolan.app {
  id = "soak", kind = "switch", active = "home", keep = true, back = "history",
  children = {
    { id = "home", route = "/home",
      children = {
        { id = "item", route = "/items/:id<int>/:fail",
          enter = act("enter"), leave = act("leave"), context_task = act("task"), can_leave = stays,
          children = {
            { id = "detail", route = "/items/:id<int>/:fail/detail",
              enter = act("enter"), leave = act("leave"), can_leave = stays },
          } },
        -- A switch node that keeps its children's stacks, which a route leaves and its undo enters
        -- again: it must come back as it was (the stack kept under `left` too), not afresh.
        { id = "panes", kind = "switch", active = "left", keep = true, route = "/panes",
          children = {
            { id = "left", route = "/panes/left", children = { { id = "note", route = "/panes/left/note" } } },
            { id = "right", route = "/panes/right" },
          } },
      } },
    { id = "vault", route = "/vault/:mode",
      guard = function(_, request)
        local mode = vault_mode(request)
        if mode == "deny" then return portolan.deny("soak: the vault is shut") end
        if mode == "redirect" then return portolan.redirect({ "soak", "home" }) end
        if mode == "resume" then return portolan.redirect({ "soak", "home" }, { resume = true }) end
      end,
      children = { { id = "secret", route = "/vault/:mode/secret", enter = act("enter") } } },
    { id = "tabs", kind = "switch", active = "one",
      children = {
        { id = "one", route = "/tabs/one" },
        { id = "two", route = "/tabs/two",
          children = { { id = "deep", route = "/tabs/two/:fail", enter = act("enter") } } },
      } },
  },
  anywhere = {
    { id = "sheet", route = "/sheet/:fail", enter = act("enter"), leave = act("leave"), can_leave = stays },
  },
}
