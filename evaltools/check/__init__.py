"""`evaltools check` as a service: every check `[tool.evaltools]` asks for, composed."""
