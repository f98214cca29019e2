"""Play in the browser: a Starlette app serving the table and one WebSocket per seat.

Where things are, from the outside in:

- :mod:`.server`: uvicorn, hardened against floods of connections (``ginrummy serve``);
- :mod:`.app`: :func:`~.app.create_app` puts the app together;
- :mod:`.routes`: the pages, the lobby's API, a browser's saved games, the socket;
- :mod:`.context`: what the routes share (store, manager, settings, per-address limits);
- :mod:`.security`: security headers, same-site posts and sockets, body and rate limits, the
  anonymous player cookie;
- :mod:`.protocol`: the messages a socket may send, validated;
- :mod:`.manager`: the tables in memory (no HTTP), put together from parts (:mod:`.base`):
  :mod:`.connections` (the sockets and what each is sent), :mod:`.changes` (the seats'
  messages, each change stored before anyone is told), :mod:`.computer` (the computer's turns,
  the expert's hints and reviews) and :mod:`.clock` (the move clock);
- :mod:`.tables`: one table's hands and what each seat may see (no network), put together
  from parts (:mod:`.table_base`): :mod:`.table_clock` (the move clock, the away allowance and
  the clock's fairness kept in the store) and :mod:`.table_states` (the state each seat is
  sent); :mod:`.replays`: a stored hand's actions replayed;
- :mod:`.dealing`: shuffles the players can check; :mod:`.limits`: token buckets.
"""
