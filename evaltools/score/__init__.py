"""Zed's edit-prediction scores (`ep score` / `ep eval`), reimplemented from the described
upstream behaviour: per-prediction metrics, selectable metric definitions, aggregation.

Knows nothing of the terminal: `commands/score.py` reads arguments and hands the results to
`report/score_report.py`.
"""
