"""The hub's web page and control API (aiohttp, inside the hub's asyncio loop).

* ``board``: what the page shows, built from public data only (``referee.status("public")``,
  public announcements, device health, journal counts without sealed Blackout records);
* ``page``: the HTML (status page, control page) from that public status;
* ``token``: the control token in the data directory and its constant-time check;
* ``server``: the routes, the token check on control actions, start and stop.

Only ``server`` imports aiohttp.
"""
