-- Enough routes for the coverage page to colour some of the wide app, and leave some uncovered.
local portolan = require "portolan"

scenario("a prompt on top of home", function()
  expect(portolan.route "/prompts/notification-permission/first-launch", { "enter notification_permission_prompt {reason=first-launch}" })
end)

scenario("a search", function()
  expect(portolan.route "/search/movies", { "switch root -> search {query=movies}" })
end)
