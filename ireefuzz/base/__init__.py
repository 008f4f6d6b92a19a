"""L0 base: no ireefuzz imports (durable writes, argparse option types)."""
