"""The services the commands share over both domains: `evaltools check` (every check
`[tool.evaltools]` asks for, composed) and `evaltools dupes` (dupes.py)."""
