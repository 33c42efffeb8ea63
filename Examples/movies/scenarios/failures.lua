-- Routes that fail, and how: every failure names its kind, and the app stays usable.
-- Run: portolan test --app Examples/movies/app.lua Examples/movies/scenarios/*.lua

local portolan = require "portolan"

local function open_dashboard()
  login()
  expect(portolan.route { "root", "dashboard" }, { "switch root -> dashboard" })
end

-- Routes `destination`, expects it to fail with `kind` and nothing executed, and returns the error.
local function fails(kind, destination)
  local executed, err = portolan.route(destination)
  expect(executed, nil)
  assert(type(err) == "table", "a failed route returns nil and an error table")
  expect(err.kind, kind)
  expect(err.executed, {})
  return err
end

scenario("unknown ids and impossible paths are unreachable", function()
  open_dashboard()
  fails("unreachable", { "root", "nowhere" })
  fails("unreachable", "nowhere")
  fails("unreachable", { "root", "dashboard", "watched_movie" }) -- not a child of the dashboard
  fails("unreachable", { "dashboard", "wishlist" })              -- does not start at the root
  fails("unreachable", "about")                                  -- only reachable inside settings
  local planned, err = portolan.plan { "root", "nowhere" }
  expect(planned, nil)
  expect(err.kind, "unreachable")
  expect(portolan.active_path(), { "root", "dashboard", "wishlist" })
end)

scenario("a destination of the wrong type is invalid", function()
  fails("invalid", true)
  fails("invalid", {})
  fails("invalid", { "root", { context = { id = 1 } } }) -- an entry without an id
  local planned, err = portolan.plan(true)
  expect(planned, nil)
  expect(err.kind, "invalid")
  expect(portolan.active_path(), { "root", "onboarding" })
end)

scenario("a handler that refuses fails its route, and the route is rolled back", function()
  login()
  -- A movie screen without a movie id returns false from its enter handler.
  local executed, err = portolan.route { "root", "dashboard", "watched", "watched_movie" }
  expect(executed, nil)
  expect(err.kind, "handler_failed")
  expect(tostring(err.instruction), "enter watched_movie")
  expect(err.executed, { "switch root -> dashboard", "switch dashboard -> watched" })
  assert(tostring(err.message):find("movie id", 1, true), "the handler's reason is kept: " .. tostring(err.message))
  -- What ran is undone, newest first, and the tree is back where the route started.
  expect(err.rolled_back, { "switch dashboard -> wishlist", "switch root -> onboarding" })
  expect(portolan.active_path(), { "root", "onboarding" })
end)

scenario("a handler that raises an error fails its route, and a retry works", function()
  open_dashboard()
  portolan.state.cast_service_down = true
  local destination = {
    "root", "dashboard", "wishlist",
    { id = "wishlist_movie", context = { id = 42 } },
    { id = "wishlist_cast", context = { id = 7 } },
  }
  local executed, err = portolan.route(destination)
  expect(executed, nil)
  expect(err.kind, "handler_failed")
  expect(tostring(err.instruction), "enter wishlist_cast {id=7}")
  expect(err.executed, { "enter wishlist_movie {id=42}" })
  assert(tostring(err.message):find("cast service unavailable", 1, true), tostring(err.message))
  expect(err.rolled_back, { "leave wishlist_movie {id=42}" })
  expect(portolan.active_path(), { "root", "dashboard", "wishlist" })

  portolan.state.cast_service_down = false
  expect(portolan.route(destination), { "enter wishlist_movie {id=42}", "enter wishlist_cast {id=7}" })
end)

scenario("the interceptor denies the cast of a coming-soon title", function()
  open_dashboard()
  local err = fails("denied", {
    "root", "dashboard", "wishlist",
    { id = "wishlist_movie", context = { id = 0 } },
    { id = "wishlist_cast", context = { id = 7 } },
  })
  assert(tostring(err.message):find("coming-soon", 1, true), tostring(err.message))
  expect(portolan.active_path(), { "root", "dashboard", "wishlist" })
  -- The teaser itself can be shown; its cast still cannot.
  expect(portolan.route { "root", "dashboard", "wishlist", { id = "wishlist_movie", context = { id = 0 } } },
    { "enter wishlist_movie {id=0}" })
  fails("denied", {
    "root", "dashboard", "wishlist",
    { id = "wishlist_movie", context = { id = 0 } },
    { id = "wishlist_cast", context = { id = 7 } },
  })
  -- Other movies are not affected.
  expect(portolan.route {
    "root", "dashboard", "watched",
    { id = "watched_movie", context = { id = 1 } },
    { id = "watched_cast", context = { id = 7 } },
  }, {
    "switch dashboard -> watched",
    "enter watched_movie {id=1}",
    "enter watched_cast {id=7}",
  })
end)

scenario("after a failure the app routes on as before", function()
  open_dashboard()
  fails("unreachable", { "root", "nowhere" })
  fails("invalid", true)
  expect(portolan.route "settings", { "enter settings" })
  expect(portolan.active_path(), { "root", "dashboard", "wishlist", "settings" })
end)
