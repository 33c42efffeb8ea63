-- Settings, about and alerts: nodes shown on top of whatever screen is showing (`anywhere`).
-- Run: portolan test --app Examples/movies/app.lua Examples/movies/scenarios/*.lua

local portolan = require "portolan"

local function open_dashboard()
  login()
  expect(portolan.route { "root", "dashboard" }, { "switch root -> dashboard" })
end

scenario("settings are entered on top of the active screen, and not entered again", function()
  open_dashboard()
  portolan.route { "root", "dashboard", "wishlist", { id = "wishlist_movie", context = { id = 42 } } }
  expect(portolan.route "settings", { "enter settings" })
  expect(portolan.active_path(), { "root", "dashboard", "wishlist", "wishlist_movie", "settings" })
  -- Already showing: nothing to do, whichever way the destination is written.
  expect(portolan.route "settings", {})
  expect(portolan.route { id = "settings" }, {})
  expect(portolan.active_path(), { "root", "dashboard", "wishlist", "wishlist_movie", "settings" })
  -- Closing them is a route back to the screen below.
  expect(portolan.route { "root", "dashboard", "wishlist", { id = "wishlist_movie", context = { id = 42 } } },
    { "leave settings" })
end)

scenario("about is pushed inside settings and both close together", function()
  open_dashboard()
  expect(portolan.route { "root", "dashboard", "wishlist", "settings", "about" }, { "enter settings", "enter about" })
  expect(portolan.active_path(), { "root", "dashboard", "wishlist", "settings", "about" })
  expect(portolan.route { "root", "dashboard", "wishlist", "settings" }, { "leave about" })
  expect(portolan.route { "root", "dashboard", "wishlist", "settings", "about" }, { "enter about" })
  expect(portolan.route { "root", "dashboard", "wishlist" }, { "leave about", "leave settings" })
  expect(portolan.active_path(), { "root", "dashboard", "wishlist" })
end)

scenario("unsaved settings block every route that would close them", function()
  open_dashboard()
  portolan.route "settings"
  expect(portolan.route { "root", "dashboard", "wishlist", "settings", "about" }, { "enter about" })
  local logged = #route_log
  portolan.state.settings_dirty = true

  local executed, err = portolan.route { "root", "dashboard", "watched" }
  expect(executed, nil)
  expect(err.kind, "blocked")
  expect(tostring(err.instruction), "leave settings")
  -- Refused before anything moved: not even about was left.
  expect(err.executed, {})
  assert(tostring(err):find("settings", 1, true), "the error names the node: " .. tostring(err))
  expect(portolan.active_path(), { "root", "dashboard", "wishlist", "settings", "about" })
  expect(#route_log, logged, "a failed route is not a finished one")

  -- A dry run gives the same answer.
  local planned, plan_err = portolan.plan { "root", "dashboard", "wishlist" }
  expect(planned, nil)
  expect(plan_err.kind, "blocked")

  -- Leaving only what is above settings is fine.
  expect(portolan.route { "root", "dashboard", "wishlist", "settings" }, { "leave about" })

  -- Saved: settings close.
  portolan.state.settings_dirty = false
  expect(portolan.route { "root", "dashboard", "watched" }, { "leave settings", "switch dashboard -> watched" })
  expect(portolan.active_path(), { "root", "dashboard", "watched" })
end)

scenario("alerts show on top of anything, and a new message replaces the one showing", function()
  open_dashboard()
  portolan.route "settings"
  expect(portolan.route { id = "alert", context = { message = "offline" } }, { "enter alert {message=offline}" })
  expect(portolan.active_path(), { "root", "dashboard", "wishlist", "settings", "alert" })
  expect(portolan.route { id = "alert", context = { message = "offline" } }, {})
  expect(portolan.route { id = "alert", context = { message = "retry" } }, {
    "leave alert {message=offline}",
    "enter alert {message=retry}",
  })
  expect(portolan.route { "root", "dashboard", "wishlist" }, { "leave alert {message=retry}", "leave settings" })
end)

scenario("anywhere nodes show over the welcome screen too", function()
  expect(portolan.route "settings", { "enter settings" })
  expect(portolan.active_path(), { "root", "onboarding", "settings" })
  expect(portolan.route { "root", "onboarding", "onboarding_login" }, { "leave settings", "enter onboarding_login" })
  expect(portolan.active_path(), { "root", "onboarding", "onboarding_login" })
end)

scenario("a modal flow by relative destination: settings > about from any screen", function()
  open_dashboard()
  portolan.route { "root", "dashboard", "watched" }
  -- The path starts at the modal: it is entered on top of whatever shows.
  expect(portolan.route { "settings", "about" }, { "enter settings", "enter about" })
  expect(portolan.active_path(), { "root", "dashboard", "watched", "settings", "about" })
  -- Where the modal shows, the route continues inside it.
  expect(portolan.route { "settings" }, { "leave about" })
  expect(portolan.plan { "settings", "about" }, { "enter about" })
end)
