"""`portolan repl --inspect`: the real binary, its page in headless Chromium, routes typed at the
REPL. The page follows without a reload; a taken port is refused politely; pages that close,
vanish or never read never stop the REPL; another page, or the address without its token, reads
nothing."""
import base64
import http.server
import os
import socket
import subprocess
import threading
import unittest
from urllib.parse import urlparse

import browser


def event_texts(driver):
    """The event log's lines, without their numbers."""
    return driver.execute_script("return [...document.querySelectorAll('#events li')].map(li => li.lastChild.textContent);")


def active_ids(driver):
    return driver.execute_script(
        "return [...document.querySelectorAll('#tree .nodes .node.active')].map(n => n.getAttribute('data-id'));")


class RawSocketClient:
    """A WebSocket client at the byte level: it opens `/live` and then reads nothing, or vanishes."""

    def __init__(self, url):
        parsed = urlparse(url)
        self.socket = socket.create_connection((parsed.hostname, parsed.port), timeout=browser.PATIENCE)
        key = base64.b64encode(os.urandom(16)).decode()
        # What the page's own WebSocket sends: its origin, and the token of its address.
        self.socket.sendall((
            f"GET /live?{parsed.query} HTTP/1.1\r\nHost: {parsed.hostname}:{parsed.port}\r\n"
            f"Origin: http://{parsed.hostname}:{parsed.port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        self.socket.settimeout(browser.PATIENCE)
        handshake = self.socket.recv(4096)
        assert handshake.startswith(b"HTTP/1.1 101"), handshake[:200]
        # Read as little as the kernel lets it: a reader that never keeps up.
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)

    def vanish(self):
        """Gone mid-stream, without a close frame: a reset the server sees on its next send."""
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        self.socket.close()


class InspectorTests(unittest.TestCase):
    def setUp(self):
        self.repl = browser.Repl("--inspect", "0")
        self.url = self.repl.inspector_url()
        self.drivers = []

    def tearDown(self):
        for driver in self.drivers:
            driver.quit()
        self.assertEqual(self.repl.close(), 0, "the REPL ends cleanly at the end of its input")

    def open_page(self):
        driver = browser.chromium(1280, 800)
        self.drivers.append(driver)
        driver.get(self.url)
        browser.wait(driver, lambda d: d.find_element("id", "status").text == "live", "the page's socket connects")
        browser.wait(driver, lambda d: "onboarding" in active_ids(d), "the page shows the demo's first active path")
        return driver

    def route(self, line, settled):
        self.repl.type(line)
        return self.repl.expect(lambda text: text.startswith("active: ") and text.endswith(settled), f"active: … {settled}")

    def test_the_page_follows_routes_without_a_reload(self):
        driver = self.open_page()
        driver.execute_script("window.portolanMarker = 'no reload';")
        sequence = int(driver.find_element("tag name", "body").get_attribute("data-sequence"))
        self.route("/settings", "settings")
        browser.wait(driver, lambda d: "settings" in active_ids(d), "the tree shows settings on the active path")
        self.assertEqual(active_ids(driver), ["root", "onboarding", "settings"])
        self.assertIn("root > onboarding > settings", driver.find_element("id", "active-path").text)
        # RouterEvent.description, as the REPL's router gave them.
        self.assertEqual(event_texts(driver)[-3:], ["will_route anywhere settings", "enter settings", "did_route anywhere settings"])
        self.assertEqual(driver.find_element("id", "route-instructions").text, "enter settings")
        self.assertGreater(int(driver.find_element("tag name", "body").get_attribute("data-sequence")), sequence)
        self.assertEqual(driver.execute_script("return window.portolanMarker;"), "no reload")

    def test_a_failed_route_shows_its_failure(self):
        driver = self.open_page()
        self.repl.type("portolan.route { 'root', 'nowhere' }")
        browser.wait(driver, lambda d: d.find_element("id", "route-failure").text.startswith("failed: "),
                     "the last route's failure is shown")
        self.assertTrue(any(text.startswith("failed ") for text in event_texts(driver)), event_texts(driver))

    def test_closing_pages_and_vanishing_clients_never_stop_the_repl(self):
        driver = self.open_page()
        driver.quit()
        self.drivers.remove(driver)
        stalled = [RawSocketClient(self.url) for _ in range(8)]
        vanishing = [RawSocketClient(self.url) for _ in range(8)]
        for client in vanishing:
            client.vanish()
        # Many routes while eight clients never read: each keeps one state at most, and the
        # REPL answers every line.
        for number in range(60):
            self.route("/settings" if number % 2 == 0 else "/welcome", "settings" if number % 2 == 0 else "onboarding")
        for client in stalled:
            client.vanish()
        self.route("/settings", "settings")
        self.assertIsNone(self.repl.process.poll(), "the REPL is still running")
        # A new page still gets the live state.
        driver = self.open_page()
        browser.wait(driver, lambda d: "settings" in active_ids(d), "a new page shows where the REPL stands")

    def test_the_address_without_its_token_shows_nothing(self):
        self.assertIn("?token=", self.url)
        driver = browser.chromium(1280, 800)
        self.drivers.append(driver)
        driver.get(self.url.split("?")[0])
        text = driver.find_element("tag name", "body").text
        self.assertIn("token", text, "a short reason")
        self.assertNotIn("Portolan inspector", text)
        self.assertEqual(driver.find_elements("id", "tree"), [])

    def test_another_page_cannot_read_the_inspector_even_with_its_token(self):
        # A page of another origin (another port of 127.0.0.1), which knows the whole address:
        # the WebSocket and the fetch of the state are both refused, by their Origin.
        target = urlparse(self.url)
        script = f"""<!DOCTYPE html><title>waiting</title><script>
          var results = [];
          function done(what) {{ results.push(what); if (results.length === 2) document.title = results.sort().join(' '); }}
          var socket = new WebSocket('ws://{target.hostname}:{target.port}/live?{target.query}');
          socket.onopen = function () {{ done('socket:open'); }};
          socket.onclose = function () {{ done('socket:refused'); }};
          fetch('http://{target.hostname}:{target.port}/state?{target.query}')
            .then(function (r) {{ return r.text(); }})
            .then(function () {{ done('state:read'); }}, function () {{ done('state:refused'); }});
        </script>""".encode()

        class ForeignPage(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.end_headers()
                self.wfile.write(script)

            def log_message(self, *arguments):
                pass

        foreign = http.server.HTTPServer(("127.0.0.1", 0), ForeignPage)
        threading.Thread(target=foreign.serve_forever, daemon=True).start()
        try:
            driver = browser.chromium(1280, 800)
            self.drivers.append(driver)
            driver.get(f"http://127.0.0.1:{foreign.server_address[1]}/")
            browser.wait(driver, lambda d: d.title != "waiting", "the foreign page's two attempts end")
            self.assertEqual(driver.title, "socket:refused state:refused")
        finally:
            foreign.shutdown()
            foreign.server_close()


class InspectorPortTests(unittest.TestCase):
    def test_a_taken_port_is_refused_politely(self):
        holder = socket.socket()
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        try:
            result = subprocess.run([browser.binary(), "repl", "--inspect", str(port)], input="/settings\n",
                                    capture_output=True, text=True, timeout=browser.PATIENCE)
        finally:
            holder.close()
        self.assertEqual(result.returncode, 1)
        self.assertIn(f"port {port}", result.stderr)
        self.assertIn("--inspect PORT", result.stderr)
        self.assertIn("--inspect 0", result.stderr)
        self.assertNotIn("active:", result.stdout, "no line is run without the inspector asked for")

    def test_inspect_alone_uses_the_default_port(self):
        repl = browser.Repl("--inspect")
        try:
            line = repl.expect(lambda text: text.startswith("inspector: ") or "7357" in text, "the inspector's line")
        finally:
            repl.close()
        # Another program (or another test run) may hold 7357: then the refusal names it.
        self.assertIn("7357", line)


if __name__ == "__main__":
    unittest.main()
