"""devices layer."""
