"""The import pipeline: declarative import types, readers, validation, error CSV; no Qt."""
