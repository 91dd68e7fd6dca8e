"""Task types (handlers) and their registry; no Qt."""
