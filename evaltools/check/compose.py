"""Every check of `evaltools check`, run over a plan: lint and the round trip on examples,
validation and the gold check on retrieval sets, duplicates when configured."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from evaltools.check.plan import Plan
from evaltools.check.rules import GOLD_CHECK_SKIPPED
from evaltools.config.model import Config
from evaltools.diagnostics import Diagnostic, Severity
from evaltools.example.lint.document.causes import MISPLACING_CODES
from evaltools.example.lint.fold import MISREAD, fold_into
from evaltools.example.lint.misread import follows_from
from evaltools.example.markdown.document import ParsedMarkdown
from evaltools.fileio import TextFile, read_text_file
from evaltools.selection import DiagnosticFilter

if TYPE_CHECKING:
    from evaltools.retrieval.gold.gold_check import GoldCheck


@dataclass
class Outcome:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    fixed: list[str] = field(default_factory=list)  # "path: what was rewritten"


def run_checks(
    work: Plan,
    config: Config,
    *,
    fix: bool,
    jobs: int | None = None,
    no_cache: bool = False,
    on_file: Callable[[int], None] | None = None,
    enabled: DiagnosticFilter | None = None,
    fix_command: str = "evaltools check --fix",
) -> Outcome:
    """Everything `config` asks for over `work`; findings are not yet filtered by rule, but
    for lint's, which `enabled` selects before a cause hides what follows from it.
    `on_file` hears the count of example files done so far (for a progress line);
    `fix_command` is what a stale gold ID's finding says to run."""
    out = Outcome(list(work.unlisted))
    out.diagnostics += _examples(work, fix, out.fixed, on_file or (lambda done: None), enabled)
    out.diagnostics += _retrieval(
        work, config, fix, jobs, no_cache=no_cache, fix_command=fix_command
    )
    out.diagnostics += _dupes(work, config)
    return out


def _examples(
    work: Plan,
    fix: bool,
    fixed: list[str],
    on_file: Callable[[int], None],
    enabled: DiagnosticFilter | None,
) -> list[Diagnostic]:
    from evaltools.example.lint.files import lint_path

    found: list[Diagnostic] = []
    for done, path in enumerate(work.examples, 1):
        on_file(done)
        read = read_text_file(path)
        if isinstance(read, Diagnostic):
            found.append(read)
            continue
        found.extend(markdown_findings(read, fix, fixed, enabled))
    for done, path in enumerate(work.example_records, len(work.examples) + 1):
        on_file(done)
        found.extend(lint_path(path, enabled))
    return found


def markdown_findings(
    read: TextFile, fix: bool, fixed: list[str], enabled: DiagnosticFilter | None
) -> list[Diagnostic]:
    """Lint and the round trip on one `.md` example already read (from disk, or an editor's
    text for `evaltools server`), the round trip's findings folded into lint's."""
    from evaltools.example.lint.linter import lint_markdown
    from evaltools.example.markdown.reader import read_markdown
    from evaltools.example.markdown.roundtrip_files import check_text

    # One read and one parse serve both lint and the round trip.
    stem = read.path.name.removesuffix(".md")
    parsed = read_markdown(read.text, stem)
    linted = lint_markdown(read.text, read.display, stem, parsed, enabled)
    result = check_text(read, fix=fix, diff=False, strict_reference=False, parsed=parsed)
    roundtrip = [] if result.fixed else result.diagnostics
    if result.fixed:
        fixed.append(f"{result.path}: rewritten in canonical layout")
    # Selected before the fold, as lint's own findings are: an ignored RT rule raises
    # no lint finding to an error.
    chosen = roundtrip if enabled is None else list(filter(enabled, roundtrip))
    return fold_roundtrip(chosen, linted, parsed, read.text)


