"""tablehub: a Raspberry Pi referee and dealer for real tabletop play."""

__version__ = "0.1.0"
