"""What the browser tests share: the built binary, headless Chromium through Selenium, and a
REPL process whose output is read as it comes.

Every wait is a WebDriverWait (or a queue read) with a generous limit, never a sleep that
decides a result: the tests run on busy two-core machines.
"""
import os
import queue
import shutil
import subprocess
import tempfile
import threading

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

REPOSITORY = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# Generous: a first page load in a cold Chromium on a loaded machine can take many seconds.
PATIENCE = 60


def binary():
    """The built `portolan`: $PORTOLAN_BINARY, or the debug build's."""
    explicit = os.environ.get("PORTOLAN_BINARY")
    if explicit:
        return explicit
    bin_path = subprocess.run(
        ["swift", "build", "--show-bin-path"], cwd=REPOSITORY, check=True, capture_output=True, text=True
    ).stdout.strip()
    return os.path.join(bin_path, "portolan")


def chromium(width=1280, height=800):
    """A headless Chromium with a fresh profile, its window `width` × `height`."""
    options = webdriver.ChromeOptions()
    for candidate in ("/usr/bin/chromium", "/usr/bin/chromium-browser"):
        if os.path.exists(candidate):
            options.binary_location = candidate
            break
    profile = tempfile.mkdtemp(prefix="portolan-chromium-")
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}", f"--user-data-dir={profile}", "--hide-scrollbars"):
        options.add_argument(argument)
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
    driver.set_page_load_timeout(PATIENCE)
    driver.set_script_timeout(PATIENCE)
    # The page's own size, whatever the window's decorations take: what a 1280×800 screen shows.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    original_quit = driver.quit

    def quit_and_clean():
        try:
            original_quit()
        finally:
            shutil.rmtree(profile, ignore_errors=True)

    driver.quit = quit_and_clean
    return driver


def wait(driver, condition, message):
    return WebDriverWait(driver, PATIENCE, poll_frequency=0.1).until(condition, message)


class Repl:
    """`portolan repl ARGS` with its standard input kept open: lines are typed with `type`, and
    what it prints is read line by line with `expect`."""

    def __init__(self, *arguments):
        self.process = subprocess.Popen(
            [binary(), "repl", *arguments], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, bufsize=1, cwd=REPOSITORY)
        self.lines = queue.Queue()
        self.seen = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def type(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def expect(self, predicate, what):
        """The first line from now on that `predicate` accepts; fails after PATIENCE seconds."""
        while True:
            try:
                line = self.lines.get(timeout=PATIENCE)
            except queue.Empty:
                raise AssertionError(f"the REPL never printed {what}; it printed: {self.seen[-20:]}")
            if line is None:
                raise AssertionError(f"the REPL ended before printing {what}; it printed: {self.seen[-20:]}")
            self.seen.append(line)
            if predicate(line):
                return line

    def inspector_url(self):
        line = self.expect(lambda text: text.startswith("inspector: http://"), "the inspector's address")
        return line.split()[1]

    def close(self):
        if self.process.poll() is None:
            try:
                self.process.stdin.close()
            except BrokenPipeError:
                pass
            try:
                self.process.wait(timeout=PATIENCE)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process.stdout.close()
        return self.process.returncode
