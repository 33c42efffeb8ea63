-- Onboarding, login and the dashboard's guard.
-- Run: portolan test --app Examples/movies/app.lua Examples/movies/scenarios/*.lua
-- Each scenario starts from a fresh app: on the welcome screen, logged out.

local portolan = require "portolan"

scenario("the app starts on the welcome screen, logged out", function()
  expect(portolan.active_path(), { "root", "onboarding" })
  assert(not portolan.state.logged_in, "a fresh app is logged out")
  expect(route_log, {})
end)

scenario("the login screen is pushed on the welcome screen", function()
  expect(portolan.route { "root", "onboarding", "onboarding_login" }, { "enter onboarding_login" })
  expect(portolan.active_path(), { "root", "onboarding", "onboarding_login" })
  -- Routing to where you already are does nothing.
  expect(portolan.route { "root", "onboarding", "onboarding_login" }, {})
  -- Back to the welcome screen: a destination on the active path leaves down to it.
  expect(portolan.route { "root", "onboarding" }, { "leave onboarding_login" })
  expect(portolan.active_path(), { "root", "onboarding" })
end)

scenario("the dashboard's guard sends a logged-out user to the welcome screen", function()
  portolan.route { "root", "onboarding", "onboarding_login" }
  -- Redirected to { "root", "onboarding" }: what runs is the redirected route.
  expect(portolan.route { "root", "dashboard" }, { "leave onboarding_login" })
  expect(portolan.active_path(), { "root", "onboarding" })
  -- A deep link into a tab is redirected the same way; here there is nothing left to do.
  expect(portolan.route { "root", "dashboard", "watched", { id = "watched_movie", context = { id = 3 } } }, {})
  expect(portolan.active_path(), { "root", "onboarding" })
end)

scenario("once logged in, the dashboard opens on its first tab", function()
  login()
  expect(portolan.route { "root", "dashboard" }, { "switch root -> dashboard" })
  expect(portolan.active_path(), { "root", "dashboard", "wishlist" })
  expect(route_log, { "root/dashboard" })
end)

scenario("a deep link after login switches and enters in one route", function()
  login()
  expect(portolan.route { "root", "dashboard", "watched", { id = "watched_movie", context = { id = 3 } } }, {
    "switch root -> dashboard",
    "switch dashboard -> watched",
    "enter watched_movie {id=3}",
  })
  expect(portolan.active_path(), { "root", "dashboard", "watched", "watched_movie" })
end)

scenario("a route asked for by a handler is queued and runs before the outer route returns", function()
  -- onboarding_login logs a remembered user in and asks for the dashboard from its handler.
  local executed = portolan.route { "root", "onboarding", { id = "onboarding_login", context = { remembered = true } } }
  -- The outer route reports only its own instructions...
  expect(executed, { "enter onboarding_login {remembered=true}" })
  -- ...but the queued one has already run when it returns.
  assert(portolan.state.logged_in, "the handler logged in")
  expect(portolan.active_path(), { "root", "dashboard", "wishlist" })
  -- Both routes finished, in order.
  expect(route_log, { "root/onboarding/onboarding_login", "root/dashboard" })
end)

scenario("logging out goes back to the welcome screen and guards the dashboard again", function()
  login()
  expect(portolan.route { "root", "dashboard", "wishlist", { id = "wishlist_movie", context = { id = 42 } } }, {
    "switch root -> dashboard",
    "enter wishlist_movie {id=42}",
  })
  -- The movie is not managed by its tab, so it is left; the tab and the dashboard are managed
  -- by their switch nodes and stay alive behind the welcome screen.
  expect(logout(), { "leave wishlist_movie {id=42}", "switch root -> onboarding" })
  expect(portolan.active_path(), { "root", "onboarding" })
  expect(portolan.route { "root", "dashboard" }, {})
  expect(portolan.active_path(), { "root", "onboarding" })
  login()
  expect(portolan.route { "root", "dashboard" }, { "switch root -> dashboard" })
  expect(portolan.active_path(), { "root", "dashboard", "wishlist" })
end)
