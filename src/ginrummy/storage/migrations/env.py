"""Alembic's environment: migrate the connection the store hands over, or the configured URL.

Run by Alembic (``alembic.command.upgrade``), never imported by the package. The store passes
its open connection in ``config.attributes["connection"]`` so the migration runs inside the
store's own transaction; the ``sqlalchemy.url`` option serves the ``alembic`` command line.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from ginrummy.storage.models import Base


def run_on(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run() -> None:
    config = context.config
    connection = config.attributes.get("connection")
    if connection is not None:
        run_on(connection)
        return
    url = config.get_main_option("sqlalchemy.url")
    if context.is_offline_mode():
        context.configure(url=url, target_metadata=Base.metadata, literal_binds=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    if not url:
        raise RuntimeError("set sqlalchemy.url, or pass a connection in config.attributes")
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            run_on(connection)
    finally:
        engine.dispose()


# Importing this file outside Alembic (a doctest collector does) must do nothing: the
# ``context`` proxy only has a ``config`` while Alembic runs the environment.
if hasattr(context, "config"):
    run()
