"""The lint rules for edit-prediction examples: codes, names, severities, documentation.

Errors are what makes the reference fail or silently lose data; warnings are what it
tolerates but is probably wrong; info is off unless selected.
"""

from __future__ import annotations

from evaltools.catalogue import rule

# Front matter
MISSING_FRONT_MATTER = rule("EP001")
UNCLOSED_FRONT_MATTER = rule("EP002")
INVALID_FRONT_MATTER = rule("EP003")
MISSING_FRONT_MATTER_KEY = rule("EP004")
UNKNOWN_FRONT_MATTER_KEY = rule("EP005")
FRONT_MATTER_COMMENT = rule("EP006")

# Document structure
HEADING_TOO_DEEP = rule("EP101")
INDENTED_CODE_BLOCK = rule("EP102")
MISSING_CURSOR_POSITION = rule("EP103")
UNKNOWN_SECTION = rule("EP104")
REPEATED_BLOCK = rule("EP105")
FENCE_CLOSED_EARLY = rule("EP106")
NO_EXPECTED_PATCH = rule("EP107")
PROSE_OUTSIDE_SECTIONS = rule("EP108")
ACCEPTED_MARKER_MISPLACED = rule("EP109")
UNCLOSED_FENCE = rule("EP110")
DROPPED_HEADING = rule("EP111")
BAD_FILE_POSITION = rule("EP112")

# Cursor
MISSING_CURSOR_MARKER = rule("EP201")
MARKER_WITHOUT_CARET = rule("EP202")
CURSOR_INSIDE_CHARACTER = rule("EP203")
CURSOR_PAST_END_OF_LINE = rule("EP204")
NON_CANONICAL_ANGLE_MARKER = rule("EP205")
NON_ASCII_BEFORE_CURSOR = rule("EP206")
SEVERAL_CURSOR_MARKERS = rule("EP207")

# Diffs and patches
PATCH_DOES_NOT_APPLY = rule("EP301")
PATCH_OUTSIDE_EXCERPT = rule("EP302")
UNPARSABLE_HUNK_HEADER = rule("EP303")
HUNK_WITHOUT_HEADER = rule("EP304")
HUNK_COUNT_MISMATCH = rule("EP305")
DIFF_LINE_LOOKS_LIKE_HEADER = rule("EP306")
PATCH_CURSOR_AFTER_DELETION = rule("EP307")
PATCH_CURSOR_WITHOUT_CARET = rule("EP308")
EMPTY_PATCH = rule("EP309")
GARBAGE_IN_HUNK = rule("EP310")
TOO_COSTLY_TO_ALIGN = rule("EP311")

# Metadata
BAD_REPOSITORY_URL = rule("EP401")
BAD_REVISION = rule("EP402")
BAD_FILE_NAME = rule("EP403")
BAD_RECORD = rule("EP501")
