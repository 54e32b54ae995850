"""Findings folded into their cause: one mistake, one finding, and never a gate that passes
because the finding it kept is milder than the ones it hid.

Every fold goes through `fold_into`, which lint's own folds (`keep_causes`) and `check`'s
fold of the round trip into lint (`evaltools.check.compose`) share. Selection comes before
any fold: a cause the user disabled hides nothing, and a finding the user disabled raises
no cause.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from evaltools.diagnostics import Diagnostic, Severity
from evaltools.example.lint.context import LintContext
from evaltools.example.lint.misread import follows_from

# Rules whose finding is independent of where blocks land: kept next to a cause.
_INDEPENDENT = ("EP0", "EP4")

# A finding that makes others meaningless: a second cursor marker stays in the excerpt as
# text, so every patch compared with the excerpt seems not to match it.
_MAKES_MOOT = {"EP207": ("EP301", "EP302")}

# Findings that only restate another finding's mistake on the same line: a cursor inside a
# character is the non-ASCII warning made certain; a marker past the line's end makes the
# advice on its canonical form moot; a file header written without its space is also a hunk
# without a header.
_SAME_LINE_MOOT = {"EP203": ("EP206",), "EP204": ("EP205",), "EP306": ("EP304",)}

MISREAD = ", as the example is misread"


def fold_into(cause: Diagnostic, hidden: Iterable[Diagnostic], why: str = "") -> Diagnostic:
    """`cause`, standing for the findings it hides: an error when any of them is one, naming
    them, whatever its rule's severity. Otherwise the fold would lower the exit code below
    what the hidden findings give on their own, and ignoring the cause would make the gate
    stricter."""
    codes = sorted({d.code for d in hidden if d.severity is Severity.ERROR})
    if not codes or cause.severity is Severity.ERROR:
        return cause
    return cause._replace(
        severity=Severity.ERROR,
        message=f"{cause.message} (an error here{why}: it causes {', '.join(codes)})",
    )


def keep_causes(
    ctx: LintContext, enabled: Callable[[Diagnostic], bool] | None = None
) -> list[Diagnostic]:
    """The enabled findings, with what follows from each misplacing mistake left out
    (`### Cursor Position` leaves the example without a cursor: one finding, an error)."""
    found = ctx.diagnostics if enabled is None else list(filter(enabled, ctx.diagnostics))
    causes = [d for d in ctx.causes if any(d is f for f in found)]
    for cause in sorted(causes, key=Diagnostic.sort_key):
        if not any(cause is d for d in found):
            continue  # it follows from an earlier cause
        follows = follows_from(ctx.parsed, ctx.source, cause)
        hidden = [
            d
            for d in found
            if d is not cause and not d.code.startswith(_INDEPENDENT) and follows(d)
        ]
        gone = {id(d) for d in hidden}
        raised = fold_into(cause, hidden, MISREAD)
        found = [raised if d is cause else d for d in found if id(d) not in gone]
    return _drop_moot(found)


def _drop_moot(found: list[Diagnostic]) -> list[Diagnostic]:
    """Each finding that makes others moot stands for them (looked up by rule and line: an
    example may carry thousands of findings)."""
    by_code: dict[str, list[Diagnostic]] = {}
    by_line: dict[tuple[str, int], list[Diagnostic]] = {}
    for d in found:
        by_code.setdefault(d.code, []).append(d)
        by_line.setdefault((d.code, d.line), []).append(d)
    out: list[Diagnostic] = []
    dropped: set[int] = set()
    for d in found:
        hidden = [h for code in _MAKES_MOOT.get(d.code, ()) for h in by_code.get(code, ())]
        hidden += [
            h for code in _SAME_LINE_MOOT.get(d.code, ()) for h in by_line.get((code, d.line), ())
        ]
        dropped.update(id(h) for h in hidden)
        out.append(fold_into(d, hidden))
    return [d for d, original in zip(out, found, strict=True) if id(original) not in dropped]
