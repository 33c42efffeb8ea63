-- An app whose nodes reachable from anywhere make a frame wider than a 1,280 px window: the
-- browser tests check that the SVG and the coverage page scale it and cut nothing off.
local portolan = require "portolan"

local function prompt(id, route)
  return { id = id, route = route, children = { { id = id .. "_details_with_a_long_name" } } }
end

portolan.app {
  id = "root", kind = "switch", active = "home",
  children = {
    { id = "home", route = "/home" },
    { id = "search", route = "/search/:query" },
  },
  anywhere = {
    prompt("notification_permission_prompt", "/prompts/notification-permission/:reason"),
    prompt("location_permission_prompt", "/prompts/location-permission/:reason"),
    prompt("subscription_upsell_sheet", "/sheets/subscription-upsell/:campaign"),
    prompt("account_verification_banner", "/banners/account-verification/:state"),
    prompt("terms_of_service_update_dialog", "/dialogs/terms-of-service/:version"),
  },
}
