"""`[tool.evaltools.severity]`: the severity a rule's findings are reported at, per rule
selector (`EP402 = "error"`, `EP4 = "error"`, `ALL = "warning"`), checked as strictly as
every other key: an unknown selector or severity is a usage error at its place."""

from __future__ import annotations

from collections.abc import Callable

from evaltools.diagnostics import Severity
from evaltools.fileio import UsageError

TABLE = ("tool", "evaltools", "severity")
Fail = Callable[..., UsageError]  # `Validator.fail` of config.schema: (where, message, place)


def severities(value: object, fail: Fail) -> dict[str, Severity]:
    """Each selector of the table and the severity it sets; `fail` places an error."""
    if not isinstance(value, dict):
        raise fail(
            TABLE, '[tool.evaltools.severity] must be a table, e.g. { EP402 = "error" }', "value"
        )
    from evaltools.catalogue import RULES  # only for a configuration that sets severities

    names = tuple(s.value for s in Severity)
    out: dict[str, Severity] = {}
    for selector, severity in value.items():
        if not RULES.is_selector(selector):
            where = " in [tool.evaltools.severity]"
            raise fail((*TABLE, selector), RULES.unknown(selector, "rule selector", where))
        if severity not in names:
            import difflib  # only for an error message

            shown = ", ".join(f'"{n}"' for n in names)
            near = difflib.get_close_matches(str(severity), names, n=1, cutoff=0.5)
            hint = f' (did you mean "{near[0]}"?)' if near else ""
            raise fail(
                (*TABLE, selector),
                f"[tool.evaltools.severity] {selector} must be one of {shown}, "
                f"not {severity!r}{hint}",
                "value",
            )
        out[selector] = Severity(severity)
    return out
