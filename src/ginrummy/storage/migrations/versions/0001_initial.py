"""Players, games, seats, hands, actions and scorekeeper entries.

Revision ID: 0001
Revises:
Create Date: 2024-06-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None

# Timestamps are naive UTC (the ORM's UTCDateTime reads them back aware).
Stamp = sa.DateTime


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("created_at", Stamp(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_players"),
        sa.UniqueConstraint("name", name="uq_players_name"),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=True),
        sa.Column("name0", sa.String(64), nullable=False),
        sa.Column("name1", sa.String(64), nullable=False),
        sa.Column("player0_id", sa.Integer(), nullable=True),
        sa.Column("player1_id", sa.Integer(), nullable=True),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("final", sa.JSON(), nullable=True),
        sa.Column("created_at", Stamp(), nullable=False),
        sa.Column("updated_at", Stamp(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_games"),
        sa.CheckConstraint("kind IN ('scorekeeper', 'online')", name="ck_games_kind"),
        sa.CheckConstraint("status IN ('open', 'finished', 'abandoned')", name="ck_games_status"),
        sa.CheckConstraint("winner IN (0, 1)", name="ck_games_winner"),
        sa.ForeignKeyConstraint(
            ["player0_id"], ["players.id"], name="fk_games_player0_id_players", ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["player1_id"], ["players.id"], name="fk_games_player1_id_players", ondelete="SET NULL"
        ),
    )
    op.create_index("ix_games_kind_status_updated_at", "games", ["kind", "status", "updated_at"])
    op.create_table(
        "seats",
        sa.Column("game_id", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("created_at", Stamp(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_seats"),
        sa.CheckConstraint("seat IN (0, 1)", name="ck_seats_seat"),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_seats_game_id_games", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name="fk_seats_player_id_players", ondelete="SET NULL"
        ),
    )
    op.create_table(
        "hands",
        sa.Column("game_id", sa.String(16), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("game_number", sa.Integer(), nullable=False),
        sa.Column("dealer", sa.Integer(), nullable=False),
        sa.Column("deck", sa.Text(), nullable=False),
        sa.Column("salt", sa.String(128), nullable=False),
        sa.Column("commitment", sa.String(128), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("started_at", Stamp(), nullable=False),
        sa.Column("ended_at", Stamp(), nullable=True),
        sa.PrimaryKeyConstraint("game_id", "number", name="pk_hands"),
        sa.CheckConstraint("dealer IN (0, 1)", name="ck_hands_dealer"),
        sa.CheckConstraint("number >= 1", name="ck_hands_number"),
        sa.CheckConstraint("game_number >= 1", name="ck_hands_game_number"),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_hands_game_id_games", ondelete="CASCADE"
        ),
    )
    op.create_table(
        "actions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(16), nullable=False),
        sa.Column("hand_number", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("action", sa.String(200), nullable=False),
        sa.Column("created_at", Stamp(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_actions"),
        sa.UniqueConstraint(
            "game_id", "hand_number", "seq", name="uq_actions_game_id_hand_number_seq"
        ),
        sa.CheckConstraint("seat IN (0, 1)", name="ck_actions_seat"),
        sa.ForeignKeyConstraint(
            ["game_id", "hand_number"],
            ["hands.game_id", "hands.number"],
            name="fk_actions_game_id_hand_number_hands",
            ondelete="CASCADE",
        ),
    )
    op.create_table(
        "entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(16), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", Stamp(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_entries"),
        sa.UniqueConstraint("game_id", "seq", name="uq_entries_game_id_seq"),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_entries_game_id_games", ondelete="CASCADE"
        ),
    )


def downgrade() -> None:
    op.drop_table("entries")
    op.drop_table("actions")
    op.drop_table("hands")
    op.drop_table("seats")
    op.drop_index("ix_games_kind_status_updated_at", table_name="games")
    op.drop_table("games")
    op.drop_table("players")
