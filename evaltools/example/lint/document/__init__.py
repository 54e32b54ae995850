"""Rules over the Markdown document (catalogue `ep.document`): front matter, headings and
blocks, the mistakes that misplace what follows them, recently opened files."""
