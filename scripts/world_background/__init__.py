"""Background pages for the recruitment worlds: many plausible people, companies, teams, news and alumni lists
around the hand-written task pages, generated from hand-written source data (fixtures/world-sources/)."""
