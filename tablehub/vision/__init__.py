"""vision layer."""
