"""Team mode's SQL, one module per database (docs/TEAM.md); each dialect module names its own."""
