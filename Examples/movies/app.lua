-- Movies: Portolan's demo app, shaped like the demo app of RxFlow.
--
-- This file is the whole navigation of the app: which screens exist, how they nest, and what
-- happens when one is shown or hidden. A product person can change it without touching Swift.
-- Here the handlers only print what a real UI would do; in the iOS app the same ids are bound
-- to view controllers.
--
--   root                      switch: shows one of its children at a time
--   ├── onboarding            the welcome screen
--   │   └── onboarding_login  the login screen, pushed on it
--   └── dashboard             switch: the tab bar, guarded until the user is logged in
--       ├── wishlist          tab 1: list → movie → cast member
--       │   └── wishlist_movie {id=…}             pushes related
--       │       ├── wishlist_cast {id=…}
--       │       └── related {id=…}                pushes related: related → related → …
--       └── watched           tab 2: the same stack, with its own ids
--           └── watched_movie {id=…}              pushes related
--               └── watched_cast {id=…}
--   anywhere (shown on top of whatever screen is showing):
--   ├── settings              can refuse to close while there are unsaved changes
--   │   └── about
--   └── alert {message=…}
--
-- Every id is unique in the app, which is why both tabs have their own movie and cast ids.
-- `related` is the other way to share a screen: declared once, and pushed (`push = { "related" }`)
-- on top of either tab's movie and on top of itself, any number of times, each copy with its own
-- movie id. Each push stays in the stack of the tab it was pushed in, and the tab keeps it:
--   portolan.push { id = "related", context = { id = 7 } }
--
-- Deep links: each screen a link can open has a `route`, the URL that shows it. A link is
-- routed like any other route (guards and interceptors still decide), so a logged-out user who
-- taps a movie link lands on the welcome screen.
--
--   /  or  /welcome                         onboarding
--   /login                                  onboarding_login
--   /wishlist                               wishlist (the dashboard on its first tab)
--   /wishlist/movies/42                     wishlist_movie {id=42}
--   /wishlist/movies/42/cast/7              wishlist_movie {id=42}, then wishlist_cast {id=7,movie=42}
--   /watched, /watched/movies/…, …/cast/…   the same for the watched tab
--   myapp://movie/42                        wishlist_movie {id=42}: the app's own scheme, for
--                                           push notifications and other apps
--   /settings                               settings, on top of whatever is showing
--   /films/42, /movie?id=42                 old links: rewritten to /wishlist/movies/42
--   https://movies.example.com/wishlist/…   the website's links open the same screens: a route
--                                           without a host matches the path of a web link
--
-- `:id<int>` is a whole number; the screen gets it as a number (entry.context.id == 42), and a
-- link such as /wishlist/movies/abc leads nowhere. A link may carry a query (?ref=newsletter)
-- and a fragment (#trailer): handlers see them as info.query and info.fragment, and they do not
-- change which screen is shown. About and alerts have no link: about only exists inside
-- settings, and alerts are shown by the app itself.
-- Reading the rest: a screen can show one child on top of itself (a push or a modal); a switch
-- node keeps all its children alive and shows exactly one (`active` says which one at start).
--
-- A handler gets (node, entry, info): `entry.id` and `entry.context` (the values the route
-- passed, e.g. { id = 42 }) say what to show. A handler succeeds by returning nothing (or true)
-- and fails by returning false, "why" or by raising an error; a failed handler stops its route.

local portolan = require "portolan"

-- The state the rules below look at, in portolan.state: a reload of this file keeps it, and a
-- snapshot saves it (docs/snapshots.md). Scenarios and the REPL read and change it:
--   portolan.state.logged_in = true
local state = portolan.initial_state {
  logged_in = false,          -- the dashboard is only reachable once this is true
  settings_dirty = false,     -- unsaved changes in settings: settings refuse to close
  cast_service_down = false,  -- simulates a backend outage: cast screens fail to load
}

-- What the last routes did, for scenarios and the REPL to look at: globals, which a reload sets
-- afresh and a snapshot does not keep.
route_log = {}             -- one line per finished route: where it went (see the end of the file)
last_link = nil            -- what the last deep link into a movie asked for: { ref =, section = }
pending_link = nil         -- a link the dashboard's guard turned away, to open after login
shown_movie = nil          -- the movie screen the last route showed, as its context task saw it
movie_animated = nil       -- whether the last movie screen was entered with an animation

-- Helpers for scenarios and the REPL: `login()` then `/wishlist` (or `/root/dashboard`).
function login()
  state.logged_in = true
end

-- Logs out and goes back to the welcome screen; returns what the route returns.
function logout()
  state.logged_in = false
  return portolan.route { "root", "onboarding" }
end

-- An entry's context, or an empty one when the route passed none.
local function context(entry)
  return entry.context or {}
end

-- The step being run, as Portolan writes it ("enter wishlist_movie {id=42}"), to make the
-- printed log easier to follow; empty when the host gives no info.
local function step(info)
  if type(info) == "table" and info.instruction ~= nil then
    return "  [" .. tostring(info.instruction) .. "]"
  end
  return ""
end

-- A related movie: one screen for both tabs, declared once (below the wishlist's movie) and pushed
-- by either tab's movie screen and by itself, so a user can follow "related" links as far as they
-- like: movie 42 → related 7 → related 9 → … The root's max_copies bounds how many stack up.
-- `push_new`: a double tap on a related link pushes it once (a push of the related movie already
-- on top does nothing); any other push, of another movie or of one lower down, is a new copy.
-- `key = "id"`: the movie's id makes the screen, so the same movie in another sort order
-- (`{ id = 7, sort = "year" }`) is the same screen, updated in place (`update`), not a new copy.
local related = {
  id = "related",
  push = { "related" },
  launch = "push_new",
  key = "id",
  update = function(node, entry, info)
    print("sort RelatedMovie " .. tostring(context(entry).id) .. " by " .. tostring(context(entry).sort or "relevance"))
  end,
  enter = function(node, entry, info)
    local movie_id = context(entry).id
    if movie_id == nil then
      return false, "a related movie needs a movie id, e.g. portolan.push { id = \"related\", context = { id = 7 } }"
    end
    print("push RelatedMovie " .. tostring(movie_id) .. step(info))
  end,
  leave = function(node, entry, info)
    print("pop RelatedMovie " .. tostring(context(entry).id) .. step(info))
  end,
  -- A related movie brought back to the front of the chain, or one put in under another, moves
  -- within the stack without being shown again.
  move = function(node, entry, info)
    local under = info.under and ("under RelatedMovie " .. tostring(context(info.under).id)) or "to the top"
    print("move RelatedMovie " .. tostring(context(entry).id) .. " " .. under .. step(info))
  end,
}

-- A movie screen: the same rules for both tabs, only the tab name differs. `routes` are its
-- links: /wishlist/movies/42 for the wishlist's movie 42, and so on. `more` are children only
-- this tab's movie declares (the related screen, declared once, under the wishlist's).
local function movie(id, tab, routes, more)
  local children = {
    {
      id = tab .. "_cast",
      -- The cast member's link names the movie too; the movie screen below it takes its id
      -- from its own route, the cast screen gets both: { id = 7, movie = 42 }.
      route = "/" .. tab .. "/movies/:movie<int>/cast/:id<int>",
      enter = function(node, entry, info)
        if state.cast_service_down then
          error("cast service unavailable")
        end
        print("show CastDetail " .. tostring(context(entry).id) .. step(info))
      end,
      leave = function(node, entry, info)
        print("pop CastDetail " .. tostring(context(entry).id) .. step(info))
      end,
    },
  }
  for _, child in ipairs(more or {}) do children[#children + 1] = child end
  return {
    id = id,
    route = routes,
    push = { "related" },
    enter = function(node, entry, info)
      local movie_id = context(entry).id
      if movie_id == nil then
        -- Refuse rather than show an empty screen: the route fails with kind "handler_failed".
        return false, "a movie screen needs a movie id, e.g. { id = \"" .. id .. "\", context = { id = 42 } }"
      end
      print("show MovieDetail " .. tostring(movie_id) .. " in " .. tab .. step(info))
      -- A deep link shows its screens at once and animates only the last (one-shot routing).
      movie_animated = info.animated
      if info.url ~= nil then
        -- Opened by a link: ?ref= says where it came from (analytics), #trailer which part of
        -- the screen to scroll to.
        last_link = { ref = info.query.ref, section = info.fragment }
      end
    end,
    leave = function(node, entry, info)
      print("pop MovieDetail " .. tostring(context(entry).id) .. step(info))
    end,
    -- After every route that ends at or passes through this screen, entered now or already
    -- showing: the screen takes the route's context (RouteComposer's context task).
    context_task = function(node, entry, info)
      shown_movie = { tab = tab, id = context(entry).id }
    end,
    children = children,
  }
end

-- A tab: a list screen at the bottom of its own navigation stack. Tabs are never entered or
-- left on their own: the dashboard switches between them (its `switch` handler below).
local function tab(id, movie_routes, more)
  return {
    id = id,
    route = "/" .. id,
    children = { movie(id .. "_movie", id, movie_routes, more) },
  }
end

portolan.app {
  id = "root", kind = "switch", active = "onboarding",
  -- However far a user follows related movies, a stack holds at most 8 copies of one screen.
  max_copies = 8,
  -- What `portolan explore` changes besides what a user does (docs/explore.md): logging in and
  -- out (the outage switch and unsaved settings are left as they are: they fail on purpose); and
  -- an example of the related movie's context, which no route pattern or scenario literal gives.
  explore = { state = { logged_in = { true, false } }, contexts = { related = { { id = 7 } } } },
  -- Version 2 of these rules: the wishlist tab was called "favorites" in version 1, and its movie
  -- screen had a trailer screen on top, since removed. A state saved by version 1 (a snapshot,
  -- docs/snapshots.md) is restored under these rules by this migration (scenarios/snapshots.lua).
  version = 2,
  migrations = {
    [2] = { renamed = { favorites = "wishlist", favorites_movie = "wishlist_movie" }, removed = { "trailer" } },
  },
  switch = function(node, entry, info)
    print("replace the window's root with " .. entry.id .. step(info))
  end,
  children = {
    {
      id = "onboarding",
      route = { "/", "/welcome" },
      children = {
        {
          id = "onboarding_login",
          route = "/login",
          enter = function(node, entry, info)
            print("push Login" .. step(info))
            -- Handlers may take their time: this one waits for the push animation, and the
            -- route waits for it (within the host's timeout).
            portolan.wait(0.01)
            if context(entry).remembered then
              -- A remembered session: log in and go on to the dashboard. A route asked for
              -- from a handler is queued: it runs right after this one has finished. Do not
              -- `return` its result: a handler returns nothing, true, or false.
              login()
              portolan.route { "root", "dashboard" }
            end
          end,
          leave = function(node, entry, info)
            print("pop Login" .. step(info))
          end,
        },
      },
    },
    {
      id = "dashboard", kind = "switch", active = "wishlist",
      -- A tab bar: switching tabs keeps each tab's stack, and switching back shows it again. Back
      -- at a tab's root returns to the tab shown before, each tab once (React Navigation's
      -- backBehavior "history"; "first", "order" and the others are in docs/rules.md).
      keep = true, back = "history",
      -- Asked before every route that goes to the dashboard or below it, even from inside it:
      -- until the user has logged in, send them to the welcome screen instead. `resume = true`
      -- sets the destination aside: after login, portolan.resume() goes on to it.
      guard = function(node, request)
        if not state.logged_in then
          -- The link itself is kept too, to show how an app reads a turned-away URL; not by a
          -- plan (portolan.plan, :plan), which asks the guard without routing.
          if not request.dry_run then pending_link = request.url end
          return portolan.redirect({ "root", "onboarding" }, { resume = true })
        end
      end,
      switch = function(node, entry, info)
        print("select tab " .. entry.id .. step(info))
      end,
      children = {
        -- A movie link without a tab (myapp://movie/42) opens the movie in the wishlist.
        tab("wishlist", { "/wishlist/movies/:id<int>", "myapp://movie/:id<int>" }, { related }),
        tab("watched", "/watched/movies/:id<int>"),
      },
    },
  },

  -- Nodes that can be shown on top of whatever screen is showing, e.g. portolan.route "settings".
  anywhere = {
    {
      id = "settings",
      route = "/settings",
      enter = function(node, entry, info)
        print("present Settings" .. step(info))
      end,
      -- Asked before a route leaves settings; false blocks the route (kind "blocked") before
      -- anything has moved.
      can_leave = function(node, entry)
        return not state.settings_dirty
      end,
      leave = function(node, entry, info)
        print("dismiss Settings" .. step(info))
      end,
      children = {
        {
          id = "about",
          enter = function(node, entry, info) print("push About" .. step(info)) end,
          leave = function(node, entry, info) print("pop About" .. step(info)) end,
        },
      },
    },
    {
      id = "alert",
      enter = function(node, entry, info)
        print("present Alert " .. tostring(context(entry).message or "") .. step(info))
      end,
      leave = function(node, entry, info)
        print("dismiss Alert" .. step(info))
      end,
    },
  },
}

-- Old links keep working: /films/42 was the movie page before the app had tabs.
portolan.redirect_rule("/films/:id", "/wishlist/movies/:id")

-- The first version of the app put the movie in the query: /movie?id=42. A rule can be a
-- function of the URL: it returns the new URL, or nothing to leave the URL alone.
portolan.redirect_rule(function(url)
  local id = url:match("^/movie%?id=(%d+)$")
  if id then
    return "/wishlist/movies/" .. id
  end
end)

-- The id of an entry of a request, whether the host passed an entry table or a plain id.
local function entry_id(entry)
  if type(entry) == "table" then return entry.id end
  return entry
end

local function entry_context(entry)
  if type(entry) == "table" then return entry.context or {} end
  return {}
end

-- Movie 0 is the "coming soon" teaser: its cast is not announced yet, so no route may show a
-- cast screen on top of it, whichever tab it is in. Every route is asked first.
portolan.intercept(function(request)
  local movie_id
  for _, entry in ipairs(request.destination or {}) do
    local id = entry_id(entry)
    if type(id) == "string" then
      if id:sub(-6) == "_movie" then
        movie_id = entry_context(entry).id
      elseif id:sub(-5) == "_cast" and movie_id == 0 then
        return portolan.deny("the cast of a coming-soon title is not announced yet")
      end
    end
  end
end)

-- What analytics would see: after each route that finished, where it went, as ids
-- ("root/dashboard", or "settings" for a route to settings), after any redirect. Failed routes
-- are not logged here (they emit "failed"). Observers get (executed, destination).
portolan.on("did_route", function(executed, destination)
  local ids = {}
  for i, entry in ipairs(destination or {}) do ids[i] = tostring(entry_id(entry)) end
  route_log[#route_log + 1] = table.concat(ids, "/")
end)

-- Flows and steps, as RxFlow has them: a screen says what happened (a step), and the flow decides
-- where that leads. portolan.step("movie_picked", { id = 42 }) opens the movie in the wishlist.
portolan.flow {
  name = "movies",
  steps = {
    movie_picked = function(payload)
      return { "root", "dashboard", "wishlist", { id = "wishlist_movie", context = { id = payload.id } } }
    end,
    settings_wanted = function() return "settings" end,
  },
  -- Before login a picked movie is not shown: the flow turns the step into a request to log in.
  adapt = function(step, payload)
    if step == "movie_picked" and not state.logged_in then return "login_needed", payload end
  end,
}

portolan.flow {
  name = "onboarding",
  steps = { login_needed = function() return { "root", "onboarding", "onboarding_login" } end },
}
