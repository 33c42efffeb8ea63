-- Deep links: opening screens by URL, as a push notification, another app or the website would.
-- Run: portolan test --app Examples/movies/app.lua Examples/movies/scenarios/*.lua
-- The app's links are listed at the top of Examples/movies/app.lua.

local portolan = require "portolan"

-- Routes `url`, expects it to fail with `kind` before anything ran, and returns the error.
local function fails(kind, url)
  local executed, err = portolan.route(url)
  expect(executed, nil, url)
  assert(type(err) == "table", "a failed route returns nil and an error table")
  expect(err.kind, kind, url)
  expect(err.executed, {}, url)
  return err
end

scenario("welcome and login have links of their own", function()
  expect(portolan.route "/login", { "enter onboarding_login" })
  expect(portolan.active_path(), { "root", "onboarding", "onboarding_login" })
  expect(portolan.route "/", { "leave onboarding_login" })
  expect(portolan.route "/welcome", {})
  expect(portolan.active_path(), { "root", "onboarding" })
end)

scenario("a cold-start link into a movie waits for login, then lands", function()
  expect(portolan.route "/login", { "enter onboarding_login" })
  -- Logged out: the dashboard's guard sends the link to the welcome screen and keeps it.
  expect(portolan.route "/wishlist/movies/42", { "leave onboarding_login" })
  expect(portolan.active_path(), { "root", "onboarding" })
  expect(pending_link, "/wishlist/movies/42")
  expect(route_log, { "root/onboarding/onboarding_login", "root/onboarding" })

  -- After login the same link lands: the tab bar, then the movie, in one route.
  login()
  expect(portolan.route(pending_link), { "switch root -> dashboard", "enter wishlist_movie {id=42}" })
  expect(portolan.active_path(), { "root", "dashboard", "wishlist", "wishlist_movie" })
  local movie = portolan.active_entries()[4]
  expect(movie.context, { id = 42 })
  expect(math.type(movie.context.id), "integer", "`:id<int>` reaches the screen as a number")
  -- A link is an address, not a new screen each time: opening it again does nothing.
  expect(portolan.route "/wishlist/movies/42", {})
  expect(portolan.route { "root", "dashboard", "wishlist", { id = "wishlist_movie", context = { id = 42 } } }, {})
end)

scenario("the app's own scheme opens a movie from a notification", function()
  login()
  expect(portolan.route "myapp://movie/7", { "switch root -> dashboard", "enter wishlist_movie {id=7}" })
  expect(portolan.active_path(), { "root", "dashboard", "wishlist", "wishlist_movie" })
  -- Schemes are not case-sensitive.
  expect(portolan.route "MyApp://movie/8", { "leave wishlist_movie {id=7}", "enter wishlist_movie {id=8}" })
  -- In a custom-scheme URL the host is the first segment: myapp://watched is /watched. The tab bar
  -- keeps the wishlist's stack (keep = true).
  expect(portolan.route "myapp://watched", { "switch dashboard -> watched" })
  fails("unreachable", "myapp://movie/latest")
end)

scenario("a link's query and fragment reach the movie screen without changing which movie it is", function()
  login()
  local seen
  portolan.intercept(function(request)
    if request.url then seen = { url = request.url, ref = request.query.ref, fragment = request.fragment } end
  end)
  expect(portolan.route "/wishlist/movies/42?ref=newsletter&utm=spring#trailer", {
    "switch root -> dashboard",
    "enter wishlist_movie {id=42}",
  })
  expect(last_link, { ref = "newsletter", section = "trailer" })
  expect(seen, { url = "/wishlist/movies/42?ref=newsletter&utm=spring#trailer", ref = "newsletter", fragment = "trailer" })
  -- The same movie from elsewhere: the screen is already showing, nothing runs.
  expect(portolan.route "/wishlist/movies/42?ref=push", {})
  expect(last_link, { ref = "newsletter", section = "trailer" })
  -- Another movie, from a link without query or fragment.
  expect(portolan.route "/wishlist/movies/43", { "leave wishlist_movie {id=42}", "enter wishlist_movie {id=43}" })
  expect(last_link, {})
  -- A route by ids is not a link: handlers and interceptors see no URL.
  seen = nil
  expect(portolan.route { "root", "dashboard", "wishlist", { id = "wishlist_movie", context = { id = 44 } } },
    { "leave wishlist_movie {id=43}", "enter wishlist_movie {id=44}" })
  expect(seen, nil)
  expect(last_link, {})
end)

scenario("old links are rewritten before matching, and web links open the same screens", function()
  login()
  expect(portolan.route "/films/5", { "switch root -> dashboard", "enter wishlist_movie {id=5}" })
  local match = portolan.match "/films/5"
  expect(match.url, "/wishlist/movies/5")
  expect(match.pattern, "/wishlist/movies/:id<int>")
  expect(portolan.route "https://movies.example.com/watched/movies/3?ref=web", {
    "switch dashboard -> watched",
    "enter watched_movie {id=3}",
  })
  expect(last_link, { ref = "web" })
  expect(route_log, { "root/dashboard/wishlist/wishlist_movie", "root/dashboard/watched/watched_movie" })
  -- Back in the wishlist, the movie it kept (5) gives way to the one the link names.
  expect(portolan.route "/movie?id=3", {
    "switch dashboard -> wishlist",
    "leave wishlist_movie {id=5}",
    "enter wishlist_movie {id=3}",
  })
  expect(portolan.match("/movie?id=3").url, "/wishlist/movies/3")
  -- An old link to a movie that cannot exist is rewritten, then leads nowhere.
  fails("unreachable", "/films/abc")
  fails("unreachable", "/movie?id=abc")
end)

scenario("a cast link enters the movie and the cast, each with its own context", function()
  login()
  local url = "/watched/movies/42/cast/7"
  local planned = portolan.plan(url)
  expect(planned, {
    "switch root -> dashboard",
    "switch dashboard -> watched",
    "enter watched_movie {id=42}",
    "enter watched_cast {id=7,movie=42}",
  })
  expect(portolan.active_path(), { "root", "onboarding" }, "plan changes nothing")
  expect(portolan.route(url), planned)
  local entries = portolan.active_entries()
  expect(entries[4].context, { id = 42 })
  expect(entries[5].context, { id = 7, movie = 42 })
  -- Another cast member of the same movie: only the cast screen changes.
  expect(portolan.route "/watched/movies/42/cast/8", {
    "leave watched_cast {id=7,movie=42}",
    "enter watched_cast {id=8,movie=42}",
  })
  -- Interceptors decide for links too: the cast of the coming-soon teaser is not announced.
  local err = fails("denied", "/wishlist/movies/0/cast/1")
  assert(tostring(err.message):find("coming-soon", 1, true), tostring(err.message))
  expect(portolan.active_path(), { "root", "dashboard", "watched", "watched_movie", "watched_cast" })
end)

scenario("settings have a link that opens them on top of any screen; about has none", function()
  expect(portolan.route "/settings", { "enter settings" })
  expect(portolan.active_path(), { "root", "onboarding", "settings" })
  expect(portolan.route "/settings", {})
  -- About only exists inside settings: no link leads to it alone.
  fails("unreachable", "/settings/about")
  expect(portolan.route { "root", "onboarding", "settings", "about" }, { "enter about" })
end)

scenario("malformed and unknown links fail without moving anything", function()
  login()
  expect(portolan.route "/wishlist", { "switch root -> dashboard" })
  local logged = #route_log
  fails("invalid", "/wishlist/movies/%zz")      -- a broken percent escape
  fails("invalid", "/wishlist/movies/4\1")      -- a control character
  fails("invalid", "/wishlist/" .. string.rep("x", 5000)) -- past the length cap
  fails("unreachable", "/nowhere")
  fails("unreachable", "/wishlist/movies/abc")  -- not a whole number
  fails("unreachable", "/wishlist/movies/42/trailer")
  local match, err = portolan.match "?"
  expect(match, nil)
  expect(err.kind, "invalid")
  local planned, plan_err = portolan.plan "/wishlist/movies/%zz"
  expect(planned, nil)
  expect(plan_err.kind, "invalid")
  expect(portolan.active_path(), { "root", "dashboard", "wishlist" })
  expect(#route_log, logged, "a link that leads nowhere is not a route")
end)

scenario("portolan.match tells where a link leads without going there", function()
  local match = portolan.match "/wishlist/movies/42/cast/7?ref=a&ref=b&debug#bio"
  expect(match.node, "wishlist_cast")
  expect(match.path, { "root", "dashboard", "wishlist", "wishlist_movie", "wishlist_cast" })
  expect(match.params, { movie = 42, id = 7 })
  expect(match.pattern, "/wishlist/movies/:movie<int>/cast/:id<int>")
  expect(match.query, { ref = "a", debug = true })
  expect(match.query_items, { { name = "ref", value = "a" }, { name = "ref", value = "b" }, { name = "debug" } })
  expect(match.fragment, "bio")
  expect(match.url, "/wishlist/movies/42/cast/7?ref=a&ref=b&debug#bio")
  -- Leading, trailing and repeated slashes do not matter; `/` is the welcome screen.
  expect(portolan.match("//watched///").node, "watched")
  expect(portolan.match("/").path, { "root", "onboarding" })
  expect(portolan.match("/settings").path, { "settings" })
  -- Matching runs no guard: the user is still logged out and on the welcome screen.
  expect(portolan.active_path(), { "root", "onboarding" })
  local nothing, err = portolan.match "/nowhere"
  expect(nothing, nil)
  expect(err.kind, "unreachable")
end)

scenario("one-shot routing: a deep link animates only its last step", function()
  login()
  -- Three instructions; the movie screen is the last, so it alone is animated.
  expect(portolan.route "/watched/movies/4", {
    "switch root -> dashboard", "switch dashboard -> watched", "enter watched_movie {id=4}",
  })
  expect(movie_animated, true)
  -- Here the movie screen comes first of two: it is shown at once, under the cast screen.
  portolan.route { "root", "dashboard", "wishlist" }
  portolan.route "/wishlist/movies/8/cast/2"
  expect(movie_animated, false)
end)
