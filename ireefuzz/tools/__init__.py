"""L5 tools built on the core: campaign, shrinking, filing (repro, bundle, bisect), corpus, check."""
