"""The rules of `evaltools validate` (RVxxx): what a record line can get wrong."""

from __future__ import annotations

from evaltools import jsonio
from evaltools.catalogue import rule

# Invalid JSON is one rule for both halves (IO008, in the one strict JSON module).
INVALID_JSON = jsonio.INVALID_JSON
BLANK_LINE = rule("RV002")
DUPLICATE_KEY = rule("RV003")
DUPLICATE_QID = rule("RV004")
MISSING_FIELD = rule("RV005")
WRONG_TYPE = rule("RV006")
INVALID_GRADE = rule("RV007")
INVALID_CHUNK_ID = rule("RV008")
REVERSED_SPAN = rule("RV009")
INVALID_VALUE = rule("RV010")
SCHEMA_VIOLATION = rule("RV011")
UNREADABLE_FILE = rule("RV012")
DRAFT_RECORD = rule("RV013")
MISSPELT_FIELD = rule("RV014")
