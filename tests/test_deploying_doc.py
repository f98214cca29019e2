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


def command_lines() -> list[str]:
    """Every ``ginrummy serve`` command in the page's code blocks, continuations joined."""
    blocks = re.findall(r"```[^\n]*\n(.*?)```", DOC.read_text(), flags=re.S)
    commands = []
    for block in blocks:
        for line in block.replace("\\\n", " ").splitlines():
            if re.search(r"\bginrummy serve\b", line):
                commands.append(line.split("ExecStart=", 1)[-1].strip())
    return commands


def test_every_option_the_page_names_exists() -> None:
    known = serve_options()
    named = set()
    for line in DOC.read_text().splitlines():
        if not any(program in line for program in OTHER_PROGRAMS):
            named.update(re.findall(r"(?<![\w-])--[a-z][a-z-]*", line))
    assert named, "the page names no option at all?"
    assert named <= known, sorted(named - known)


@pytest.mark.parametrize("command", command_lines())
def test_each_serve_command_line_is_accepted(command: str) -> None:
    words = shlex.split(command)
    args = build_parser().parse_args(words[words.index("serve") :])  # SystemExit if not
    serve._check(args)
    Trusted.parse(args.forwarded_allow_ips)
    Trusted.parse(args.metrics_from)
    if args.db is not None:
        assert resolve_url(args.db)  # a URL or a file path it can read


def test_the_worked_example_has_a_command_line_for_each_app_machine() -> None:
    commands = command_lines()
    hosts = {shlex.split(c)[shlex.split(c).index("--host") + 1] for c in commands if "--host" in c}
    assert {"10.0.0.11", "10.0.0.12"} <= hosts
    assert any("--broker" in c and "--workers" in c and "--metrics-from" in c for c in commands)
