"""Rules over the example's identity: repository URL, revision, file name."""

from __future__ import annotations

import re

from evaltools.example.lint.context import LintContext
from evaltools.example.lint.diffs.rules import BAD_FILE_NAME, BAD_REPOSITORY_URL, BAD_REVISION

_HTTPS_URL = re.compile(r"https://[^/\s]+/[^/\s]+/[^/\s]+")
_SSH_URL = re.compile(r"git@[^:\s/]+:[^/\s]+/[^/\s]+")
_REVISION = re.compile(r"[0-9a-f]{40}")
_WORDS = r"[a-z0-9]+(?:[-._][a-z0-9]+)*"
_FILE_NAME = re.compile(rf"{_WORDS}--{_WORDS}\.md")


def _key_line(ctx: LintContext, key: str) -> int:
    if ctx.parsed is None:
        return ctx.record_line
    position = ctx.parsed.front_matter.key_position(key)
    return position[0] if position is not None else 1


def check_metadata(ctx: LintContext) -> None:
    spec = ctx.spec
    front = ctx.parsed.front_matter if ctx.parsed is not None else None
    if front is not None and (not front.closed or front.error is not None):
        return  # the front matter rules already said why these are blank
    url = spec.repository_url
    if not (_HTTPS_URL.fullmatch(url) or _SSH_URL.fullmatch(url)):
        ctx.report(
            BAD_REPOSITORY_URL,
            _key_line(ctx, "repository_url"),
            1,
            f"repository_url {url!r} is not `https://host/owner/repo` or `git@host:owner/repo` "
            "(no trailing slash): the reference cannot tell the repository's name",
            "/repository_url",
        )
    if not _REVISION.fullmatch(spec.revision):
        ctx.report(
            BAD_REVISION,
            _key_line(ctx, "revision"),
            1,
            f"revision {spec.revision!r} is not a full 40-digit lower-case commit id: "
            "use `git rev-parse <rev>`",
            "/revision",
        )


def check_file_name(ctx: LintContext) -> None:
    if ctx.parsed is None:
        return
    name = ctx.path.rsplit("/", 1)[-1]
    if not _FILE_NAME.fullmatch(name):
        ctx.report(
            BAD_FILE_NAME,
            1,
            1,
            f"file name {name!r} is not `<repo>--<behaviour>.md` (lower case, words joined "
            "by `-`, two hyphens between repository and behaviour)",
        )
