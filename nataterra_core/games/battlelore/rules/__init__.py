"""BattleLore's rules: queries, the fold of events, the resolver and the decider."""
