"""The pre-commit hooks evaltools offers: one list, rendered two ways.

`.pre-commit-hooks.yaml` (what a `repo: <url>` entry installs) is generated from it
(`python -m evaltools.config.precommit_hooks > .pre-commit-hooks.yaml`; a test keeps the file
in step), and `evaltools init` writes the same hooks as a `repo: local` entry that runs
the evaltools already installed, so the setup works offline on the spot.
"""

from __future__ import annotations

import io
import re
import sys
from dataclasses import dataclass
from pathlib import Path, PurePosixPath


@dataclass(frozen=True)
class Hook:
    id: str
    name: str
    description: str
    entry: str
    files: str | None  # None: the hook runs on every commit, whatever it changed
    pass_filenames: bool = True
    # The [tool.evaltools] key naming where its files live ("paths", or retrieval "sets"):
    # `init` narrows `files` to those places, so a README.md is no example to lint.
    scope: str | None = None


HOOKS: tuple[Hook, ...] = (
    Hook(
        "evaltools-check",
        "evaltools check",
        "Everything [tool.evaltools] asks for (lint, round-trip, validate, gold check).",
        "evaltools check",
        # It checks the whole configured set, not files passed to it, and what breaks that
        # set need not be in it: a deleted source file that gold points into (pre-commit
        # never passes a deleted path), a misspelt table in pyproject.toml. Start-up and
        # the warm definition cache keep a run on every commit cheap.
        None,
        pass_filenames=False,
    ),
    Hook(
        "evaltools-lint",
        "evaltools lint",
        "Lint edit-prediction examples in Markdown.",
        "evaltools lint",
        r"\.md$",
        scope="paths",
    ),
    Hook(
        "evaltools-roundtrip",
        "evaltools roundtrip",
        "Check that each example file round-trips byte for byte.",
        "evaltools roundtrip",
        r"\.md$",
        scope="paths",
    ),
    Hook(
        "evaltools-roundtrip-fix",
        "evaltools roundtrip --fix",
        "Rewrite examples whose layout differs from the canonical form.",
        "evaltools roundtrip --fix",
        r"\.md$",
        scope="paths",
    ),
    Hook(
        "evaltools-validate",
        "evaltools validate",
        "Validate retrieval eval records against the schema.",
        "evaltools validate",
        r"\.jsonl$",
        scope="sets",
    ),
    Hook(
        "evaltools-gold-check",
        "evaltools gold check",
        "Check that every gold chunk ID of the retrieval sets still resolves.",
        "evaltools gold check",
        r"\.jsonl$",
        scope="sets",
    ),
)
HOOK_IDS = tuple(hook.id for hook in HOOKS)
BY_ID = {hook.id: hook for hook in HOOKS}

# The hooks file pins what its `repo:` form builds with; a local entry runs what is on
# PATH. `system` (not 4.4's alias `unsupported`) is what every pre-commit from 3.0 on
# accepts without a warning.
REMOTE_LANGUAGE = "python"
LOCAL_LANGUAGE = "system"
MINIMUM_PRE_COMMIT = "3.0.0"


def needs_escapes(value: str) -> bool:
    """A control character or a line break (U+2028, U+0085 too, which YAML takes as breaks
    and folds): written raw, even quoted, it does not read back. JSON's escapes are YAML
    double-quoted escapes, on one line."""
    return not value.isprintable() or len(value.splitlines()) > 1


def yaml_scalar(value: str) -> str:
    """`value` as a YAML scalar that reads back as this very string, quoted where needed.

    Dumped as YAML 1.1, the version pre-commit's loader speaks, so `yes` or `1:20` are
    quoted too; 1.2 loaders read the result the same way.
    """
    if needs_escapes(value):
        import json

        return json.dumps(value, ensure_ascii=True)
    from ruamel.yaml import YAML

    yaml = YAML(typ="safe", pure=True)
    yaml.width = 1 << 30  # never fold
    yaml.default_flow_style = False
    yaml.version = (1, 1)
    out = io.StringIO()
    yaml.dump({"k": value}, out)
    line = next(line for line in out.getvalue().splitlines() if line.startswith("k: "))
    return line[len("k: ") :]


def narrowed(hook: Hook, places: list[str], base: Path) -> str | None:
    """`hook.files` narrowed to `places` (paths relative to `base`, the folder pre-commit
    matches paths from): a folder to the files below it, a file to itself. None when there
    is nothing to narrow to, or a place outside `base` or all of it leaves nothing out."""
    if hook.files is None or not places:
        return None
    suffix = hook.files.removesuffix("$")
    patterns: list[str] = []
    for place in places:
        path = PurePosixPath(place)
        if path.is_absolute() or ".." in path.parts or path == PurePosixPath("."):
            return None
        name = re.escape(path.as_posix())
        if (base / path).is_dir() or not re.search(hook.files, path.as_posix()):
            patterns.append(f"{name}/.*{suffix}")
        else:
            patterns.append(name)
    return "^" + (patterns[0] if len(patterns) == 1 else f"(?:{'|'.join(patterns)})") + "$"


def hook_fields(
    hook: Hook, language: str, *, describe: bool = True, files: str | None = None
) -> list[tuple[str, str]]:
    """The hook's keys in the order both renderings write them, values as YAML; `files`
    replaces the hook's own pattern."""
    fields = [("id", hook.id), ("name", hook.name)]
    if describe:
        fields.append(("description", hook.description))
    fields += [("entry", hook.entry), ("language", language)]
    rendered = [(key, yaml_scalar(value)) for key, value in fields]
    if not hook.pass_filenames:
        rendered.append(("pass_filenames", "false"))
    if hook.files is None:
        rendered.append(("always_run", "true"))
    else:
        rendered.append(("files", yaml_scalar(files or hook.files)))
    return rendered


def hooks_yaml() -> str:
    """The text of `.pre-commit-hooks.yaml`."""
    lines = [
        "# Hooks offered by evaltools. They work offline, on the files pre-commit passes.",
        "# Generated by `python -m evaltools.config.precommit_hooks`.",
        "# Narrow `files:` of the per-file hooks in your own .pre-commit-config.yaml to where",
        "# your evals live, e.g. `files: ^evals/.*\\.md$` (`evaltools init` does). The",
        "# `evaltools-check` hook runs on every commit and reads [tool.evaltools] itself.",
    ]
    for hook in HOOKS:
        fields = [*hook_fields(hook, REMOTE_LANGUAGE)]
        fields.append(("minimum_pre_commit_version", yaml_scalar(MINIMUM_PRE_COMMIT)))
        lines.append(f"- {fields[0][0]}: {fields[0][1]}")
        lines += [f"  {key}: {value}" for key, value in fields[1:]]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":  # pragma: no cover (the test compares the output instead)
    sys.stdout.write(hooks_yaml())
