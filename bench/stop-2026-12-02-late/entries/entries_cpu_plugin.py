import collections
import time

import pytest

_total = collections.Counter()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    t = time.process_time()
    yield
    _total[item.originalname] += time.process_time() - t


def pytest_terminal_summary(terminalreporter):
    for name, t in _total.most_common():
        terminalreporter.write_line(f"{t:6.2f} {name}")
    terminalreporter.write_line(f"CPU in test calls: {sum(_total.values()):.2f} s")
