"""Feeds: watched folders whose settled files become ordinary imports (docs/FEEDS.md; Qt-free)."""
