-- Guards that hold and resume: the dashboard's guard turns a logged-out user away from every
-- route into the dashboard, remembers where they were going, and portolan.resume() takes them
-- there after login. portolan.refresh() asks the guards again when the state they read changes.
-- Run with: portolan test --app Examples/movies/app.lua Examples/movies/scenarios/guards.lua

scenario("a login-gated deep link resumes after login", function()
  expect(portolan.route "/wishlist/movies/42", {})
  expect(portolan.active_path(), { "root", "onboarding" })
  local function entry(id, context) return { id = id, context = context or {} } end
  expect(portolan.pending(), {
    entry("root"), entry("dashboard"), entry("wishlist"), entry("wishlist_movie", { id = 42 }),
  })
  login()
  expect(portolan.resume(), { "switch root -> dashboard", "enter wishlist_movie {id=42}" })
  expect(portolan.active_path(), { "root", "dashboard", "wishlist", "wishlist_movie" })
  -- Resumed once: nothing is pending any more.
  expect(portolan.pending(), nil)
  expect(portolan.resume(), nil)
end)

scenario("a route the user asks for forgets the pending destination", function()
  portolan.route "/watched/movies/7"
  expect(portolan.pending() ~= nil, true)
  portolan.route "/login"
  expect(portolan.pending(), nil)
end)

scenario("the guard holds inside the dashboard: a logged-out user cannot switch tabs", function()
  login()
  expect(portolan.route "/wishlist/movies/1", { "switch root -> dashboard", "enter wishlist_movie {id=1}" })
  portolan.state.logged_in = false   -- the session expired; nothing routed yet
  -- The dashboard is already on the path, and its guard still decides.
  expect(portolan.route { "root", "dashboard", "watched" }, { "leave wishlist_movie {id=1}", "switch root -> onboarding" })
  expect(portolan.active_path(), { "root", "onboarding" })
end)

scenario("a logout followed by portolan.refresh() leaves the guarded screens", function()
  login()
  portolan.route "/watched/movies/3"
  portolan.state.logged_in = false
  local redirects = {}
  portolan.on("redirected", function(to, from) redirects[#redirects + 1] = { from = from[2].id, to = to[2].id } end)
  -- The guards run for the active path, as if routing to it; the redirect routes to the welcome screen.
  expect(portolan.refresh(), { "leave watched_movie {id=3}", "switch root -> onboarding" })
  expect(portolan.active_path(), { "root", "onboarding" })
  expect(redirects, { { from = "dashboard", to = "onboarding" } })
  -- Nothing changed since: refreshing again does nothing.
  expect(portolan.refresh(), {})
end)

scenario("a redirect loop fails as invalid and names the chain", function()
  login()
  portolan.intercept(function(request)
    if request:goes_to("watched") then return portolan.redirect { "root", "dashboard", "wishlist" } end
    if request:goes_to("wishlist") then return portolan.redirect { "root", "dashboard", "watched" } end
  end)
  local executed, err = portolan.route { "root", "dashboard", "watched" }
  expect(executed, nil)
  expect(err.kind, "invalid")
  expect(err.redirect_chain, "loop")   -- it came back to where it started; "too_long" would say it went on
  expect(err.message, "redirect loop: 'root > dashboard > watched' → 'root > dashboard > wishlist' → 'root > dashboard > watched'")
  expect(portolan.active_path(), { "root", "onboarding" })
end)
