"""The service: the asyncio application, the journal, and the device wiring."""
