"""Helpers shared by the test tiers: database back-ends and test task types."""
