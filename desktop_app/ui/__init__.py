"""The window: everything that touches QtWidgets."""
