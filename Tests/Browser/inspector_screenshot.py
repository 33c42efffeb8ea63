"""Takes the README's picture of the live inspector (docs/inspector.png): the demo app logged in,
a cast member open in the wishlist tab and settings on top, in a 1280×800 window.

    python3 Tests/Browser/inspector_screenshot.py [OUTPUT.png]
"""
import os
import sys

import browser

LINES = ["portolan.state.logged_in = true", "/wishlist/movies/42/cast/7", "/settings"]


def main():
    output = sys.argv[1] if len(sys.argv) > 1 else os.path.join(browser.REPOSITORY, "docs", "inspector.png")
    repl = browser.Repl("--inspect", "0")
    driver = None
    try:
        url = repl.inspector_url()
        driver = browser.chromium(1280, 800)
        driver.get(url)
        browser.wait(driver, lambda d: d.find_element("id", "status").text == "live", "the page's socket connects")
        for line in LINES:
            repl.type(line)
        repl.expect(lambda text: text.startswith("active: ") and text.endswith("settings"), "the route to settings")
        browser.wait(driver, lambda d: d.execute_script(
            "return !!document.querySelector('#tree .node.active[data-id=settings]')"), "the page shows settings")
        os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
        driver.save_screenshot(output)
        print(f"wrote {output}")
    finally:
        if driver:
            driver.quit()
        repl.close()


if __name__ == "__main__":
    main()
