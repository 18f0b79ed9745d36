"""Run reports: aggregation (pure), results.json, summary.md and the terminal summary."""
