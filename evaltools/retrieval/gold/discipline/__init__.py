"""The gold discipline: weak labels mined from history, double annotation and arbitration,
audit samples, holdout, duplicates."""
