"""The store: SQLAlchemy engines, the task table and its fenced transitions; no Qt."""
