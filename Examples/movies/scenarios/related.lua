-- Related movies: one screen, declared once, pushed from both tabs and on top of itself, each
-- copy kept with the stack of the tab it was pushed in.
-- Run: portolan test --app Examples/movies/app.lua Examples/movies/scenarios/*.lua

local portolan = require "portolan"

local function movie(tab, id) return { id = tab .. "_movie", context = { id = id } } end
local function related(id) return { id = "related", context = { id = id } } end

-- Logged in, showing movie 42 in the wishlist.
local function open_movie()
  login()
  expect(portolan.route { "root", "dashboard", "wishlist", movie("wishlist", 42) },
    { "switch root -> dashboard", "enter wishlist_movie {id=42}" })
end

scenario("a related movie is pushed on a related movie, each with its own id", function()
  open_movie()
  expect(portolan.push(related(7)), { "enter related {id=7}" })
  expect(portolan.push(related(9)), { "enter related {id=9}" })
  -- The same movie again: another copy, as a navigation stack pushes it.
  expect(portolan.push(related(7)), { "enter related {id=7}" })
  expect(portolan.active_path(), { "root", "dashboard", "wishlist", "wishlist_movie", "related", "related", "related" })
  expect(portolan.back(), { "leave related {id=7}" })
  expect(portolan.back(), { "leave related {id=9}" })
  expect(portolan.active_entries()[5].context.id, 7)
end)

scenario("both tabs push related movies, and each tab keeps its own chain", function()
  open_movie()
  portolan.push(related(7))
  portolan.push(related(9))
  expect(portolan.switch_to("dashboard", "watched"), { "switch dashboard -> watched" })
  expect(portolan.route { "root", "dashboard", "watched", movie("watched", 3) }, { "enter watched_movie {id=3}" })
  expect(portolan.push(related(7)), { "enter related {id=7}" })
  -- Back on the wishlist: its chain comes back as it was; the watched tab keeps its own.
  expect(portolan.switch_to("dashboard", "wishlist"), { "switch dashboard -> wishlist" })
  expect(portolan.active_path(), { "root", "dashboard", "wishlist", "wishlist_movie", "related", "related" })
  expect(portolan.switch_to("dashboard", "watched"), { "switch dashboard -> watched" })
  expect(portolan.active_path(), { "root", "dashboard", "watched", "watched_movie", "related" })
end)

scenario("launch modes: single_top, clear_top and replace", function()
  open_movie()
  portolan.push(related(7))
  -- single_top: the top related movie takes the new id instead of stacking another.
  expect(portolan.push(related(8), { launch = "single_top" }), { "leave related {id=7}", "enter related {id=8}" })
  portolan.push(related(9))
  portolan.push(related(10))
  -- clear_top: back to the related movie 9 already on the stack.
  expect(portolan.push(related(9), { launch = "clear_top" }), { "leave related {id=10}" })
  -- replace: in place of the top screen.
  expect(portolan.push(related(11), { launch = "replace" }), { "leave related {id=9}", "enter related {id=11}" })
  expect(portolan.active_path(), { "root", "dashboard", "wishlist", "wishlist_movie", "related", "related" })
end)

scenario("the peers' strategies: push_new, single_task, pop_up_to and back by a distance", function()
  open_movie()
  expect(portolan.push(related(7)), { "enter related {id=7}" })
  -- push_new, declared on related: a double tap pushes it once.
  expect(portolan.push(related(7)), {})
  portolan.push(related(8))
  portolan.push(related(9))
  -- pop_to: back to the nearest related movie (the top one here), which takes the new id.
  expect(portolan.push(related(5), { launch = "pop_to" }), { "leave related {id=9}", "enter related {id=5}" })
  -- single_task: back to the one related movie at the bottom of the chain.
  expect(portolan.push(related(7), { launch = "single_task" }), { "leave related {id=5}", "leave related {id=8}" })
  -- pop_up_to: back to the movie first, then the push, in one route.
  expect(portolan.push(related(3), { pop_up_to = "wishlist_movie" }), { "leave related {id=7}", "enter related {id=3}" })
  portolan.push(related(4))
  portolan.push(related(6))
  expect(portolan.back(2), { "leave related {id=6}", "leave related {id=4}" })
  expect(portolan.back { keep = 1 }, { "leave related {id=3}" })
  expect(portolan.active_path(), { "root", "dashboard", "wishlist", "wishlist_movie" })
end)

scenario("the same related movie in another order is updated in place, not pushed again", function()
  open_movie()
  portolan.push(related(7))
  -- merge: the top screen takes a sort order, neither left nor entered again.
  expect(portolan.merge { id = "related", context = { sort = "year" } },
    { "update related {id=7} -> related {id=7,sort=year}" })
  -- key = "id": pushing movie 7 in another order is the same screen, so push_new updates it.
  expect(portolan.push { id = "related", context = { id = 7, sort = "rating" } },
    { "update related {id=7,sort=year} -> related {id=7,sort=rating}" })
  -- update: the context given is the whole context; the sort order goes.
  expect(portolan.update(related(7)), { "update related {id=7,sort=rating} -> related {id=7}" })
  -- Another movie is another screen: pushed.
  expect(portolan.push(related(9)), { "enter related {id=9}" })
  -- An update names the screen it means: with related 9 on top, the movie is not changed.
  local _, err = portolan.update(movie("wishlist", 1))
  expect(err.kind, "unreachable")
  expect(#portolan.active_path(), 6)
end)

scenario("each sort order pushed as context is undone by back before the screen goes", function()
  open_movie()
  portolan.push(related(7))
  -- push_context: the screen takes the order and remembers the one it had.
  portolan.push_context { id = "related", context = { id = 7, sort = "year" } }
  expect(portolan.push_context { id = "related", context = { id = 7, sort = "rating" } },
    { "update related {id=7,sort=year} -> related {id=7,sort=rating}" })
  -- Back undoes the orders newest first, in place, and only then leaves the screen.
  expect(portolan.back(), { "update related {id=7,sort=rating} -> related {id=7,sort=year}" })
  expect(portolan.back(), { "update related {id=7,sort=year} -> related {id=7}" })
  expect(portolan.back(), { "leave related {id=7}" })
end)

scenario("the second related movie of the stack is named by nth", function()
  open_movie()
  portolan.push(related(7))
  portolan.push(related(9))
  portolan.push(related(11))
  local second = portolan.find("related", nil, 2)
  expect(second[#second].context.id, 9)
  expect(portolan.route { id = "related", nth = 2 }, { "leave related {id=11}" })
  local _, err = portolan.route { id = "related", nth = 5 }
  expect(err.kind, "unreachable")
end)

scenario("a chain longer than max_copies fails cleanly, naming the limit", function()
  open_movie()
  for id = 1, 8 do expect(portolan.push(related(id)), { "enter related {id=" .. id .. "}" }) end
  local executed, err = portolan.push(related(9))
  expect(executed, nil)
  expect(err.kind, "invalid")
  expect(err.message:find("max_copies", 1, true) ~= nil, true)
  expect(#portolan.active_path(), 12)
end)

scenario("the related chain edited below its top: a movie brought back, one dropped, the chain set", function()
  open_movie()
  portolan.push(related(7))
  portolan.push(related(8))
  portolan.push(related(9))
  -- reorder_to_front: movie 7, already in the chain, comes back to the top, neither left nor entered.
  expect(portolan.push(related(7), { launch = "reorder_to_front" }), { "move related {id=7} to top" })
  -- remove: movie 8 leaves the middle of the chain; 9 and 7 stay where they are.
  expect(portolan.remove(related(8)), { "remove related {id=8}" })
  -- reset: the chain set whole; 9 and 7 are kept, and 5 is put in under 9.
  expect(portolan.reset { "root", "dashboard", "wishlist", movie("wishlist", 42), related(5), related(9), related(7) },
    { "insert related {id=5} under related {id=9}" })
  expect(portolan.back(), { "leave related {id=7}" })
  expect(portolan.active_entries()[6].context.id, 9)
end)
