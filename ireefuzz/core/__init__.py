"""L4 core: the one pipeline (graphs -> programs -> IREE -> oracles), its front-ends and metamorphic relations."""
