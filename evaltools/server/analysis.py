"""What `evaltools server` says about one document: `evaltools check`'s own functions, run on
an editor's text instead of the file on disk, with the configuration of the document's
project. Nothing here knows the protocol (`evaltools.server.protocol` does)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from pathlib import Path

from evaltools.config.model import Config, load_config
from evaltools.diagnostics import Diagnostic
from evaltools.fileio import UsageError, real_path
from evaltools.retrieval.gold.gold_check import GoldCheck
from evaltools.selection import RuleSelection, selection_from


class Form(enum.Enum):
    MARKDOWN = "md"  # a `.md` example: lint and the round trip
    RECORDS = "records"  # `.json`/`.jsonl` examples: lint
    SET = "set"  # a retrieval set: validate, then the gold check off the typing path
    NONE = "none"


@dataclass(frozen=True)
class Project:
    config: Config
    selection: RuleSelection
    problem: str | None = None  # why the configuration could not be read (defaults used)


_projects: dict[tuple[Path, float], Project] = {}


def project_of(path: Path) -> Project:
    """The configuration `evaltools check` would use in the document's folder (re-read when
    its pyproject.toml changes)."""
    from evaltools.config.discovery import find_pyproject

    found = find_pyproject(path.parent)
    try:
        stamp = found.stat().st_mtime if found is not None else 0.0
    except OSError:
        stamp = 0.0
    key = (found or Path(), stamp)
    if key not in _projects:
        try:
            config = load_config(found)
            problem = None
        except UsageError as error:  # a broken pyproject.toml: defaults, and say why
            config, problem = Config(), str(error)
        _projects[key] = Project(config, selection_from(config.rules, None, None), problem)
    return _projects[key]


def form_of(path: Path, data: bytes, config: Config) -> Form:
    """Which checks the document gets, as `check`'s plan gives them to a file below the
    configured `paths` or `sets`; elsewhere (and without a configuration) only a file that
    reads as an eval file is checked, so that a README is not linted as an example."""
    if path.suffix not in (".md", ".json", ".jsonl"):
        return Form.NONE
    real = real_path(path)
    if real in {real_path(p) for p in config.retrieval.sets}:
        return Form.SET
    covered = _covered(real, config)
    if path.suffix == ".md":
        return (
            Form.MARKDOWN
            if covered or data.lstrip(b"\xef\xbb\xbf").startswith(b"+++")
            else Form.NONE
        )
    from evaltools.config.evalfiles import lines_look_like_set, looks_like_example
    from evaltools.positions import lines_of

    if path.suffix == ".jsonl" and lines_look_like_set(lines_of(data)):
        return Form.SET
    return Form.RECORDS if covered or looks_like_example(data) else Form.NONE


def _covered(real: Path, config: Config) -> bool:
    excluded = config.excluded
    if excluded is not None and excluded(real):
        return False
    return any(real == place or place in real.parents for place in map(real_path, config.paths))


@dataclass
class Lint:
    """The fast part: every finding but the gold check's."""

    form: Form
    findings: list[Diagnostic] = field(default_factory=list)
    problem: str | None = None  # why the project's configuration was not read


def encode(text: str) -> bytes:
    # A lone surrogate (a JSON-RPC `\ud800`) stays a byte sequence the reader reports.
    return text.encode("utf-8", "surrogatepass")


def lint(path: Path, text: str) -> Lint:
    """`evaltools check`'s findings on `text` as the content of `path`, gold check aside."""
    project = project_of(path)
    config = project.config
    data = encode(text)
    form = form_of(path, data, config)
    enabled = project.selection.predicate(config.root)
    found: list[Diagnostic] = []
    if form is Form.MARKDOWN:
        from evaltools.check.compose import markdown_findings
        from evaltools.fileio import buffer_text

        read = buffer_text(path, data)
        found = (
            [read] if isinstance(read, Diagnostic) else markdown_findings(read, False, [], enabled)
        )
    elif form is Form.RECORDS:
        from evaltools.example.lint.files import lint_path

        found = lint_path(path, enabled, data)
    elif form is Form.SET:
        from evaltools.retrieval.records.validation.check_files import schema_text_for
        from evaltools.retrieval.records.validation.validate import check_buffer

        settings = config.retrieval
        schema = None if settings.schema is None else schema_text_for(settings.schema)
        found = check_buffer(path, data, schema, settings.collects_drafts(path))
    return Lint(form, _chosen(project, found), project.problem)


@dataclass
class Gold:
    findings: list[Diagnostic]
    check: GoldCheck | None  # None: nothing to resolve against
    root: Path | None


def gold(path: Path, text: str, validated: list[Diagnostic]) -> Gold:
    """The gold check of a set's `text` (slow: the server runs it in a worker thread), its
    findings less those `validated` (validate's) already holds, as `check` reports them."""
    from evaltools.check.compose import gold_findings, gold_not_checked
    from evaltools.retrieval.code.cache_store import cache_folder
    from evaltools.retrieval.gold.gold_check import check_gold
    from evaltools.retrieval.gold.gold_roots import gold_sources

    project = project_of(path)
    config = project.config
    settings = config.retrieval
    if settings.root is None and settings.metas is None:
        return Gold(_chosen(project, [gold_not_checked(path)]), None, None)
    root, metas = gold_sources(None, None, settings.root, settings.metas)
    checked = check_gold(
        [path],
        root=root,
        rev=None,
        metas=metas,
        fix=False,
        jobs=1,
        cache_dir=cache_folder(config.root),
        fix_command="evaltools check --fix",
        texts={path: encode(text)},
    )
    return Gold(_chosen(project, gold_findings(validated, checked)), checked, root)


def _chosen(project: Project, found: list[Diagnostic]) -> list[Diagnostic]:
    """As `check` reports them: the selected rules, at the configured severities."""
    config = project.config
    return config.gate().apply(project.selection.filter(found, config.root))


def canonical(path: Path, text: str) -> str | None:
    """What `roundtrip --fix` would write for `text`, or None: already canonical, not an
    example, or lossy (never a lossy edit)."""
    if path.suffix != ".md":
        return None
    from evaltools.example.markdown.roundtrip_files import canonical_text

    return canonical_text(text, path.name.removesuffix(".md"))


def definition_lines(root: Path | None, chunk_id: str, count: int = 12) -> str | None:
    """The first `count` lines of the definition `chunk_id` names, from the work tree."""
    if root is None:
        return None
    from evaltools.retrieval.code.chunk_id import ChunkIdError, parse_chunk_id

    try:
        cid = parse_chunk_id(chunk_id)
    except ChunkIdError:
        return None
    from evaltools.fileio import read_regular
    from evaltools.retrieval.gold.reanchor.history.bodies import source_lines

    try:
        data = read_regular(root / cid.path)  # no file, a folder, a FIFO: nothing to show
    except OSError:
        return None
    shown = source_lines(data)[cid.start - 1 : min(cid.end, cid.start - 1 + count)]
    return "\n".join(line.removesuffix("\r") for line in shown) if shown else None
