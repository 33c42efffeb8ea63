-- Exhaustive scenarios: every router event is asserted, in order, in its canonical text.
-- Run: portolan test --app Examples/movies/app.lua Examples/movies/scenarios/events.lua
-- (`--exhaustive` on the command line does for every file what `exhaustive()` does here.)

local portolan = require "portolan"

-- Events left unasserted at the end of a scenario fail it, with a diff.
exhaustive()

scenario("a logged-out deep link is turned to the welcome screen, then resumed after login", function()
  portolan.route "/wishlist/movies/42"
  expect_events {
    "will_route root > dashboard > wishlist > wishlist_movie {id=42}",
    "redirected root > dashboard > wishlist > wishlist_movie {id=42} -> root > onboarding",
    "did_route root > onboarding",
  }
  login()
  portolan.resume()
  expect_events {
    "will_route root > dashboard > wishlist > wishlist_movie {id=42}",
    "switch root -> dashboard",
    "enter wishlist_movie {id=42}",
    "did_route root > dashboard > wishlist > wishlist_movie {id=42}",
  }
end)

scenario("settings with unsaved changes refuse to close, and nothing moves", function()
  portolan.route "/settings"
  portolan.state.settings_dirty = true
  portolan.route "/welcome"
  expect_events {
    "will_route anywhere settings",
    "enter settings",
    "did_route anywhere settings",
    "will_route root > onboarding",
    "failed blocked root > onboarding",
  }
  expect(portolan.active_path(), { "root", "onboarding", "settings" })
end)
