"""`portolan repl --inspect` beside the live tree (issue 25, §3): the declared graph with the app's
rules, the screens the session has not shown yet dimmed, and an event log that keeps every
failure's reason."""
import unittest

import browser


def graph_classes(driver, node_id):
    """The classes of the declared graph's box for `node_id`, or None when it is not drawn."""
    return driver.execute_script(
        "const n = document.querySelector(`#graph .nodes .node[data-id='${arguments[0]}']`);"
        "return n ? n.getAttribute('class').split(' ') : null;", node_id)


def event_texts(driver):
    return driver.execute_script("return [...document.querySelectorAll('#events li')].map(li => li.lastChild.textContent);")


class InspectorGraphTests(unittest.TestCase):
    def setUp(self):
        self.repl = browser.Repl("--inspect", "0")
        self.url = self.repl.inspector_url()
        self.driver = browser.chromium(1280, 800)
        self.driver.get(self.url)
        browser.wait(self.driver, lambda d: d.find_element("id", "status").text == "live", "the page's socket connects")
        browser.wait(self.driver, lambda d: graph_classes(d, "onboarding") is not None, "the page draws the declared graph")

    def tearDown(self):
        self.driver.quit()
        self.assertEqual(self.repl.close(), 0, "the REPL ends cleanly at the end of its input")

    def test_the_declared_graph_dims_the_screens_not_shown_yet(self):
        driver = self.driver
        # Every declared node is drawn, those never shown dimmed; the first active path is shown.
        self.assertIn("visited", graph_classes(driver, "onboarding"))
        for unseen in ("settings", "about", "wishlist_movie", "watched"):
            self.assertIn("unvisited", graph_classes(driver, unseen), unseen)
        opacity = driver.execute_script(
            "return getComputedStyle(document.querySelector(\"#graph .node[data-id='about']\")).opacity;")
        self.assertLess(float(opacity), 1.0, "an unvisited screen is dimmed")
        # The app's rules, as `portolan graph` draws them: where the dashboard's guard sends a route.
        graph_text = driver.find_element("id", "graph").get_attribute("textContent")
        self.assertIn("guard → root > onboarding", graph_text)
        self.assertIn("redirect /films/:id → /wishlist/movies/:id", graph_text)
        self.repl.type("/settings")
        browser.wait(driver, lambda d: "visited" in graph_classes(d, "settings"), "settings is no longer dimmed once shown")
        self.assertIn("active", graph_classes(driver, "settings"), "the active path is laid over the graph")
        self.assertIn("unvisited", graph_classes(driver, "about"))
        # The live tree is still there, apart from the graph.
        self.assertTrue(driver.find_elements("css selector", "#tree .nodes .node[data-id='settings']"))

    def test_older_failures_keep_their_reasons(self):
        driver = self.driver
        self.repl.type("/nowhere")
        self.repl.type("portolan.route { 'root', 'nowhere' }")
        self.repl.type("/settings")
        browser.wait(driver, lambda d: "did_route anywhere settings" in event_texts(d), "the last route is logged")
        failures = [text for text in event_texts(driver) if text.startswith("failed ")]
        self.assertEqual(len(failures), 2, event_texts(driver))
        self.assertIn("no route matches '/nowhere'", failures[0])
        self.assertIn("'nowhere'", failures[1].split(": ", 1)[1], "the second failure keeps its own reason")


if __name__ == "__main__":
    unittest.main()
