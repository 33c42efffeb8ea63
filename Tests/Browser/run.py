"""Runs the browser tests (every test_*.py here) and ends with one line, `N passed, N failed`.

    python3 Tests/Browser/run.py          # PORTOLAN_BINARY=… to test another build

scripts/test.sh runs it after the Swift suite; scripts/bootstrap.sh installs chromium,
chromium-driver and selenium.
"""
import os
import sys
import unittest


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    suite = unittest.defaultTestLoader.discover(here, pattern="test_*.py", top_level_dir=here)
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    passed = result.testsRun - failed - len(result.skipped)
    print(f"{passed} passed, {failed} failed" + (f", {len(result.skipped)} skipped" if result.skipped else ""))
    return 0 if failed == 0 and result.testsRun > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
