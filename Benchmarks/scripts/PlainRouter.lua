-- The router a team would write in plain Lua instead of adopting Portolan (issue 24's anchor): a
-- tree of screens, the active path, and a route that leaves the old branch, innermost first, and
-- enters the new one, calling each node's leave or enter handler, protected, with a fresh entry and
-- a fresh info table per call. It checks destinations, stops at a failed handler and keeps a
-- history; it has no guards, waits, limits, events or undo. Benchmarks/scripts/route-cost.sh times it.
local PlainRouter = {}
PlainRouter.__index = PlainRouter

function PlainRouter.new(root)
  local router = setmetatable({ nodes = {}, parent = {}, path = {}, history = {}, routes = 0 }, PlainRouter)
  local function add(node, parent)
    assert(type(node.id) == "string" and router.nodes[node.id] == nil, "a node needs an id of its own")
    router.nodes[node.id], router.parent[node.id] = node, parent
    for _, child in ipairs(node.children or {}) do add(child, node.id) end
  end
  add(root, false)
  return router
end

-- Whether `ids` is a path from the root down the tree.
local function leads_somewhere(router, ids)
  if #ids == 0 or router.parent[ids[1]] ~= false then return false end
  for i = 2, #ids do
    if router.parent[ids[i]] ~= ids[i - 1] then return false end
  end
  return true
end

local function call(node, field, entry, index, count)
  local handler = node[field]
  if handler == nil then return true end
  local info = { index = index, count = count, last = index == count }
  return pcall(handler, node, entry, info)
end

--- Routes to the path `ids` (root first); returns the number of handler steps, or nil and why.
function PlainRouter:route(ids)
  if not leads_somewhere(self, ids) then return nil, "no such path" end
  local path, kept = self.path, 0
  while kept < #path and kept < #ids and path[kept + 1].id == ids[kept + 1] do kept = kept + 1 end
  local count, index = (#path - kept) + (#ids - kept), 0
  for i = #path, kept + 1, -1 do
    index = index + 1
    local ok, err = call(self.nodes[path[i].id], "leave", path[i], index, count)
    if not ok then return nil, err end
    path[i] = nil
  end
  for i = kept + 1, #ids do
    index = index + 1
    local entry = { id = ids[i], context = {} }
    local ok, err = call(self.nodes[ids[i]], "enter", entry, index, count)
    if not ok then return nil, err end
    path[i] = entry
  end
  self.routes = self.routes + 1
  self.history[(self.routes - 1) % 100 + 1] = { destination = ids, steps = count }   -- the last 100
  return count
end

return PlainRouter
