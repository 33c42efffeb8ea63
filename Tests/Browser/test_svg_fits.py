"""The SVG scales to its container and nothing drawn is cut off: `portolan graph --format svg`
and the coverage page, for the demo app and for an app whose anywhere frame is wider than the
window, in a 1280×800 window."""
import os
import pathlib
import subprocess
import tempfile
import unittest

import browser

# Every drawn element's box (its stroke included) against the SVG's box on screen, the SVG's box
# against the window's width, and every box around the SVG for a horizontal scroll.
CLIPPED = r"""
const svg = document.querySelector('svg.portolan-graph');
if (!svg) { return ['no svg.portolan-graph on the page']; }
const problems = [];
const view = svg.getBoundingClientRect();
const page = document.documentElement;
const width = page.clientWidth;
if (view.width < 50 || view.height < 50) { problems.push('the svg is only ' + view.width + '×' + view.height); }
if (view.left < -0.5 || view.right > width + 0.5) {
  problems.push('the svg spans ' + view.left + '…' + view.right + ' of a window ' + width + ' wide');
}
if (page.scrollWidth > width + 1) { problems.push('the page scrolls sideways: ' + page.scrollWidth + ' > ' + width); }
for (let box = svg.parentElement; box; box = box.parentElement) {
  if (box.scrollWidth > box.clientWidth + 1 && getComputedStyle(box).overflowX !== 'visible') {
    problems.push((box.id || box.tagName) + ' scrolls sideways: ' + box.scrollWidth + ' > ' + box.clientWidth);
  }
}
const scale = view.width / svg.viewBox.baseVal.width;
const drawn = svg.querySelectorAll('rect, text, path, circle, ellipse, line, polyline, polygon');
let checked = 0;
for (const element of drawn) {
  if (element.closest('defs, marker, title')) { continue; }
  const box = element.getBoundingClientRect();
  if (box.width === 0 && box.height === 0) { continue; }
  const stroke = getComputedStyle(element).stroke;
  const reach = stroke && stroke !== 'none' ? (parseFloat(getComputedStyle(element).strokeWidth) || 0) * scale / 2 : 0;
  checked += 1;
  const tolerance = 0.5;
  if (box.left - reach < view.left - tolerance || box.right + reach > view.right + tolerance
      || box.top - reach < view.top - tolerance || box.bottom + reach > view.bottom + tolerance) {
    const name = element.tagName + (element.getAttribute('class') ? '.' + element.getAttribute('class') : '')
      + ' "' + (element.textContent || '').slice(0, 40) + '"';
    problems.push(name + ' at ' + [box.left - reach, box.top - reach, box.right + reach, box.bottom + reach]
      .map(Math.round).join(',') + ' outside the svg ' + [view.left, view.top, view.right, view.bottom].map(Math.round).join(','));
  }
}
if (checked < 10) { problems.push('only ' + checked + ' drawn elements were found'); }
return problems;
"""

APPS = {
    "movies": ("Examples/movies/app.lua", sorted(pathlib.Path(browser.REPOSITORY, "Examples/movies/scenarios").glob("*.lua"))),
    "wide anywhere": ("Tests/Browser/apps/wide_anywhere.lua", [pathlib.Path(browser.REPOSITORY, "Tests/Browser/apps/wide_anywhere_scenarios.lua")]),
}


class SVGFitsTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.driver = browser.chromium(1280, 800)
        cls.directory = tempfile.TemporaryDirectory(prefix="portolan-svg-")

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.directory.cleanup()

    def graph_svg(self, app):
        result = subprocess.run([browser.binary(), "graph", "--format", "svg", app], cwd=browser.REPOSITORY,
                                check=True, capture_output=True, text=True)
        self.assertNotIn(' width="', result.stdout.split("\n")[1], "the svg element has no fixed width")
        path = os.path.join(self.directory.name, pathlib.Path(app).stem + ".svg")
        pathlib.Path(path).write_text(result.stdout)
        return path

    def coverage_page(self, app, scenarios):
        path = os.path.join(self.directory.name, pathlib.Path(app).stem + "-coverage.html")
        subprocess.run([browser.binary(), "test", "--app", app, "--coverage-html", path, *map(str, scenarios)],
                       cwd=browser.REPOSITORY, check=True, capture_output=True, text=True)
        return path

    def assert_nothing_clipped(self, path):
        self.driver.get(pathlib.Path(path).as_uri())
        browser.wait(self.driver, lambda d: d.execute_script("return document.readyState") == "complete", "the page loads")
        self.assertEqual(self.driver.execute_script("return window.innerWidth"), 1280)
        problems = self.driver.execute_script(CLIPPED)
        self.assertEqual(problems, [], f"{path}: " + "\n".join(problems))

    def test_the_graph_svg_fits(self):
        for name, (app, _) in APPS.items():
            with self.subTest(app=name):
                self.assert_nothing_clipped(self.graph_svg(app))

    def test_the_coverage_page_fits(self):
        for name, (app, scenarios) in APPS.items():
            with self.subTest(app=name):
                self.assert_nothing_clipped(self.coverage_page(app, scenarios))

    def test_the_wide_app_is_wider_than_the_window_and_scaled_down(self):
        """The wide app is a real test: drawn at its natural size it would not fit."""
        path = self.graph_svg(APPS["wide anywhere"][0])
        self.driver.get(pathlib.Path(path).as_uri())
        natural, shown = self.driver.execute_script(
            "const svg = document.querySelector('svg'); return [svg.viewBox.baseVal.width, svg.getBoundingClientRect().width];")
        self.assertGreater(natural, 1280)
        self.assertLessEqual(shown, 1280)


if __name__ == "__main__":
    unittest.main()
