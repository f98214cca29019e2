"""The schema's Alembic migrations; :func:`ginrummy.storage.database.migrate` runs them."""
