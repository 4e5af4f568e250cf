"""referee layer."""
