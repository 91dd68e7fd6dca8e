"""The executor: QThreadPool workers that claim and run tasks; the one place on QtCore."""
