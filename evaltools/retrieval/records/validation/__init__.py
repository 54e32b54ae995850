"""Whether a record is valid: the schema, what a schema cannot say, the yes/no compiled from
it for the hot loop, and validation over files."""
