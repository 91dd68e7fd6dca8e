"""The window's dialogs: preview and mapping, settings."""
