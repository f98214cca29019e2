"""Seats remember the browser that sits there: the SHA-256 of its anonymous player id.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("owner", sa.String(64), nullable=True))
    op.create_index("ix_seats_owner", "seats", ["owner"])


def downgrade() -> None:
    op.drop_index("ix_seats_owner", table_name="seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("owner")
