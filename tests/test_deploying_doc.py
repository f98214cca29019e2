"""docs/deploying.md names only options ``ginrummy serve`` has, and every ``ginrummy serve``
command line in it is one the command accepts (parsed and checked as the command checks its
options before serving, nothing started)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from ginrummy.cli import serve
from ginrummy.cli.main import build_parser
from ginrummy.storage.database import resolve_url
from ginrummy.web.server import Trusted

DOC = Path(__file__).resolve().parents[1] / "docs" / "deploying.md"
#: Lines about these programs name their options, not the server's.
OTHER_PROGRAMS = ("pg_dump", "pg_restore", "createuser", "createdb", "pip wheel", "useradd")


def serve_options() -> set[str]:
    parser = build_parser()
    for action in parser._subparsers._group_actions:  # type: ignore[union-attr]
        choices = getattr(action, "choices", None) or {}
        if "serve" in choices:
            return {o for a in choices["serve"]._actions for o in a.option_strings}
    raise AssertionError("no serve command")


def command_lines() -> list[tuple[str, dict[str, str]]]:
    """Every ``ginrummy serve`` command in the page's code blocks, continuations joined, with
    the environment the page gives it: the ``NAME=value`` words before it, or a unit's
    ``Environment=`` lines and the file its ``EnvironmentFile=`` names (a block of the page
    whose first line is ``# PATH``)."""
    blocks = re.findall(r"```[^\n]*\n(.*?)```", DOC.read_text(), flags=re.S)
    files = {b.splitlines()[0][2:].strip(): b for b in blocks if b.startswith("# /")}
    commands = []
    for block in blocks:
        unit: dict[str, str] = {}
        for line in block.splitlines():
            if line.startswith("Environment="):
                unit.update(_assignments(shlex.split(line.split("=", 1)[1])))
            elif line.startswith("EnvironmentFile="):
                named = files[line.split("=", 1)[1].strip()]
                unit.update(_assignments(named.splitlines()[1:]))
        for line in block.replace("\\\n", " ").splitlines():
            if re.search(r"\bginrummy serve\b", line):
                command = line.split("ExecStart=", 1)[-1].strip()
                before = shlex.split(command.split("ginrummy serve", 1)[0])
                commands.append((command, {**unit, **_assignments(before)}))
    return commands


def _assignments(words: list[str]) -> dict[str, str]:
    """The ``NAME=value`` among ``words``."""
    pairs = (w.split("=", 1) for w in words if re.match(r"[A-Z_]+=", w))
    return {name: value for name, value in pairs}


def test_every_option_the_page_names_exists() -> None:
    known = serve_options()
    named = set()
    for line in DOC.read_text().splitlines():
        if not any(program in line for program in OTHER_PROGRAMS):
            named.update(re.findall(r"(?<![\w-])--[a-z][a-z-]*", line))
    assert named, "the page names no option at all?"
    assert named <= known, sorted(named - known)


@pytest.mark.parametrize(("command", "env"), command_lines())
def test_each_serve_command_line_is_accepted(
    command: str, env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(serve.BROKER_ENV_VAR, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    words = shlex.split(command)
    args = build_parser().parse_args(words[words.index("serve") :])  # SystemExit if not
    serve._check(args)
    Trusted.parse(args.forwarded_allow_ips)
    Trusted.parse(args.metrics_from)
    if args.db is not None:
        assert resolve_url(args.db)  # a URL or a file path it can read


def test_the_worked_example_has_a_command_line_for_each_app_machine() -> None:
    commands = [c for c, _ in command_lines()]
    hosts = {shlex.split(c)[shlex.split(c).index("--host") + 1] for c in commands if "--host" in c}
    assert {"10.0.0.11", "10.0.0.12"} <= hosts
    shared = [(c, env) for c, env in command_lines() if "--workers" in c and "--metrics-from" in c]
    assert any("--broker" in c or serve.BROKER_ENV_VAR in env for c, env in shared)


def test_the_broker_url_is_kept_off_the_command_lines_of_the_worked_example() -> None:
    """A password in the broker's URL (Redis's requirepass) would show in ``ps``: the page's
    commands for the app machines give the URL in the environment, as they give the
    database's password (PGPASSFILE)."""
    app = [(c, env) for c, env in command_lines() if "10.0.0.1" in c and "--host" in c]
    assert len(app) >= 3  # app1, app2 and the systemd unit
    for command, env in app:
        assert "--broker" not in command, command
        assert env.get(serve.BROKER_ENV_VAR, "").startswith("redis://"), command
