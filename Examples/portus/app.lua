-- The example tree of Portus's README (JamitLabs/Portus), as a Portolan app.
--
--   switchNode1              switch, node1 active at start
--   ├── switchNode2          switch, node3 active at start
--   │   ├── node3
--   │   └── node4
--   ├── node1
--   │   ├── node5
--   │   │   ├── node8
--   │   │   ├── node9
--   │   │   └── node10
--   │   └── node6
--   │       └── node11
--   └── node2
--       ├── node7
--       └── switchNode3      switch, node13 active at start
--           ├── node12
--           └── node13
--
-- No handlers: every instruction succeeds, so the routes show the planner alone.
-- Scenarios: portolan test --app Examples/portus/app.lua Examples/portus/portus.lua

local portolan = require "portolan"

portolan.app {
  id = "switchNode1", kind = "switch", active = "node1",
  children = {
    { id = "switchNode2", kind = "switch", active = "node3",
      children = { { id = "node3" }, { id = "node4" } } },
    { id = "node1",
      children = {
        { id = "node5", children = { { id = "node8" }, { id = "node9" }, { id = "node10" } } },
        { id = "node6", children = { { id = "node11" } } },
      } },
    { id = "node2",
      children = {
        { id = "node7" },
        { id = "switchNode3", kind = "switch", active = "node13",
          children = { { id = "node12" }, { id = "node13" } } },
      } },
  },
}
