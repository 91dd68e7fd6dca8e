"""Domain values with no Qt and no database: statuses, error codes, typed task records."""
