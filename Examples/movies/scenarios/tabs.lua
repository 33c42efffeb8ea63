-- The dashboard's tabs: switching, each tab's own stack, deep links and going back.
-- Run: portolan test --app Examples/movies/app.lua Examples/movies/scenarios/*.lua

local portolan = require "portolan"

-- Entries with a context, as routes and the host name them.
local function movie(tab, id) return { id = tab .. "_movie", context = { id = id } } end
local function cast(tab, id) return { id = tab .. "_cast", context = { id = id } } end

-- Logged in and on the dashboard's first tab.
local function open_dashboard()
  login()
  expect(portolan.route { "root", "dashboard" }, { "switch root -> dashboard" })
end

scenario("routing to the tab that is already active only switches to the dashboard", function()
  login()
  expect(portolan.route { "root", "dashboard", "wishlist" }, { "switch root -> dashboard" })
  expect(portolan.active_path(), { "root", "dashboard", "wishlist" })
end)

scenario("routing to the other tab switches the dashboard", function()
  open_dashboard()
  expect(portolan.route { "root", "dashboard", "watched" }, { "switch dashboard -> watched" })
  expect(portolan.active_path(), { "root", "dashboard", "watched" })
  expect(portolan.route { "root", "dashboard", "wishlist" }, { "switch dashboard -> wishlist" })
  expect(portolan.active_path(), { "root", "dashboard", "wishlist" })
end)

scenario("a tab tap reported by the host keeps each tab's stack", function()
  open_dashboard()
  expect(portolan.route { "root", "dashboard", "wishlist", movie("wishlist", 42) }, { "enter wishlist_movie {id=42}" })
  -- The user taps the Watched tab, then back on Wishlist: the UI did it, Portolan is told.
  portolan.did_switch("dashboard", "watched")
  expect(portolan.active_path(), { "root", "dashboard", "watched" })
  portolan.did_switch("dashboard", "wishlist")
  expect(portolan.active_path(), { "root", "dashboard", "wishlist", "wishlist_movie" })
  local entries = portolan.active_entries()
  expect(entries[4].id, "wishlist_movie")
  expect(entries[4].context.id, 42)
end)

scenario("a route back into a kept stack reuses it", function()
  open_dashboard()
  portolan.route { "root", "dashboard", "wishlist", movie("wishlist", 42) }
  portolan.did_switch("dashboard", "watched")
  -- The wishlist tab still holds movie 42, so switching to it is all there is to do.
  expect(portolan.route { "root", "dashboard", "wishlist", movie("wishlist", 42) }, { "switch dashboard -> wishlist" })
  expect(portolan.active_path(), { "root", "dashboard", "wishlist", "wishlist_movie" })
end)

scenario("routing to another tab keeps the stack of the tab it leaves", function()
  open_dashboard()
  portolan.route { "root", "dashboard", "wishlist", movie("wishlist", 42), cast("wishlist", 7) }
  -- The tab bar keeps each tab's stack (keep = true): nothing is left, the tab is switched.
  expect(portolan.route { "root", "dashboard", "watched" }, { "switch dashboard -> watched" })
  -- Tapping back on Wishlist (the host reports it) shows the stack as it was.
  portolan.did_switch("dashboard", "wishlist")
  expect(portolan.active_path(), { "root", "dashboard", "wishlist", "wishlist_movie", "wishlist_cast" })
end)

scenario("back through kept tabs", function()
  open_dashboard()
  portolan.route { "root", "dashboard", "wishlist", movie("wishlist", 42), cast("wishlist", 7) }
  portolan.route { "root", "dashboard", "watched", movie("watched", 3) }
  -- A tab tap shows what the tab keeps open.
  expect(portolan.switch_to("dashboard", "wishlist"), { "switch dashboard -> wishlist" })
  expect(portolan.active_path(), { "root", "dashboard", "wishlist", "wishlist_movie", "wishlist_cast" })
  -- Back leaves the top screen, one at a time, down to the tab's root.
  expect(portolan.back(), { "leave wishlist_cast {id=7}" })
  expect(portolan.back(), { "leave wishlist_movie {id=42}" })
  -- The other tab kept its stack all along, and a finder reaches into it.
  expect(portolan.find("watched_movie"), {
    { id = "root", context = {} }, { id = "dashboard", context = {} }, { id = "watched", context = {} },
    { id = "watched_movie", context = { id = 3 } },
  })
  -- At the tab's root, back returns to the tab shown before (back = "history"), with its stack.
  expect(portolan.back(), { "switch dashboard -> watched" })
  expect(portolan.active_path(), { "root", "dashboard", "watched", "watched_movie" })
  expect(portolan.back(), { "leave watched_movie {id=3}" })
  -- Each tab once, as React Navigation's "history" has it: the wishlist, tapped again, left its
  -- older place, so no tab is left to go back to ("full_history" would return to it).
  local _, err = portolan.back()
  expect(err.kind, "unreachable")
  expect(portolan.route(portolan.find("wishlist")), { "switch dashboard -> wishlist" })
  expect(portolan.route(portolan.find("wishlist")), {})
  -- Every route is in the history, newest last.
  local history = portolan.history()
  expect(#history >= 6, true)
  expect(history[#history].executed, {})
  expect(history[#history].ok, true)
end)

scenario("a deep stack, the host's back button, and routes back down", function()
  login()
  expect(portolan.route { "root", "dashboard", "wishlist", movie("wishlist", 42), cast("wishlist", 7) }, {
    "switch root -> dashboard",
    "enter wishlist_movie {id=42}",
    "enter wishlist_cast {id=7}",
  })
  expect(portolan.active_path(), { "root", "dashboard", "wishlist", "wishlist_movie", "wishlist_cast" })
  -- The user taps Back: the UI popped the cast screen itself.
  portolan.did_leave("wishlist_cast")
  expect(portolan.active_path(), { "root", "dashboard", "wishlist", "wishlist_movie" })
  expect(portolan.route { "root", "dashboard", "wishlist", movie("wishlist", 42), cast("wishlist", 8) },
    { "enter wishlist_cast {id=8}" })
  -- A destination on the active path leaves down to it, bottom-up.
  expect(portolan.route { "root", "dashboard", "wishlist" }, {
    "leave wishlist_cast {id=8}",
    "leave wishlist_movie {id=42}",
  })
  expect(portolan.route { "root", "dashboard", "wishlist" }, {})
  expect(portolan.active_path(), { "root", "dashboard", "wishlist" })
end)

scenario("the host leaving a screen in the middle of a stack leaves what is on top of it", function()
  open_dashboard()
  portolan.route { "root", "dashboard", "wishlist", movie("wishlist", 42), cast("wishlist", 7) }
  portolan.did_leave("wishlist_movie")
  expect(portolan.active_path(), { "root", "dashboard", "wishlist" })
end)

scenario("the same screen with another movie is left and entered again", function()
  open_dashboard()
  portolan.route { "root", "dashboard", "wishlist", movie("wishlist", 42) }
  expect(portolan.route { "root", "dashboard", "wishlist", movie("wishlist", 7) }, {
    "leave wishlist_movie {id=42}",
    "enter wishlist_movie {id=7}",
  })
  expect(portolan.active_entries()[4].context.id, 7)
end)

scenario("plan says exactly what route then does, and changes nothing", function()
  open_dashboard()
  portolan.route { "root", "dashboard", "wishlist", movie("wishlist", 42) }
  local destination = { "root", "dashboard", "watched", movie("watched", 3), cast("watched", 5) }
  local planned = portolan.plan(destination)
  expect(planned, {
    "switch dashboard -> watched",
    "enter watched_movie {id=3}",
    "enter watched_cast {id=5}",
  })
  expect(portolan.active_path(), { "root", "dashboard", "wishlist", "wishlist_movie" })
  expect(portolan.route(destination), planned)
  expect(portolan.active_path(), { "root", "dashboard", "watched", "watched_movie", "watched_cast" })
  expect(portolan.plan(destination), {})
end)

scenario("a context task runs for a screen the route found already showing", function()
  open_dashboard()
  portolan.route { "root", "dashboard", "wishlist", movie("wishlist", 42), cast("wishlist", 7) }
  expect(shown_movie, { tab = "wishlist", id = 42 })
  portolan.route { "root", "dashboard", "watched", movie("watched", 3) }
  expect(shown_movie, { tab = "watched", id = 3 })
  -- Back to the movie the wishlist kept: it is not entered again, yet its context task runs.
  expect(portolan.route(portolan.find("wishlist_movie", { id = 42 })), {
    "switch dashboard -> wishlist", "leave wishlist_cast {id=7}",
  })
  expect(shown_movie, { tab = "wishlist", id = 42 })
end)
