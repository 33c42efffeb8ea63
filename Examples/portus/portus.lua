-- The worked examples of Portus's README, run against Examples/portus/app.lua:
--   portolan test --app Examples/portus/app.lua Examples/portus/portus.lua
-- Every scenario starts from the tree's initial state: switchNode1 > node1.

local portolan = require "portolan"

-- The README's sequence: first to node12, then its examples 1 to 4, each from where the one
-- before ended. Each step gives the instructions it must execute, exactly, in order.
local readme = {
  { to = { "switchNode1", "node2", "switchNode3", "node12" },
    executes = { "switch switchNode1 -> node2", "enter switchNode3", "switch switchNode3 -> node12" } },
  -- Example 1
  { to = { "switchNode1", "node1", "node5", "node8" },
    executes = { "leave switchNode3", "switch switchNode1 -> node1", "enter node5", "enter node8" } },
  -- Example 2
  { to = { "switchNode1", "switchNode2", "node4" },
    executes = { "leave node8", "leave node5", "switch switchNode1 -> switchNode2", "switch switchNode2 -> node4" } },
  -- Example 3
  { to = { "switchNode1", "node1", "node6", "node11" },
    executes = { "switch switchNode1 -> node1", "enter node6", "enter node11" } },
  -- Example 4
  { to = { "switchNode1", "node2", "switchNode3", "node13" },
    executes = { "leave node11", "leave node6", "switch switchNode1 -> node2", "enter switchNode3" } },
}

scenario("the initial active path follows each switch node's active child", function()
  expect(portolan.active_path(), { "switchNode1", "node1" })
end)

scenario("the README's examples, in order, execute exactly the README's instructions", function()
  for step, example in ipairs(readme) do
    expect(portolan.route(example.to), example.executes, "step " .. step)
    expect(portolan.active_path(), example.to, "active path after step " .. step)
  end
end)

scenario("plan gives exactly what route then executes, at every step", function()
  for step, example in ipairs(readme) do
    local before = portolan.active_path()
    local planned = portolan.plan(example.to)
    expect(planned, example.executes, "plan of step " .. step)
    expect(portolan.active_path(), before, "plan changes nothing (step " .. step .. ")")
    expect(portolan.route(example.to), planned, "route of step " .. step)
  end
end)

scenario("routing to where you already are does nothing", function()
  expect(portolan.route { "switchNode1", "node1" }, {})
  for _, example in ipairs(readme) do
    portolan.route(example.to)
    expect(portolan.route(example.to), {})
    expect(portolan.plan(example.to), {})
  end
end)

scenario("a destination on the active path leaves down to it", function()
  expect(portolan.route { "switchNode1", "node1", "node5", "node8" }, { "enter node5", "enter node8" })
  expect(portolan.route { "switchNode1", "node1", "node5" }, { "leave node8" })
  expect(portolan.active_path(), { "switchNode1", "node1", "node5" })
  expect(portolan.route { "switchNode1", "node1", "node5", "node9" }, { "enter node9" })
  expect(portolan.route { "switchNode1", "node1" }, { "leave node9", "leave node5" })
  expect(portolan.active_path(), { "switchNode1", "node1" })
  -- Managed nodes are never left: leaving down to a switch node keeps its active child.
  portolan.route { "switchNode1", "node2", "switchNode3", "node12" }
  expect(portolan.route { "switchNode1", "node2", "switchNode3" }, {})
  expect(portolan.active_path(), { "switchNode1", "node2", "switchNode3", "node12" })
  expect(portolan.route { "switchNode1", "node2" }, { "leave switchNode3" })
  expect(portolan.active_path(), { "switchNode1", "node2" })
end)

scenario("a switch node keeps its children's state across switches", function()
  expect(portolan.route { "switchNode1", "switchNode2", "node4" },
    { "switch switchNode1 -> switchNode2", "switch switchNode2 -> node4" })
  expect(portolan.route { "switchNode1", "node1", "node6", "node11" },
    { "switch switchNode1 -> node1", "enter node6", "enter node11" })
  -- switchNode2 still has node4 active.
  expect(portolan.route { "switchNode1", "switchNode2" }, { "leave node11", "leave node6", "switch switchNode1 -> switchNode2" })
  expect(portolan.active_path(), { "switchNode1", "switchNode2", "node4" })
end)

scenario("unknown nodes, non-children and a wrong root fail before anything runs", function()
  local executed, err = portolan.route { "switchNode1", "node1", "node7" }
  expect(executed, nil)
  expect(err.kind, "unreachable")
  expect(err.executed, {})
  executed, err = portolan.route { "switchNode1", "node42" }
  expect(executed, nil)
  expect(err.kind, "unreachable")
  executed, err = portolan.route { "node1" }
  expect(executed, nil)
  expect(err.kind, "unreachable")
  expect(portolan.active_path(), { "switchNode1", "node1" })
end)
