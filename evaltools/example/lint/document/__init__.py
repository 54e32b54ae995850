"""Rules over the Markdown document (their documentation: `rules.py`): front matter, headings and
blocks, the mistakes that misplace what follows them, recently opened files."""
