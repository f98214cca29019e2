"""The app's routes, by concern; each module lists its own in ``ROUTES``:

- :mod:`.pages`: the HTML pages and their static files;
- :mod:`.lobby`: the rule presets, and opening a new table;
- :mod:`.games`: a browser's games (open, finished, statistics) and replays;
- :mod:`.websocket`: one socket per seat, where the game is played;
- :mod:`.ops`: health, readiness and metrics, for those who run the server.

Each route is a plain function of its request or socket; what they share (the store, the
manager, the settings and limits) is the app's :class:`~ginrummy.web.context.Context`.
"""
