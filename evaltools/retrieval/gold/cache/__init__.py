"""What `gold check` keeps between runs: bodies, body searches and whole results, and the
key that says when a kept result still holds."""
