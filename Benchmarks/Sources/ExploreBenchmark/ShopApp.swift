/// The shop app the exploration targets are set on (issue 36): 18 screens, four tabs that keep
/// their stacks, a login guard on the account and the checkout, a cart the app's state counts,
/// and `products` example products for each product screen. The number of reachable states grows
/// with `products` (and with the depth), so one generator gives apps of 10³ to 10⁵ states.
enum ShopApp {
    static func source(products: Int) -> String {
        let ids = (1...max(1, products)).map { "{ id = \($0) }" }.joined(separator: ", ")
        return """
            local portolan = require "portolan"

            portolan.initial_state { logged_in = false, cart = 0 }

            -- The account and the checkout need a logged-in user: the others are sent to log in,
            -- and come back where they were going once they have.
            local function needs_login()
              if not portolan.state.logged_in then return portolan.redirect("login", { resume = true }) end
            end

            local function add_to_cart()
              portolan.state.cart = math.min(portolan.state.cart + 1, 2)
            end

            portolan.app {
              id = "root", kind = "switch", active = "home", keep = true, back = "history",
              explore = {
                state = { logged_in = { true, false }, cart = { 0, 1 } },
                contexts = {
                  category = { { id = 1 }, { id = 2 } },
                  product = { \(ids) }, found = { \(ids) }, order = { { id = 1 } },
                },
              },
              children = {
                { id = "home", route = "/", children = {
                  { id = "category", route = "/categories/:id<int>", children = {
                    { id = "product", route = "/products/:id<int>", leave = add_to_cart, children = {
                      { id = "reviews", route = "/products/:id<int>/reviews" },
                    } },
                  } },
                } },
                { id = "search", route = "/search", children = {
                  { id = "results", route = "/search/results", children = {
                    { id = "found", route = "/search/products/:id<int>" },
                  } },
                } },
                { id = "cart", route = "/cart", children = {
                  { id = "checkout", route = "/checkout", guard = needs_login, children = {
                    { id = "payment", route = "/checkout/payment", children = {
                      { id = "confirmation", route = "/checkout/done" },
                    } },
                  } },
                } },
                { id = "account", route = "/account", guard = needs_login, children = {
                  { id = "orders", route = "/orders", children = {
                    { id = "order", route = "/orders/:id<int>" },
                  } },
                  { id = "profile", route = "/account/profile" },
                  { id = "wishlist", route = "/account/wishlist" },
                } },
              },
              anywhere = {
                { id = "login", route = "/login", leave = function() portolan.state.logged_in = true end },
              },
            }

            """
    }
}
