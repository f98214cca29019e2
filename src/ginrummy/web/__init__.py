"""Play in the browser: a Starlette app serving the table and one WebSocket per seat."""
