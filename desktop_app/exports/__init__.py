"""Exports: declarative export definitions and the streaming writer; no Qt."""
