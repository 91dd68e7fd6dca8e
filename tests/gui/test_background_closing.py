"""A background call that ends as its window goes away: dropped, never a crash (a segmentation fault was seen in
the test suite: a pool thread's emit on a relay the GUI thread was deleting)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Backgrounds closed while their calls end on threads of their own, thousands of times: before the gate, the
# process died with SIGSEGV within the first few hundred rounds (every run of five, measured)
CLOSING = """
import random, sys, threading, time
sys.path.insert(0, sys.argv[1])
from PySide6.QtCore import QCoreApplication, QObject
import shiboken6
from desktop_app.ui.background import Background

app = QCoreApplication([])
threads = []
delivered = []

def runner(work):
    thread = threading.Thread(target=lambda: (time.sleep(random.random() * 0.0005), work()))
    thread.start()
    threads.append(thread)

for round in range(3000):
    parent = QObject()
    background = Background(runner, parent)
    for _ in range(3):
        background.call(lambda: 1, delivered.append)
    time.sleep(random.random() * 0.0005)
    shiboken6.delete(parent)
    if round % 100 == 0:
        app.processEvents()
for thread in threads:
    thread.join()
app.processEvents()
print("delivered", len(delivered))
"""


def test_calls_ending_as_their_window_goes_away_never_crash() -> None:
    done = subprocess.run([sys.executable, "-c", CLOSING, str(ROOT)], capture_output=True, text=True, timeout=300,
                          env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin"})  # fmt: skip
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert done.stdout.strip() == "delivered 0", "an answer reached a receiver that was gone"