def fold_roundtrip(
    roundtrip: list[Diagnostic],
    linted: list[Diagnostic],
    parsed: ParsedMarkdown | None = None,
    source: str = "",
) -> list[Diagnostic]:
    """Lint's findings and the round trip's, each round-trip finding folded into the lint
    finding that already names its cause (an error when it hides one, see `fold_into`).

    A document error (EP0xx/EP1xx) or a misplacing mistake (an indented fence, even as a
    warning) misreads the file, so the round-trip differences that follow from it (see
    `follows_from`) fold into it; otherwise a lint finding on the same line names the same
    mistake, better.
    """
    own = [d for d in roundtrip if d.code.startswith("RT")]
    others = [d for d in roundtrip if not d.code.startswith("RT")]  # a failed write always shows
    misreading = [
        d
        for d in linted
        if d.code in MISPLACING_CODES
        or (d.severity is Severity.ERROR and d.code.startswith(("EP0", "EP1")))
    ]
    if misreading:
        cause = min(misreading, key=Diagnostic.sort_key)
        follows = follows_from(parsed, source, cause)
        caused = [d for d in own if follows(d)]
        own = [d for d in own if not follows(d)]
        linted = [fold_into(d, caused, MISREAD) if d is cause else d for d in linted]
    # The file name (EP4xx) is reported at line 1 and explains no layout there. A loss at the
    # very place of a lint finding is that finding's (a trailing comment after an unknown key
    # is EP006's, not EP005's at the line's start); else the line's first finding names it.
    at_line: dict[int | tuple[int, int], Diagnostic] = {}
    for d in sorted(linted, key=Diagnostic.sort_key):
        if d.severity is not Severity.INFO and not d.code.startswith("EP4"):
            at_line.setdefault(d.line, d)
            at_line.setdefault((d.line, d.column), d)
    hidden: dict[int, list[Diagnostic]] = {}
    kept: list[Diagnostic] = []
    for d in own:
        explained_by = at_line.get((d.line, d.column)) or at_line.get(d.line)
        if explained_by is None:
            kept.append(d)
        else:
            hidden.setdefault(id(explained_by), []).append(d)
    return [fold_into(d, hidden.get(id(d), ())) for d in linted] + kept + others


def _retrieval(
    work: Plan,
    config: Config,
    fix: bool,
    jobs: int | None = None,
    *,
    no_cache: bool = False,
    fix_command: str,
) -> list[Diagnostic]:
    if not work.retrieval_sets:
        return []
    from evaltools.retrieval.code.cache_store import cache_folder
    from evaltools.retrieval.gold.gold_check import check_gold
    from evaltools.retrieval.gold.gold_roots import gold_sources
    from evaltools.retrieval.records.validation.check_files import check_files, schema_text_for

    # Everything comes from this configuration (it may be `--config`, not the cwd's).
    settings = config.retrieval
    found: list[Diagnostic] = []
    schema_text = schema_text_for(settings.schema)
    for chunk in check_files(work.retrieval_sets, schema_text, jobs, settings.collects_drafts):
        found.extend(chunk)
    if settings.root is None and settings.metas is None:
        return found + [gold_not_checked(p) for p in work.retrieval_sets]
    root, metas = gold_sources(None, None, settings.root, settings.metas)
    gold = check_gold(
        work.retrieval_sets,
        root=root,
        rev=None,
        metas=metas,
        fix=fix,
        jobs=jobs,
        cache_dir=None if no_cache else cache_folder(config.root),
        fix_command=fix_command,
    )
    return found + gold_findings(found, gold)


def gold_not_checked(path: Path) -> Diagnostic:
    """RG015: a set whose gold resolves against nothing configured."""
    from evaltools.diagnostics import make
    from evaltools.fileio import display_path

    # A finding, not a note on stderr: a pass that resolved no gold must say so in every
    # format a pipeline reads.
    message = (
        "gold IDs not checked: set `root` (or `metas`) in [tool.evaltools.retrieval] "
        "of pyproject.toml to say where the code is"
    )
    return make(GOLD_CHECK_SKIPPED, display_path(path), 1, 1, message)


def gold_findings(validated: list[Diagnostic], gold: GoldCheck) -> list[Diagnostic]:
    """The gold check's findings that `validated` (validate's) does not already hold."""
    # What validate reported already (an invalid chunk ID is RV008 there, RG006 here; a
    # line that is not JSON is IO008 in both), at the same place, is reported once: as
    # validate's finding, which says more (a JSON pointer).
    seen = {(d.path, d.line, d.column) for d in validated}
    found = [d for d in gold.problems if (d.path, d.line, d.column) not in seen]
    # A rewritten ID is told by its own finding (RG012), in every format.
    found.extend(i.finding for i in gold.items if i.finding is not None)
    return found


def _dupes(work: Plan, config: Config) -> list[Diagnostic]:
    """The duplicate and leakage checks over the same files, when [tool.evaltools] enables them."""
    if not config.dupes.enabled:
        return []
    from evaltools.check.dupes import compare

    examples = work.examples + work.example_records
    found = compare((examples, work.retrieval_sets), None, config.dupes.threshold)
    # Files that cannot be read are lint's and validate's to report, not twice.
    return [pair.to_diagnostic() for pair in found.pairs]
